//! The main loop: select over the client's messages and internal events; state-changing
//! notifications run here, read-only requests on workers over a database handle and the
//! current [`World`].

use crate::config::{Config, Settings};
use crate::dispatch::{Pool, panic_message};
use crate::indexer::{Outcome, Report};
use crate::paths::{Root, file_path};
use crate::progress::{Progress, Stage};
use crate::scan::Ignores;
use crate::tree::Tree;
use crate::world::{Statement, World};
use crate::{Options, diagnostics};
use crossbeam_channel::{Receiver, Sender};
use hintlens_db::Database;
use hintlens_snapshot::Repository;
use lsp_server::{Connection, ErrorCode, Message, ReqQueue, Response};
use lsp_types::notification::{self as n, Notification as _};
use lsp_types::request::{self as r, Request as _};
use lsp_types::{Diagnostic, InitializeParams, MessageType, NumberOrString};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::error::Error;
use std::hash::{Hash, Hasher};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

mod client;
mod indexing;
mod notifications;
mod requests;

/// Events from workers and the indexer, handled on the main thread.
enum Event {
    Response(Response),
    /// What indexing job `job` did.
    Index {
        job: u64,
        report: Report,
    },
    /// Diagnostics of a generation, and a fingerprint of its selection for lens refreshes.
    Analyzed {
        generation: u64,
        diagnostics: BTreeMap<String, Vec<Diagnostic>>,
        fingerprint: u64,
    },
    Log(String),
}

/// Requests the server sent to the client, by what their answer is for.
enum Outgoing {
    ProgressCreate(NumberOrString),
    Configuration,
    Other,
}

enum Status {
    Indexing { done: usize, total: usize },
    Ready,
    Failed(String),
}

/// An open buffer.
struct Document {
    text: String,
    version: i32,
}

/// What the client can do, from its capabilities.
struct ClientSupport {
    progress: bool,
    lens_refresh: bool,
    watched_files: bool,
    configuration: bool,
}

pub(crate) struct Server {
    connection: Connection,
    db: Database,
    debug_requests: bool,
    client: ClientSupport,
    root: Option<Root>,
    repository: Option<Repository>,
    file_settings: Settings,
    editor_settings: Settings,
    config: Arc<Config>,
    /// Open buffers by repository path; they win over the disk.
    documents: HashMap<String, Document>,
    statement: Option<Statement>,
    ignores: Option<Ignores>,
    tree: Option<Tree>,
    /// Paths that changed (on disk, in a buffer) while the work tree was being scanned, applied
    /// again when the scan lands.
    changed_while_scanning: BTreeSet<String>,
    status: Status,
    generation: u64,
    /// `generation`, for workers: an analysis of a generation already replaced is skipped.
    current_generation: Arc<AtomicU64>,
    world: Option<Arc<World>>,
    requests: ReqQueue<salsa::CancellationToken, Outgoing>,
    pool: Pool,
    events: Sender<Event>,
    event_receiver: Receiver<Event>,
    progress: Option<Progress>,
    progress_count: u64,
    /// What the last scan found, for the end of its progress.
    scan_summary: String,
    index_job: u64,
    hold_indexing: Option<Receiver<()>>,
    /// Stops the running indexing job when a newer one starts.
    cancel_indexing: Arc<std::sync::atomic::AtomicBool>,
    full_index: bool,
    /// Paths whose diagnostics the client shows.
    published: HashSet<String>,
    lens_fingerprint: Option<u64>,
}

impl Server {
    pub(crate) fn new(connection: Connection, params: InitializeParams, options: Options) -> Server {
        let capabilities = &params.capabilities;
        let workspace = capabilities.workspace.as_ref();
        let client = ClientSupport {
            progress: capabilities.window.as_ref().and_then(|w| w.work_done_progress).unwrap_or(false),
            lens_refresh: workspace.and_then(|w| w.code_lens.as_ref()).and_then(|c| c.refresh_support).unwrap_or(false),
            watched_files: workspace
                .and_then(|w| w.did_change_watched_files.as_ref())
                .and_then(|c| c.dynamic_registration)
                .unwrap_or(false),
            configuration: workspace.and_then(|w| w.configuration).unwrap_or(false),
        };
        let (events, event_receiver) = crossbeam_channel::unbounded();
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).max(2);
        let db = Database::with_events(hintlens_batch::frontends(), options.salsa_events);
        let config = Arc::new(Config::resolve(&db.test_patterns(), &[]).0);
        let mut server = Server {
            connection,
            db,
            debug_requests: options.debug_requests,
            client,
            root: None,
            repository: None,
            file_settings: Settings::default(),
            editor_settings: Settings::default(),
            config,
            documents: HashMap::new(),
            statement: None,
            ignores: None,
            tree: None,
            changed_while_scanning: BTreeSet::new(),
            status: Status::Indexing { done: 0, total: 0 },
            generation: 0,
            current_generation: Arc::default(),
            world: None,
            requests: ReqQueue::default(),
            pool: Pool::new(threads),
            events,
            event_receiver,
            progress: None,
            progress_count: 0,
            scan_summary: String::new(),
            index_job: 0,
            hold_indexing: options.hold_indexing,
            cancel_indexing: Arc::default(),
            full_index: options.full_index,
            published: HashSet::new(),
            lens_fingerprint: None,
        };
        match Settings::from_json(params.initialization_options.as_ref().unwrap_or(&serde_json::Value::Null)) {
            Ok(settings) => server.editor_settings = settings,
            Err(e) => server.show(MessageType::WARNING, e),
        }
        match workspace_dir(&params).map(|dir| find_work_tree(&dir).ok_or(dir)) {
            None => server.fail("hintlens needs a workspace folder inside a git work tree".to_owned()),
            Some(Err(dir)) => server.fail(format!("{} is not inside a git work tree", dir.display())),
            Some(Ok(dir)) => match Repository::open(&dir) {
                Ok(repository) => {
                    server.ignores = Some(Ignores::new(&dir));
                    server.root = Some(Root::new(dir));
                    server.repository = Some(repository);
                    server.file_settings = server.read_settings_file();
                }
                Err(e) => server.fail(e.to_string()),
            },
        }
        server
    }

    pub(crate) fn run(mut self) -> Result<(), Box<dyn Error + Send + Sync>> {
        self.register_file_watcher();
        self.reconfigure();
        // Clones, so that the loop can borrow `self` mutably while selecting.
        let (client, events) = (self.connection.receiver.clone(), self.event_receiver.clone());
        let mut shut_down = false;
        loop {
            crossbeam_channel::select! {
                recv(client) -> message => match message {
                    // The client went away without `exit`: nothing left to serve.
                    Err(_) => return Ok(()),
                    Ok(Message::Notification(notification)) if notification.method == n::Exit::METHOD => {
                        return if shut_down { Ok(()) } else { Err("the client sent `exit` without `shutdown`".into()) };
                    }
                    // Not `Connection::handle_shutdown`: it fails on anything but `exit` after
                    // `shutdown`, and a client may still be answering the server's requests then.
                    Ok(Message::Request(request)) if request.method == r::Shutdown::METHOD => {
                        shut_down = true;
                        self.respond(Response::new_ok(request.id, ()));
                    }
                    Ok(Message::Request(request)) if shut_down => {
                        let message = "the server is shutting down".to_owned();
                        self.respond(Response::new_err(request.id, ErrorCode::InvalidRequest as i32, message));
                    }
                    Ok(Message::Request(request)) => self.on_request(request),
                    Ok(Message::Notification(_)) if shut_down => {}
                    Ok(Message::Notification(notification)) => self.on_notification(notification),
                    Ok(Message::Response(response)) => self.on_response(response),
                },
                recv(events) -> event => self.on_event(event.expect("the server holds a sender")),
            }
        }
    }

    /// Publishes a new [`World`] after a change, and starts computing its diagnostics.
    fn rebuild_world(&mut self) {
        let (Some(tree), Some(root)) = (&self.tree, &self.root) else { return };
        self.generation += 1;
        self.current_generation.store(self.generation, Ordering::Relaxed);
        let (code, test) = tree.change_sets(&self.config.test_paths);
        let world = Arc::new(World {
            generation: self.generation,
            root: root.clone(),
            base: tree.base().clone(),
            reference: tree.index(),
            code,
            test,
            changes: std::sync::OnceLock::new(),
            config: self.config.clone(),
            statement: self.statement.clone(),
            open: self.documents.keys().cloned().collect(),
            selections: Default::default(),
        });
        self.world = Some(world.clone());
        if matches!(self.status, Status::Ready) {
            self.analyze(world);
        }
    }

    /// Computes a generation's diagnostics on a worker, filling its selection cache for the
    /// requests that follow an edit.
    fn analyze(&self, world: Arc<World>) {
        let db = self.db.clone();
        let events = self.events.clone();
        // Opening files makes a generation each without writing anything, so nothing cancels
        // their analyses: without this they would queue up before the requests that follow.
        let current = self.current_generation.clone();
        let generation = world.generation;
        let replaced = move || current.load(Ordering::Relaxed) != generation;
        self.pool.spawn(move || {
            if replaced() {
                return;
            }
            let result = catch_unwind(AssertUnwindSafe(|| {
                let diagnostics = diagnostics::compute(&db, &world);
                (diagnostics, fingerprint(&world.selection(&db, world.config.selection)))
            }));
            let event = match result {
                Ok((diagnostics, fingerprint)) => {
                    Event::Analyzed { generation: world.generation, diagnostics, fingerprint }
                }
                // A newer generation is on its way.
                Err(payload) if payload.is::<salsa::Cancelled>() => return,
                Err(payload) => Event::Log(format!(
                    "hintlens crashed while computing diagnostics: {} (please report it)",
                    panic_message(&*payload)
                )),
            };
            let _ = events.send(event);
            if replaced() {
                return;
            }
            // Then every other policy, so that the next hover finds them ready. An edit cancels
            // this; a panic recurs in the hover that needs the policy, which reports it.
            let _ = catch_unwind(AssertUnwindSafe(|| world.all_selections(&db)));
        });
    }

    fn on_event(&mut self, event: Event) {
        match event {
            Event::Response(response) => {
                // A request the client cancelled has been answered already.
                if self.requests.incoming.complete(&response.id).is_some() {
                    self.respond(response);
                }
            }
            Event::Index { job, report } if job == self.index_job => match report {
                Report::Progress(stage, done, total) => {
                    if let Stage::Scanning = stage {
                        self.status = Status::Indexing { done, total };
                    }
                    let step = self.progress.as_mut().map(|p| p.report(stage, done, total));
                    self.apply_progress(step);
                }
                Report::Scanned(Outcome::Done(indexed)) => self.install(indexed),
                Report::Scanned(Outcome::Failed(message)) => self.fail(message),
                // An edit interrupted it; what was parsed stays memoized.
                Report::Scanned(Outcome::Cancelled) => self.start_indexing(),
                Report::WordsRead(vouched) => {
                    let message = format!(
                        "{}; {vouched} unchanged files known from git's index, their words read in the background",
                        self.scan_summary
                    );
                    self.end_progress(message);
                }
            },
            Event::Index { .. } => {}
            Event::Analyzed { generation, diagnostics, fingerprint } if generation == self.generation => {
                self.publish(diagnostics);
                if self.lens_fingerprint != Some(fingerprint) {
                    self.lens_fingerprint = Some(fingerprint);
                    self.refresh_lenses();
                }
            }
            Event::Analyzed { .. } => {}
            Event::Log(message) => self.log(MessageType::ERROR, message),
        }
    }

    fn on_response(&mut self, response: Response) {
        let Some(outgoing) = self.requests.outgoing.complete(response.id.clone()) else { return };
        match outgoing {
            Outgoing::ProgressCreate(token) => {
                let step = match &mut self.progress {
                    Some(p) if p.token == token => Some(p.created(response.response_result.is_ok())),
                    _ => None,
                };
                self.apply_progress(step);
            }
            Outgoing::Configuration => {
                let Ok(items) = response.response_result else { return };
                match Settings::from_json(items.get(0).unwrap_or(&serde_json::Value::Null)) {
                    Ok(settings) => {
                        self.editor_settings = settings;
                        self.reconfigure();
                    }
                    Err(e) => self.show(MessageType::WARNING, e),
                }
            }
            Outgoing::Other => {}
        }
    }
}

/// Changes when anything a code lens shows of the selection changes.
fn fingerprint(identifiers: &[hintlens_hints::Identifier]) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    serde_json::to_string(identifiers).unwrap_or_default().hash(&mut hasher);
    hasher.finish()
}

/// The directory the client opened.
fn workspace_dir(params: &InitializeParams) -> Option<PathBuf> {
    #[allow(deprecated)] // `rootUri` and `rootPath` are what older clients send.
    let uri = params.workspace_folders.as_ref().and_then(|f| f.first()).map(|f| &f.uri).or(params.root_uri.as_ref());
    #[allow(deprecated)]
    uri.and_then(file_path).or_else(|| params.root_path.as_ref().map(PathBuf::from))
}

/// The work tree containing `dir`: the nearest directory at or above it holding `.git`.
fn find_work_tree(dir: &Path) -> Option<PathBuf> {
    dir.ancestors().find(|d| d.join(".git").exists()).map(Path::to_owned)
}
