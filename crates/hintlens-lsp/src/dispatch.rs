//! Running read-only requests on worker threads: the pool, the error type handlers return, and
//! the guard that turns panics and salsa cancellations into LSP error responses.

use crossbeam_channel::Sender;
use lsp_server::{ErrorCode, ResponseError};
use serde::Serialize;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::thread::JoinHandle;

/// A request that cannot be answered, as the client will see it.
#[derive(Debug)]
pub(crate) struct RequestError {
    pub code: ErrorCode,
    pub message: String,
}

impl RequestError {
    pub(crate) fn invalid_params(message: impl Into<String>) -> RequestError {
        RequestError { code: ErrorCode::InvalidParams, message: message.into() }
    }

    pub(crate) fn failed(message: impl Into<String>) -> RequestError {
        RequestError { code: ErrorCode::RequestFailed, message: message.into() }
    }

    pub(crate) fn into_response_error(self) -> ResponseError {
        ResponseError { code: self.code as i32, message: self.message, data: None }
    }
}

/// Runs a handler, answering a panic with `InternalError` and a salsa cancellation with
/// `RequestCanceled` (the client cancelled: the local token fired) or `ContentModified` (an
/// edit arrived while the request ran on the previous state).
pub(crate) fn guarded<T: Serialize>(
    method: &str,
    handler: impl FnOnce() -> Result<T, RequestError>,
) -> Result<serde_json::Value, ResponseError> {
    let error = |code: ErrorCode, message: String| ResponseError { code: code as i32, message, data: None };
    match catch_unwind(AssertUnwindSafe(handler)) {
        Ok(Ok(value)) => serde_json::to_value(value)
            .map_err(|e| error(ErrorCode::InternalError, format!("cannot serialize the answer to {method}: {e}"))),
        Ok(Err(e)) => Err(e.into_response_error()),
        Err(payload) => Err(match payload.downcast::<salsa::Cancelled>() {
            Ok(cancelled) if matches!(*cancelled, salsa::Cancelled::Local) => {
                error(ErrorCode::RequestCanceled, format!("{method} was cancelled"))
            }
            Ok(_) => error(ErrorCode::ContentModified, format!("the workspace changed while answering {method}")),
            Err(payload) => error(
                ErrorCode::InternalError,
                format!("hintlens crashed while answering {method}: {} (please report it)", panic_message(&*payload)),
            ),
        }),
    }
}

pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("unknown panic")
}

type Job = Box<dyn FnOnce() + Send>;

/// A fixed set of worker threads, separate from rayon's pool so that indexing never delays
/// answering requests.
pub(crate) struct Pool {
    jobs: Option<Sender<Job>>,
    threads: Vec<JoinHandle<()>>,
}

impl Pool {
    pub(crate) fn new(threads: usize) -> Pool {
        let (jobs, receiver) = crossbeam_channel::unbounded::<Job>();
        let threads = (0..threads)
            .map(|i| {
                let receiver = receiver.clone();
                std::thread::Builder::new()
                    .name(format!("hintlens-worker-{i}"))
                    .spawn(move || {
                        for job in receiver {
                            job();
                        }
                    })
                    .expect("the operating system can start a thread")
            })
            .collect();
        Pool { jobs: Some(jobs), threads }
    }

    /// Jobs must not panic: wrap them in [`guarded`] (a panicking job would end its thread).
    pub(crate) fn spawn(&self, job: impl FnOnce() + Send + 'static) {
        if let Some(jobs) = &self.jobs {
            // The receivers live as long as the pool, so sending cannot fail.
            let _ = jobs.send(Box::new(job));
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.jobs = None;
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}
