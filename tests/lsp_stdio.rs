//! `hintlens lsp` over real standard input and output: bad input gets the protocol's error
//! replies, and the server keeps serving.

use hintlens_tests::hintlens;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{ChildStdin, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn send_raw(stdin: &mut ChildStdin, body: &str) {
    write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
    stdin.flush().unwrap();
}

/// Reads framed messages from the server into a channel.
fn reader(stdout: impl Read + Send + 'static) -> mpsc::Receiver<Value> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut input = BufReader::new(stdout);
        loop {
            let mut length = 0;
            loop {
                let mut line = String::new();
                if input.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some(n) = line.strip_prefix("Content-Length: ") {
                    length = n.parse().unwrap();
                }
            }
            let mut body = vec![0; length];
            input.read_exact(&mut body).unwrap();
            if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                return;
            }
        }
    });
    rx
}

/// The next message that answers `id` (skipping the server's own requests and notifications).
fn reply(messages: &mpsc::Receiver<Value>, id: &Value) -> Value {
    loop {
        let message = messages.recv_timeout(Duration::from_secs(30)).expect("the server answers");
        if message.get("method").is_none() && &message["id"] == id {
            return message;
        }
    }
}

#[test]
fn malformed_bodies_are_answered_and_the_server_keeps_serving() {
    let root = tempfile::tempdir().unwrap();
    let mut child = hintlens()
        .args(["lsp", "--stdio"])
        .current_dir(root.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let messages = reader(child.stdout.take().unwrap());

    send_raw(
        &mut stdin,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}).to_string(),
    );
    assert!(reply(&messages, &json!(1))["result"]["capabilities"].is_object());
    send_raw(&mut stdin, &json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}).to_string());

    // The body the issue names: cut off mid-object.
    send_raw(&mut stdin, r#"{"jsonrpc":"2.0","id":5,"method":"textDocument/hover","params":"#);
    let parse_error = reply(&messages, &Value::Null);
    assert_eq!(parse_error["error"]["code"], -32700, "{parse_error}");
    // Valid JSON, no JSON-RPC message.
    send_raw(&mut stdin, r#"{"jsonrpc":"2.0","id":6}"#);
    assert_eq!(reply(&messages, &json!(6))["error"]["code"], -32600);

    // Still serving: an unknown method gets its error, shutdown its answer.
    send_raw(&mut stdin, &json!({"jsonrpc": "2.0", "id": 7, "method": "hintlens/nope"}).to_string());
    assert_eq!(reply(&messages, &json!(7))["error"]["code"], -32601);
    send_raw(&mut stdin, &json!({"jsonrpc": "2.0", "id": 8, "method": "shutdown"}).to_string());
    assert_eq!(reply(&messages, &json!(8))["result"], Value::Null);
    send_raw(&mut stdin, &json!({"jsonrpc": "2.0", "method": "exit"}).to_string());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("not JSON"), "the bad body is logged: {stderr}");
}
