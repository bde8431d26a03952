//! The stdio transport: LSP's `Content-Length` framing over any reader and writer, surviving
//! bad input.
//!
//! lsp-server's own stdio transport ends the connection at the first body that is not a valid
//! message, which ends the server. Here a body that is not JSON gets a JSON-RPC *Parse error*
//! response, valid JSON that is no JSON-RPC message an *Invalid Request* response (with its id
//! when it has one) — both with a `null` id where the protocol asks for one, which lsp-server's
//! `Response` cannot express — and a malformed header block is skipped up to the next header
//! block; each is logged on standard error, and the server keeps serving.

use crossbeam_channel::{Receiver, Sender, bounded, never, select, unbounded};
use lsp_server::{Connection, ErrorCode, Message};
use serde_json::{Value, json};
use std::io::{self, BufRead, Write};
use std::thread::{self, JoinHandle};

/// The transport's threads; `join` once the server has dropped its connection.
pub struct Transport {
    reader: JoinHandle<io::Result<()>>,
    writer: JoinHandle<io::Result<()>>,
}

impl Transport {
    /// Waits for both threads: the reader ends at the end of input or after `exit`, the writer
    /// when the server drops its sender.
    pub fn join(self) -> io::Result<()> {
        let reader = self.reader.join().map_err(|_| io::Error::other("the LSP reader thread panicked"))?;
        let writer = self.writer.join().map_err(|_| io::Error::other("the LSP writer thread panicked"))?;
        reader.and(writer)
    }
}

/// A connection over standard input and output.
pub fn stdio() -> (Connection, Transport) {
    connect(io::BufReader::new(io::stdin()), io::stdout(), |line| eprintln!("hintlens lsp: {line}"))
}

/// A connection over `input` and `output`; `log` receives a line for each piece of bad input.
pub fn connect<R, W>(input: R, output: W, log: impl Fn(&str) + Send + 'static) -> (Connection, Transport)
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (to_server, from_client) = bounded::<Message>(0);
    let (to_client, from_server) = bounded::<Message>(0);
    let (errors, error_replies) = unbounded::<Value>();
    let reader = thread::Builder::new()
        .name("hintlens-lsp-reader".into())
        .spawn(move || read_loop(input, &to_server, &errors, &log))
        .expect("a thread for the LSP reader");
    let writer = thread::Builder::new()
        .name("hintlens-lsp-writer".into())
        .spawn(move || write_loop(output, &from_server, error_replies))
        .expect("a thread for the LSP writer");
    (Connection { sender: to_client, receiver: from_client }, Transport { reader, writer })
}

fn read_loop(
    mut input: impl BufRead,
    to_server: &Sender<Message>,
    errors: &Sender<Value>,
    log: &dyn Fn(&str),
) -> io::Result<()> {
    loop {
        let body = match read_frame(&mut input, log)? {
            None => return Ok(()),
            Some(body) => body,
        };
        let value: Value = match serde_json::from_slice(&body) {
            Ok(value) => value,
            Err(e) => {
                log(&format!("a message body is not JSON ({e}); answered with a parse error"));
                let _ =
                    errors.send(error_reply(Value::Null, ErrorCode::ParseError, format!("the body is not JSON: {e}")));
                continue;
            }
        };
        // lsp-server reads a request whose id is no number or string as a notification.
        let parsed = match serde_json::from_value::<Message>(value.clone()) {
            Ok(Message::Notification(_)) if value.get("id").is_some() => {
                Err(serde::de::Error::custom("the id is neither a number nor a string"))
            }
            parsed => parsed,
        };
        match parsed {
            Ok(message) => {
                let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                if to_server.send(message).is_err() || exit {
                    return Ok(());
                }
            }
            Err(e) => {
                // A request's id, when it has a valid one, so the client can match the reply.
                let id = value.get("id").filter(|id| id.is_number() || id.is_string()).cloned();
                log(&format!("a message is not a JSON-RPC request, response or notification ({e})"));
                // A notification (no id) gets no reply; anything else does, with `null` for an
                // id that is missing or invalid.
                if value.get("id").is_some() || value.get("method").is_none() {
                    let message = format!("not a JSON-RPC request, response or notification: {e}");
                    let _ = errors.send(error_reply(id.unwrap_or(Value::Null), ErrorCode::InvalidRequest, message));
                }
            }
        }
    }
}

fn error_reply(id: Value, code: ErrorCode, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code as i32, "message": message}})
}

/// The next body, skipping header blocks that cannot be read (with a log line each); `None` at
/// the end of input.
fn read_frame(input: &mut impl BufRead, log: &dyn Fn(&str)) -> io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    loop {
        let mut length: Option<usize> = None;
        let mut bad: Option<String> = None;
        // One header block, up to its empty line.
        loop {
            line.clear();
            if input.read_until(b'\n', &mut line)? == 0 {
                if bad.is_some() || length.is_some() {
                    log("the input ended inside a message header");
                }
                return Ok(None);
            }
            let text = line.strip_suffix(b"\n").unwrap_or(&line);
            let text = text.strip_suffix(b"\r").unwrap_or(text);
            if text.is_empty() {
                if length.is_none() && bad.is_none() {
                    // Blank lines between messages.
                    continue;
                }
                break;
            }
            let header = String::from_utf8_lossy(text);
            match header.split_once(':') {
                Some((name, value)) if name.trim().eq_ignore_ascii_case("Content-Length") => {
                    match value.trim().parse::<usize>() {
                        Ok(n) => length = Some(n),
                        Err(_) => bad = Some(format!("a Content-Length that is not a length: {header:?}")),
                    }
                }
                Some(_) => {}
                None => {
                    bad.get_or_insert_with(|| format!("a header line that is not `Name: value`: {header:?}"));
                }
            }
        }
        match (length, bad) {
            (Some(length), None) => {
                let mut body = vec![0; length];
                input.read_exact(&mut body)?;
                return Ok(Some(body));
            }
            (_, Some(reason)) => log(&format!("skipped a message with {reason}")),
            (None, None) => log("skipped a message without a Content-Length header"),
        }
    }
}

fn write_loop(mut output: impl Write, from_server: &Receiver<Message>, errors: Receiver<Value>) -> io::Result<()> {
    let mut errors = Some(errors);
    loop {
        let error_replies = errors.clone().unwrap_or_else(never);
        select! {
            recv(from_server) -> message => match message {
                Ok(message) => message.write(&mut output)?,
                // The server is done.
                Err(_) => return Ok(()),
            },
            recv(error_replies) -> reply => match reply {
                Ok(reply) => {
                    let text = reply.to_string();
                    write!(output, "Content-Length: {}\r\n\r\n{text}", text.len())?;
                    output.flush()?;
                }
                // The reader is done; keep writing the server's messages.
                Err(_) => errors = None,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A writer the test can read back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    /// The bodies written to the client, as JSON.
    fn written(output: &Shared) -> Vec<Value> {
        let bytes = output.0.lock().unwrap().clone();
        let mut input = io::Cursor::new(bytes);
        let mut out = Vec::new();
        while let Some(body) = read_frame(&mut input, &|_| {}).unwrap() {
            out.push(serde_json::from_slice(&body).unwrap());
        }
        out
    }

    #[test]
    fn bad_bodies_get_error_replies_and_the_good_ones_get_through() {
        let input = [
            frame(r#"{"jsonrpc":"2.0","id":5,"method":"textDocument/hover","params":"#),
            frame(r#"{"jsonrpc":"2.0","id":6}"#),
            frame(r#"[1, 2]"#),
            frame(r#"{"jsonrpc":"2.0","method":"$/weird","params":1,"id":{"no":"ids"}}"#),
            frame(r#"{"jsonrpc":"2.0","method":42}"#),
            "Content-Length: twelve\r\n\r\n".to_owned(),
            "garbage without a colon\r\n\r\n".to_owned(),
            frame(r#"{"jsonrpc":"2.0","id":7,"method":"shutdown"}"#),
            frame(r#"{"jsonrpc":"2.0","method":"exit"}"#),
        ]
        .concat();
        let output = Shared::default();
        let logged = Arc::new(Mutex::new(Vec::new()));
        let sink = logged.clone();
        let (connection, transport) = connect(io::Cursor::new(input.into_bytes()), output.clone(), move |l| {
            sink.lock().unwrap().push(l.to_owned())
        });
        let mut received = Vec::new();
        while let Ok(message) = connection.receiver.recv() {
            if let Message::Request(request) = &message {
                let reply = lsp_server::Response::new_ok(request.id.clone(), ());
                connection.sender.send(reply.into()).unwrap();
            }
            received.push(message);
        }
        drop(connection);
        transport.join().unwrap();
        assert_eq!(received.len(), 2, "{received:?}");
        assert!(matches!(&received[1], Message::Notification(n) if n.method == "exit"));
        let replies = written(&output);
        // Replies may interleave with the server's own (JSON-RPC does not order responses).
        let mut summary: Vec<String> = replies.iter().map(|r| format!("{} {}", r["id"], r["error"]["code"])).collect();
        summary.sort();
        assert_eq!(summary, ["6 -32600", "7 null", "null -32600", "null -32600", "null -32700"], "{replies:#?}");
        let logged = logged.lock().unwrap();
        assert_eq!(logged.len(), 7, "{logged:#?}");
        assert!(logged.iter().any(|l| l.contains("Content-Length that is not a length")), "{logged:#?}");
    }
}
