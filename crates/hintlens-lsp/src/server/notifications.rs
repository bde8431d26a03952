//! Notifications: documents, files on disk, settings, cancellation.

use super::{Document, Server, Status};
use crate::config::{CONFIG_FILE, Settings};
use crate::dispatch::panic_message;
use crate::text;
use lsp_server::{ErrorCode, Notification, RequestId, Response};
use lsp_types::notification::{self as n, Notification as _};
use lsp_types::{FileChangeType, MessageType, NumberOrString};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

impl Server {
    pub(super) fn on_notification(&mut self, notification: Notification) {
        let method = notification.method.clone();
        // A bug in one notification must not take the server down; the client hears of it.
        if let Err(payload) = catch_unwind(AssertUnwindSafe(|| self.handle_notification(notification))) {
            let message =
                format!("hintlens crashed while handling {method}: {} (please report it)", panic_message(&*payload));
            self.log(MessageType::ERROR, message);
        }
    }

    pub(super) fn handle_notification(&mut self, notification: Notification) {
        match notification.method.as_str() {
            n::DidOpenTextDocument::METHOD => {
                let Some(p) = self.params::<n::DidOpenTextDocument>(notification) else { return };
                let Some(path) = self.path_of(&p.text_document.uri) else { return };
                self.documents
                    .insert(path.clone(), Document { text: p.text_document.text, version: p.text_document.version });
                self.content_changed(vec![path], true);
            }
            n::DidChangeTextDocument::METHOD => {
                let Some(p) = self.params::<n::DidChangeTextDocument>(notification) else { return };
                let Some(path) = self.path_of(&p.text_document.uri) else { return };
                let Some(document) = self.documents.get_mut(&path) else {
                    return self.log(MessageType::WARNING, format!("didChange for {path}, which is not open"));
                };
                for change in &p.content_changes {
                    text::apply_change(&mut document.text, change);
                }
                document.version = p.text_document.version;
                self.content_changed(vec![path], false);
            }
            n::DidSaveTextDocument::METHOD => {
                // The buffer is already known; only a client that sends the text anyway adds news.
                let Some(p) = self.params::<n::DidSaveTextDocument>(notification) else { return };
                let (Some(path), Some(text)) = (self.path_of(&p.text_document.uri), p.text) else { return };
                if let Some(document) = self.documents.get_mut(&path) {
                    document.text = text;
                    self.content_changed(vec![path], false);
                }
            }
            n::DidCloseTextDocument::METHOD => {
                let Some(p) = self.params::<n::DidCloseTextDocument>(notification) else { return };
                let Some(path) = self.path_of(&p.text_document.uri) else { return };
                // Back to the file on disk.
                if self.documents.remove(&path).is_some() {
                    self.content_changed(vec![path], true);
                }
            }
            n::DidChangeWatchedFiles::METHOD => {
                let Some(p) = self.params::<n::DidChangeWatchedFiles>(notification) else { return };
                self.files_changed_on_disk(p.changes);
            }
            n::DidChangeConfiguration::METHOD => {
                let Some(p) = self.params::<n::DidChangeConfiguration>(notification) else { return };
                match Settings::from_json(&p.settings) {
                    // Pull-model clients send nothing and expect to be asked.
                    Ok(settings) if settings.is_empty() && self.client.configuration => self.ask_configuration(),
                    Ok(settings) => {
                        self.editor_settings = settings;
                        self.reconfigure();
                    }
                    Err(e) => self.show(MessageType::WARNING, e),
                }
            }
            n::Cancel::METHOD => {
                let Some(p) = self.params::<n::Cancel>(notification) else { return };
                let id: RequestId = match p.id {
                    NumberOrString::Number(n) => n.into(),
                    NumberOrString::String(s) => s.into(),
                };
                if let Some(token) = self.requests.incoming.complete(&id) {
                    token.cancel();
                    let message = "cancelled by the client".to_owned();
                    self.respond(Response::new_err(id, ErrorCode::RequestCanceled as i32, message));
                }
            }
            // `$/…` and unknown notifications are ignored, as LSP asks.
            _ => {}
        }
    }

    pub(super) fn params<N: n::Notification>(&self, notification: Notification) -> Option<N::Params> {
        match serde_json::from_value(notification.params) {
            Ok(params) => Some(params),
            Err(e) => {
                self.log(MessageType::ERROR, format!("invalid parameters for {}: {e}", N::METHOD));
                None
            }
        }
    }

    /// The repository path of a document; `None` (and nothing to do) outside the work tree.
    pub(super) fn path_of(&self, uri: &lsp_types::Uri) -> Option<String> {
        self.root.as_ref()?.relative_uri(uri)
    }

    pub(super) fn files_changed_on_disk(&mut self, changes: Vec<lsp_types::FileEvent>) {
        let mut paths = Vec::new();
        let mut git_changed = false;
        for change in changes {
            let Some(path) = self.path_of(&change.uri) else { continue };
            if path == ".git" || path.starts_with(".git/") {
                git_changed = true;
                continue;
            }
            if path.rsplit('/').next() == Some(".gitignore")
                && let Some(ignores) = &mut self.ignores
            {
                ignores.reload();
            }
            if change.typ == FileChangeType::DELETED
                && let Some(tree) = &self.tree
            {
                // A deleted directory is one event for all the files it held.
                paths.extend(tree.files_under(&self.db, &path));
            }
            paths.push(path);
        }
        paths.retain(|path| !self.documents.contains_key(path));
        self.content_changed(paths, false);
        if git_changed {
            self.check_base_moved();
        }
    }

    /// The current reference content of `paths` changed (an edit, a buffer closed, the disk).
    /// `opened_or_closed`: the set of open documents changed too, which the world records even
    /// if no content changed.
    pub(super) fn content_changed(&mut self, paths: Vec<String>, opened_or_closed: bool) {
        let mut changed = opened_or_closed;
        for path in paths {
            if path == CONFIG_FILE {
                self.file_settings = self.read_settings_file();
                self.reconfigure();
                continue;
            }
            if self.statement.as_ref().is_some_and(|s| s.path == path) {
                self.reload_statement();
                changed = true;
            }
            if matches!(self.status, Status::Indexing { .. }) {
                self.changed_while_scanning.insert(path.clone());
            }
            changed |= self.sync_file(&path);
        }
        if changed {
            self.rebuild_world();
        }
    }

    /// Brings the reference input of `path` in line with its buffer or disk content.
    pub(super) fn sync_file(&mut self, path: &str) -> bool {
        if self.tree.is_none() || self.ignores.as_mut().is_some_and(|i| i.is_ignored(path)) {
            return false;
        }
        let content = self.current_content(path);
        let tree = self.tree.as_mut().expect("checked above");
        tree.set_file(&mut self.db, path, content)
    }

    pub(super) fn current_content(&self, path: &str) -> Option<Arc<[u8]>> {
        match self.documents.get(path) {
            Some(document) => Some(Arc::from(document.text.as_bytes())),
            None => std::fs::read(self.root.as_ref()?.join(path)).ok().map(Arc::from),
        }
    }

    pub(super) fn current_text(&self, path: &str) -> Option<String> {
        self.current_content(path).map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
    }
}
