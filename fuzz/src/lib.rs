//! What the fuzz targets share: invariants of a file index, and a language server session.

use hintlens_syntax::lexical::{self, TextWords};
use hintlens_syntax::{FileIndex, Frontend, Lines};
use lsp_server::Message;
use serde_json::json;
use std::io::Cursor;

/// A frontend on one input: extraction never panics and its index is well formed
/// ([`check_index`]), its outline, if it has one, holds what the index holds but uses and
/// strings, and those too on the lines it keeps, and the text may define each of its definitions (`Frontend::may_define`); the word lexer of its language, which reads every file of a repository for word
/// facts, never panics on the same text and hands out only runs of word bytes.
pub fn check_frontend(frontend: &dyn Frontend, text: &[u8]) {
    let index = frontend.extract(text);
    check_index(&index, text);
    if frontend.has_outline() {
        let (outline, _) = frontend.outline_reusing(text, None, &Lines::none());
        assert!(outline.outlined() == index.outlined(), "the outline differs from the index");
        // Every third line, from one the input picks, as a change's added lines.
        let lines = text.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
        let kept = Lines::new((u32::from(text.first().copied().unwrap_or(0)) % 3..lines).step_by(3));
        let (outline, _) = frontend.outline_reusing(text, None, &kept);
        assert!(outline.kept(&kept) == index.kept(&kept), "the outline differs from the index on its kept lines");
    }
    for d in &index.definitions {
        let qualified = frontend.qualified_name("fuzz", &index, &d.local_name);
        assert!(frontend.may_define(text, &[(&qualified, d.kind)], &mut |_| false), "{qualified} defined, not definable");
    }
    lexical::words(text, frontend.spec().lexical, TextWords::ALL, |word, _| {
        assert!(!word.is_empty() && word.iter().all(|&b| lexical::is_word_byte(b)), "a word that is none: {word:?}");
    });
}

/// Every span lies within the text, every definition's parent precedes it, every test region
/// lies within the text.
fn check_index(index: &FileIndex, text: &[u8]) {
    let len = text.len() as u32;
    for (i, d) in index.definitions.iter().enumerate() {
        assert!(d.span.start_byte <= d.span.end_byte && d.span.end_byte <= len, "definition span out of the text");
        assert!(d.name_span.end_byte <= len, "name span out of the text");
        if let Some(p) = d.parent {
            assert!((p as usize) < i, "a parent follows its child");
        }
    }
    for u in &index.uses {
        assert!(u.span.start_byte <= u.span.end_byte && u.span.end_byte <= len, "use span out of the text");
    }
    for s in &index.strings {
        assert!(s.span.end_byte <= len, "string span out of the text");
    }
    for region in &index.tests {
        assert!(region.start_byte <= region.end_byte && region.end_byte <= len, "test region out of the text");
    }
}

fn frame(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

/// Two things with one input. The input as a raw byte stream goes through the transport's
/// framing (any framing, any garbage: no panic, no hang). Then its `\0`-separated pieces, each
/// framed correctly, go to the real server after `initialize`, followed by `shutdown` and
/// `exit`: whatever the bodies held, `shutdown` must still be answered.
pub fn serve(data: &[u8]) {
    frame_only(data);
    let mut input = frame(
        &json!({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {"capabilities": {}}}).to_string(),
    );
    input.extend(frame(&json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}).to_string()));
    let mut exits = false;
    for body in data.split(|&b| b == 0) {
        exits |= body.windows(6).any(|w| w == b"\"exit\"");
        input.extend(format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes());
        input.extend_from_slice(body);
    }
    input.extend(frame(&json!({"jsonrpc": "2.0", "id": "bye", "method": "shutdown"}).to_string()));
    input.extend(frame(&json!({"jsonrpc": "2.0", "method": "exit"}).to_string()));
    let (connection, transport) = hintlens_lsp::transport::connect(Cursor::new(input), std::io::sink(), |_| {});
    // The server's replies, as they leave it.
    let (tap, replies) = crossbeam_channel::unbounded::<Message>();
    let (to_client, from_server) = crossbeam_channel::unbounded::<Message>();
    let forward = std::thread::spawn({
        let sender = connection.sender.clone();
        move || {
            for message in from_server {
                let _ = tap.send(message.clone());
                if sender.send(message).is_err() {
                    break;
                }
            }
        }
    });
    let server = lsp_server::Connection { sender: to_client, receiver: connection.receiver };
    drop(connection.sender);
    let _ = hintlens_lsp::run(server, hintlens_lsp::Options::default());
    let _ = forward.join();
    let _ = transport.join();
    let shut_down = replies.try_iter().any(|m| matches!(m, Message::Response(r) if r.id == "bye".to_owned().into()));
    // A body may close the session itself (an `exit` of its own): then no answer is due.
    assert!(shut_down || exits, "the server stopped answering");
}

/// The transport alone on raw bytes, with a consumer that answers every request.
fn frame_only(data: &[u8]) {
    let (connection, transport) = hintlens_lsp::transport::connect(Cursor::new(data.to_vec()), std::io::sink(), |_| {});
    for message in &connection.receiver {
        if let Message::Request(request) = message {
            let _ = connection.sender.send(lsp_server::Response::new_ok(request.id, ()).into());
        }
    }
    drop(connection);
    let _ = transport.join();
}
