//! What the server sends the client on its own: messages, diagnostics, lens refreshes, file
//! watching and progress.

use super::{Outgoing, Server};
use crate::progress::{Progress, Step};
use lsp_server::{Message, Notification};
use lsp_types::notification::{self as n, Notification as _};
use lsp_types::request as r;
use lsp_types::{
    Diagnostic, DidChangeWatchedFilesRegistrationOptions, FileSystemWatcher, GlobPattern, LogMessageParams,
    MessageType, PublishDiagnosticsParams, Registration, RegistrationParams, ShowMessageParams,
    WorkDoneProgressCreateParams,
};
use std::collections::BTreeMap;

impl Server {
    pub(super) fn send(&self, message: Message) {
        // Fails only when the client is gone, and then the main loop ends on its own.
        let _ = self.connection.sender.send(message);
    }

    pub(super) fn notify<N: n::Notification>(&self, params: N::Params) {
        self.send(Notification::new(N::METHOD.to_owned(), params).into());
    }

    pub(super) fn request<R: r::Request>(&mut self, params: R::Params, outgoing: Outgoing) {
        let request = self.requests.outgoing.register(R::METHOD.to_owned(), params, outgoing);
        self.send(request.into());
    }

    pub(super) fn show(&self, typ: MessageType, message: String) {
        self.notify::<n::ShowMessage>(ShowMessageParams { typ, message });
    }

    pub(super) fn log(&self, typ: MessageType, message: String) {
        self.notify::<n::LogMessage>(LogMessageParams { typ, message });
    }

    /// Sends the diagnostics of a generation, clearing those of files that have none now.
    pub(super) fn publish(&mut self, diagnostics: BTreeMap<String, Vec<Diagnostic>>) {
        let Some(root) = &self.root else { return };
        let published = std::mem::replace(&mut self.published, diagnostics.keys().cloned().collect());
        let cleared: Vec<(String, Vec<Diagnostic>)> = published
            .into_iter()
            .filter(|path| !diagnostics.contains_key(path))
            .map(|path| (path, Vec::new()))
            .collect();
        for (path, diagnostics) in cleared.into_iter().chain(diagnostics) {
            let version = self.documents.get(&path).map(|d| d.version);
            self.notify::<n::PublishDiagnostics>(PublishDiagnosticsParams {
                uri: root.uri(&path),
                diagnostics,
                version,
            });
        }
    }

    pub(super) fn refresh_lenses(&mut self) {
        if self.client.lens_refresh {
            self.request::<r::CodeLensRefresh>((), Outgoing::Other);
        }
    }

    pub(super) fn register_file_watcher(&mut self) {
        if !self.client.watched_files || self.root.is_none() {
            return;
        }
        let options = DidChangeWatchedFilesRegistrationOptions {
            watchers: vec![FileSystemWatcher { glob_pattern: GlobPattern::String("**/*".to_owned()), kind: None }],
        };
        let registration = Registration {
            id: "hintlens/watch".to_owned(),
            method: n::DidChangeWatchedFiles::METHOD.to_owned(),
            register_options: Some(serde_json::to_value(options).expect("plain data serializes")),
        };
        self.request::<r::RegisterCapability>(
            RegistrationParams { registrations: vec![registration] },
            Outgoing::Other,
        );
    }

    pub(super) fn begin_progress(&mut self) {
        if !self.client.progress {
            return;
        }
        if let Some(mut previous) = self.progress.take() {
            let step = previous.end("restarted".to_owned());
            self.apply_progress(Some(step));
        }
        self.progress_count += 1;
        let progress = Progress::new(format!("hintlens/indexing/{}", self.progress_count));
        let token = progress.token.clone();
        self.progress = Some(progress);
        self.request::<r::WorkDoneProgressCreate>(
            WorkDoneProgressCreateParams { token: token.clone() },
            Outgoing::ProgressCreate(token),
        );
    }

    pub(super) fn end_progress(&mut self, message: String) {
        let step = self.progress.as_mut().map(|p| p.end(message));
        self.apply_progress(step);
    }

    pub(super) fn apply_progress(&mut self, step: Option<Step>) {
        let Some(step) = step else { return };
        for params in step.notifications {
            self.notify::<n::Progress>(params);
        }
        if step.finished {
            self.progress = None;
        }
    }
}
