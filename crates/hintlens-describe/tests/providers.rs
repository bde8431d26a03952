//! Both kinds of provider against local stand-ins: a shell script, and an HTTP endpoint on the
//! loopback interface that answers one request. Nothing leaves the machine.

use hintlens_describe::{CommandProvider, OpenAiProvider, ProviderConfig, load_config, provider};
use hintlens_hints::{Entity, Identifier, TaskFields};
use hintlens_projection::{DescriptionProvider, Want};
use hintlens_syntax::DefKind;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::time::Duration;

fn slugify() -> Identifier {
    Identifier {
        name: "slugify".into(),
        qualified_name: "pkg.text.slugify".into(),
        kind: DefKind::Function,
        path: "pkg/text.py".into(),
        line: 5,
        is_new_file: false,
        signature: "def slugify(s: str) -> str".into(),
        parent: None,
        parent_decl: None,
        direction: hintlens_hints::Direction::CodeToTest,
        resolution: hintlens_hints::Resolution::Import,
        evidence: Vec::new(),
        base_occurrences: 0,
        base_occurrences_lower_bound: false,
        in_problem_statement: false,
        necessity: 3,
        doc: None,
        entity: Entity::Definition,
        local_name: "slugify".into(),
        constructors: Vec::new(),
    }
}

const TASK: TaskFields<'static> =
    TaskFields { instance_id: "acme-1", interface: None, requirements: None, documentation: None };

#[test]
fn a_command_gets_the_request_on_stdin_and_answers_on_stdout() {
    // The stand-in echoes what it was asked for, so the test sees the request arrive whole.
    let script = r#"input=$(cat)
case "$input" in
  *'"want":"doc"'*'"instance_id":"acme-1"'*|*'"instance_id":"acme-1"'*'"want":"doc"'*) echo '{"doc": "Turns a title into a slug."}' ;;
  *'"want":"behaviour"'*) echo '{"behaviour": "Lowercases and joins words."}' ;;
  *) echo "unexpected request: $input" >&2; exit 3 ;;
esac"#;
    let p = CommandProvider::new(vec!["sh".into(), "-c".into(), script.into()], Duration::from_secs(20)).unwrap();
    let doc = p.describe(&slugify(), &TASK, "Add slugs.", Want::Doc).unwrap();
    assert_eq!(doc.doc.as_deref(), Some("Turns a title into a slug."));
    let behaviour = p.describe(&slugify(), &TASK, "Add slugs.", Want::Behaviour).unwrap();
    assert_eq!(behaviour.behaviour.as_deref(), Some("Lowercases and joins words."));
}

#[test]
fn a_failing_or_silent_command_is_an_error() {
    let failing =
        CommandProvider::new(vec!["sh".into(), "-c".into(), "echo boom >&2; exit 2".into()], Duration::from_secs(20))
            .unwrap();
    let e = failing.describe(&slugify(), &TASK, "", Want::Doc).unwrap_err();
    assert!(e.contains("boom"), "{e}");
    let garbage = CommandProvider::new(
        vec!["sh".into(), "-c".into(), "cat >/dev/null; echo not json".into()],
        Duration::from_secs(20),
    )
    .unwrap();
    assert!(garbage.describe(&slugify(), &TASK, "", Want::Doc).unwrap_err().contains("not JSON"));
    let slow =
        CommandProvider::new(vec!["sh".into(), "-c".into(), "sleep 5".into()], Duration::from_millis(200)).unwrap();
    assert!(slow.describe(&slugify(), &TASK, "", Want::Doc).unwrap_err().contains("did not answer"));
    let missing = CommandProvider::new(vec!["/nonexistent/describe".into()], Duration::from_secs(1)).unwrap();
    assert!(missing.describe(&slugify(), &TASK, "", Want::Doc).unwrap_err().contains("cannot run"));
}

/// Serves one HTTP request on 127.0.0.1 and returns what it received.
fn serve_once(answer: &'static str) -> (String, std::thread::JoinHandle<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1/chat/completions", listener.local_addr().unwrap());
    let handle = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut head = String::new();
        let mut length = 0;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().unwrap();
            }
            head.push_str(&line);
            if line == "\r\n" {
                break;
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        let mut stream = stream;
        write!(
            stream,
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
            answer.len()
        )
        .unwrap();
        head + &String::from_utf8(body).unwrap()
    });
    (url, handle)
}

#[test]
fn an_openai_compatible_endpoint_is_called_with_the_model_and_key() {
    let (url, server) =
        serve_once(r#"{"choices": [{"message": {"role": "assistant", "content": " Makes URL slugs. "}}]}"#);
    let p = OpenAiProvider::new(url, "tiny-model".into(), Some("sekret".into()), Duration::from_secs(10));
    let answer = p.describe(&slugify(), &TASK, "Add slugs.", Want::Doc).unwrap();
    assert_eq!(answer.doc.as_deref(), Some("Makes URL slugs."));
    let seen = server.join().unwrap();
    assert!(seen.starts_with("POST /v1/chat/completions"), "{seen}");
    assert!(seen.to_ascii_lowercase().contains("authorization: bearer sekret"), "{seen}");
    let body: serde_json::Value = serde_json::from_str(seen.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(body["model"], "tiny-model");
    assert!(body["messages"][1]["content"].as_str().unwrap().contains("def slugify(s: str) -> str"), "{body}");
}

#[test]
fn a_missing_key_variable_is_reported_before_any_call() {
    let config = ProviderConfig::OpenAi {
        url: "http://127.0.0.1:9/".into(),
        model: "m".into(),
        api_key_env: Some("HINTLENS_TEST_UNSET_KEY_VARIABLE".into()),
        timeout: Duration::from_secs(1),
    };
    assert!(provider(&config).err().unwrap().contains("HINTLENS_TEST_UNSET_KEY_VARIABLE is not set"));
}

#[test]
fn a_configuration_file_names_the_provider() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hintlens.toml");
    std::fs::write(
        &path,
        "[provider]\ncommand = [\"sh\", \"-c\", \"cat >/dev/null; echo '{\\\"doc\\\": \\\"From config.\\\"}'\"]\n",
    )
    .unwrap();
    let config = load_config(&path).unwrap();
    assert!(matches!(config.provider, Some(ProviderConfig::Command { .. })));
    let p = provider(config.provider.as_ref().unwrap()).unwrap();
    assert_eq!(p.describe(&slugify(), &TASK, "", Want::Doc).unwrap().doc.as_deref(), Some("From config."));
}
