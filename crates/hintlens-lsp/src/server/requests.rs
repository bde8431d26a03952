//! Requests: routing, and running the read-only ones on workers.

use super::{Event, Server, Status};
use crate::config::Config;
use crate::dispatch::{RequestError, guarded};
use crate::protocol::{self, debug};
use crate::world::World;
use crate::{hints, hover, lenses};
use hintlens_db::Database;
use lsp_server::{ErrorCode, Request, RequestId, Response};
use lsp_types::request::{self as r, Request as _};
use salsa::Database as _;
use serde::Serialize;
use serde::de::DeserializeOwned;

impl Server {
    pub(super) fn on_request(&mut self, request: Request) {
        match request.method.as_str() {
            r::HoverRequest::METHOD => self.read(request, hover::hover, |_, message, _| Ok(hover::indexing(message))),
            r::CodeLensRequest::METHOD => {
                self.read(request, lenses::code_lenses, |_, message, _| Ok(lenses::indexing(message)))
            }
            r::CodeLensResolve::METHOD => match serde_json::from_value(request.params) {
                Ok(lens) => self.respond(Response::new_ok(request.id, lenses::resolve(lens))),
                Err(e) => self.respond(invalid_params(request.id, &request.method, e)),
            },
            r::ExecuteCommand::METHOD => self.read(
                request,
                |db, world, params| hints::hints(db, world, hints::command_params(params)?),
                |config, message, params| hints::indexing(config, message, hints::command_params(params)?),
            ),
            protocol::HINTS_METHOD => self.read(request, hints::hints, hints::indexing),
            debug::PANIC if self.debug_requests => self.read(
                request,
                |_, _, _: serde_json::Value| -> Result<(), RequestError> { panic!("{} was requested", debug::PANIC) },
                |_, _, _| Ok(()),
            ),
            debug::SLEEP if self.debug_requests => self.read(request, sleep, |_, _, _| Ok(())),
            method => {
                let message = format!("unknown request method `{method}`");
                self.respond(Response::new_err(request.id, ErrorCode::MethodNotFound as i32, message));
            }
        }
    }

    /// Answers a read-only request: on a worker once the repository is indexed, at once with
    /// `while_indexing` before, with the failure if indexing failed.
    pub(super) fn read<P, R>(
        &mut self,
        request: Request,
        handler: impl FnOnce(&Database, &World, P) -> Result<R, RequestError> + Send + 'static,
        while_indexing: impl FnOnce(&Config, &str, P) -> Result<R, RequestError>,
    ) where
        P: DeserializeOwned + Send + 'static,
        R: Serialize,
    {
        let Request { id, method, params } = request;
        let params: P = match serde_json::from_value(params) {
            Ok(params) => params,
            Err(e) => return self.respond(invalid_params(id, &method, e)),
        };
        match &self.status {
            Status::Failed(message) => {
                let message = message.clone();
                self.respond(Response::new_err(id, ErrorCode::RequestFailed as i32, message));
            }
            Status::Indexing { .. } => {
                let message = self.indexing_message();
                let result = guarded(&method, || while_indexing(&self.config, &message, params));
                self.respond(Response { id, response_result: result });
            }
            Status::Ready => {
                let world = self.world.clone().expect("a ready server has a world");
                let db = self.db.clone();
                self.requests.incoming.register(id.clone(), db.cancellation_token());
                let events = self.events.clone();
                self.pool.spawn(move || {
                    let result = guarded(&method, || handler(&db, &world, params));
                    // Before answering, so that an edit waiting for this handle goes ahead.
                    drop(db);
                    let _ = events.send(Event::Response(Response { id, response_result: result }));
                });
            }
        }
    }

    pub(super) fn indexing_message(&self) -> String {
        match self.status {
            Status::Indexing { done, total } if total > 0 => format!(
                "hintlens is still indexing the repository ({done} of {total} files); ask again when it finishes."
            ),
            _ => "hintlens is still indexing the repository; ask again when it finishes.".to_owned(),
        }
    }

    pub(super) fn respond(&self, response: Response) {
        self.send(response.into());
    }
}

/// The debug request standing for a slow query: it waits, checking for cancellation as a
/// query would.
fn sleep(db: &Database, _: &World, params: debug::SleepParams) -> Result<(), RequestError> {
    let until = std::time::Instant::now() + std::time::Duration::from_millis(params.ms);
    while std::time::Instant::now() < until {
        db.unwind_if_revision_cancelled();
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    Ok(())
}

fn invalid_params(id: RequestId, method: &str, error: serde_json::Error) -> Response {
    Response::new_err(id, ErrorCode::InvalidParams as i32, format!("invalid parameters for {method}: {error}"))
}
