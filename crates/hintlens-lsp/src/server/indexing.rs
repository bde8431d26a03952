//! Settings and the indexing runs they start.

use super::{Event, Outgoing, Server, Status};
use crate::config::{CONFIG_FILE, Config, Settings};
use crate::indexer::{self, Indexed, Job};
use crate::tree::Tree;
use crate::world::{Base, Statement};
use lsp_types::request as r;
use lsp_types::{ConfigurationItem, ConfigurationParams, MessageType};
use std::sync::Arc;
use std::sync::atomic::Ordering;

impl Server {
    pub(super) fn read_settings_file(&self) -> Settings {
        let Some(text) = self.current_text(CONFIG_FILE) else { return Settings::default() };
        Settings::from_toml(&text).unwrap_or_else(|e| {
            self.show(MessageType::WARNING, e);
            Settings::default()
        })
    }

    pub(super) fn ask_configuration(&mut self) {
        let params = ConfigurationParams {
            items: vec![ConfigurationItem { scope_uri: None, section: Some("hintlens".to_owned()) }],
        };
        self.request::<r::WorkspaceConfiguration>(params, Outgoing::Configuration);
    }

    /// Recomputes the settings from their layers and acts on what changed.
    pub(super) fn reconfigure(&mut self) {
        let layers = [(CONFIG_FILE, &self.file_settings), ("hintlens settings", &self.editor_settings)];
        let (config, warnings) = Config::resolve(&self.db.test_patterns(), &layers);
        for warning in warnings {
            self.show(MessageType::WARNING, warning);
        }
        let base_changed = config.base != self.config.base || self.index_job == 0;
        self.config = Arc::new(config);
        self.reload_statement();
        if let Some(Statement { path, text: None }) = &self.statement {
            self.show(MessageType::WARNING, format!("the task statement {path} does not exist"));
        }
        if base_changed {
            self.start_indexing();
        } else {
            self.rebuild_world();
        }
    }

    pub(super) fn reload_statement(&mut self) {
        self.statement =
            self.config.statement.clone().map(|path| Statement { text: self.current_text(&path).map(Arc::from), path });
    }

    /// Starts reading the base and comparing the work tree with it, stopping a job that runs.
    pub(super) fn start_indexing(&mut self) {
        let (Some(repository), Some(root)) = (self.repository.clone(), self.root.clone()) else { return };
        if !matches!(self.status, Status::Indexing { .. }) || self.index_job == 0 {
            self.begin_progress();
        }
        self.status = Status::Indexing { done: 0, total: 0 };
        self.index_job += 1;
        self.cancel_indexing.store(true, Ordering::Relaxed);
        self.cancel_indexing = Arc::default();
        let job_id = self.index_job;
        let job = Job {
            repository,
            root,
            base: self.config.base.clone(),
            frontends: self.db.frontends(),
            words: self.db.blob_words_table(),
            cancel: self.cancel_indexing.clone(),
            full_index: self.full_index.then(|| self.db.clone()),
        };
        let hold = self.hold_indexing.take();
        let events = self.events.clone();
        indexer::spawn(job, hold, move |report| {
            let _ = events.send(Event::Index { job: job_id, report });
        });
    }

    /// Re-indexes when git moved the base (a commit, a checkout), or when indexing failed and
    /// the repository changed since (the base may exist now).
    pub(super) fn check_base_moved(&mut self) {
        let Some(repository) = &self.repository else { return };
        let moved = match (&self.status, &self.tree) {
            (Status::Failed(_), _) => true,
            (Status::Ready, Some(tree)) => {
                repository.resolve_commit(&self.config.base).is_ok_and(|commit| commit != tree.base().commit)
            }
            _ => false,
        };
        if moved {
            self.start_indexing();
        }
    }

    /// Lays the work tree's changes over the base, and starts answering.
    pub(super) fn install(&mut self, indexed: Indexed) {
        let Some(repository) = &self.repository else { return };
        let Indexed { commit, snapshot, holdings, changed, deleted, scanned, full } = indexed;
        let message = format!(
            "compared {scanned} work tree files with {}: {} changed, {} deleted",
            self.config.base,
            changed.len(),
            deleted.len()
        );
        let index = full.unwrap_or_else(|| self.db.snapshot_on_demand(&snapshot, Box::new(repository.reader())));
        // The base never changes: an edit asks it the same counts again.
        let index = index.remembering_counts();
        let base = Arc::new(Base { commit, snapshot, index, holdings });
        self.tree = Some(Tree::new(&self.db, base, changed, deleted));
        // Buffers, and files changed while the work tree was being read.
        let mut paths = std::mem::take(&mut self.changed_while_scanning);
        paths.extend(self.documents.keys().cloned());
        for path in paths {
            self.sync_file(&path);
        }
        self.status = Status::Ready;
        // The progress goes on while the words of unchanged files are read in the background.
        self.scan_summary = message;
        self.rebuild_world();
    }

    pub(super) fn fail(&mut self, message: String) {
        self.show(MessageType::ERROR, format!("hintlens: {message}"));
        self.status = Status::Failed(message.clone());
        self.end_progress(message);
    }
}
