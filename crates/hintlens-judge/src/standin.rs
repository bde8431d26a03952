//! A loopback stand-in for an OpenAI-compatible endpoint, answering by a rule: how the tests
//! (and anyone checking a pipeline before paying for a model) run `judge run` without the
//! network. One thread accepts on 127.0.0.1, one thread serves each connection; every reply
//! closes its connection.

use crate::prompts::{Attribute, Call};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;

/// What the stand-in sends back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub status: u16,
    pub body: String,
}

impl Reply {
    /// A chat completion whose message is `text`.
    pub fn content(text: &str) -> Reply {
        let body = json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": text}}]});
        Reply { status: 200, body: body.to_string() }
    }
}

/// A running stand-in; dropping it stops it.
pub struct StandIn {
    addr: SocketAddr,
    requests: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    accept: Option<JoinHandle<()>>,
}

type Rule = dyn Fn(&Value) -> Reply + Send + Sync;

impl StandIn {
    /// Serves `rule` (request body → reply) on a free loopback port.
    pub fn start(rule: impl Fn(&Value) -> Reply + Send + Sync + 'static) -> std::io::Result<StandIn> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let addr = listener.local_addr()?;
        let requests = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let rule: Arc<Rule> = Arc::new(rule);
        let (count, halt) = (requests.clone(), stop.clone());
        let accept = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if halt.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let (rule, count) = (rule.clone(), count.clone());
                std::thread::spawn(move || {
                    let _ = serve(stream, &*rule, &count);
                });
            }
        });
        Ok(StandIn { addr, requests, stop, accept: Some(accept) })
    }

    /// The chat-completions URL to configure.
    pub fn url(&self) -> String {
        format!("http://{}/v1/chat/completions", self.addr)
    }

    /// Requests answered so far.
    pub fn requests(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }
}

impl Drop for StandIn {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accepting thread so it sees the flag.
        let _ = TcpStream::connect(self.addr);
        if let Some(accept) = self.accept.take() {
            let _ = accept.join();
        }
    }
}

fn serve(stream: TcpStream, rule: &Rule, count: &AtomicUsize) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut stream = stream;
    let mut length = 0;
    let mut expect_continue = false;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            match name.trim().to_ascii_lowercase().as_str() {
                "content-length" => length = value.trim().parse().unwrap_or(0),
                "expect" => expect_continue = value.trim().eq_ignore_ascii_case("100-continue"),
                _ => {}
            }
        }
    }
    if expect_continue {
        stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n")?;
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    count.fetch_add(1, Ordering::SeqCst);
    let reply = rule(&request);
    let head = format!(
        "HTTP/1.1 {} Stand-in\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        reply.status,
        reply.body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(reply.body.as_bytes())?;
    stream.flush()
}

/// Which call and attribute a chat request rates, read from its user message.
pub fn rated(request: &Value) -> Option<(Call, Attribute, &str)> {
    let user = request["messages"].as_array()?.iter().find(|m| m["role"] == "user")?["content"].as_str()?;
    let call = if user.starts_with("Rate NECESSITY") { Call::Necessity } else { Call::DisclosureGuidance };
    let name = user.split("\nattribute : `").nth(1)?.split('`').next()?;
    let attribute = Attribute::ALL.into_iter().find(|a| a.as_str() == name)?;
    Some((call, attribute, user))
}

/// A judge that answers by a fixed rule, so the table it yields is known in advance:
///
/// | attribute | N | D | G | HVM |
/// |---|---|---|---|---|
/// | name | LOAD-BEARING (3) if the name is in no file of the base, else SEARCH-SAVING (1) | INTERFACE (0) | DECLARATIVE (0) | = N |
/// | entity_type, is_new_file, signature | REDUNDANT (0) | INTERFACE (0) | DECLARATIVE (0) | 0 ∗ |
/// | path | DISAMBIGUATING (2) | INTERFACE (0) | ORIENTING (1) | 1 |
/// | weak_semantics | REDUNDANT (0) | CONTRACT (1) | ORIENTING (1) | −1 |
/// | strong_semantics | REDUNDANT (0) | MECHANISM (2) | PROCEDURAL (2) | −2 |
///
/// Every sample agrees (unanimity 100%) and every interval but name's collapses onto its mean.
/// Answers come wrapped in a code fence after a line of prose, as models write them.
pub fn fixed_rule(request: &Value) -> Reply {
    let Some((call, attribute, user)) = rated(request) else {
        return Reply { status: 400, body: "{\"error\": \"not a judge prompt\"}".into() };
    };
    let answer = match call {
        Call::Necessity => {
            let label = match attribute {
                Attribute::Name if user.contains(" appears in 0 file(s) ") => "LOAD-BEARING",
                Attribute::Name => "SEARCH-SAVING",
                Attribute::Path => "DISAMBIGUATING",
                _ => "REDUNDANT",
            };
            json!({"label": label, "evidence": "", "rationale": "By the stand-in's rule.", "confidence": 0.9})
        }
        Call::DisclosureGuidance => {
            let (d, g) = match attribute {
                Attribute::Path => ("INTERFACE", "ORIENTING"),
                Attribute::WeakSemantics => ("CONTRACT", "ORIENTING"),
                Attribute::StrongSemantics => ("MECHANISM", "PROCEDURAL"),
                _ => ("INTERFACE", "DECLARATIVE"),
            };
            json!({"disclosure_label": d, "guidance_label": g, "evidence": "", "rationale": "By the stand-in's rule.", "confidence": 0.9})
        }
    };
    Reply::content(&format!("Here is my rating.\n```json\n{answer:#}\n```"))
}
