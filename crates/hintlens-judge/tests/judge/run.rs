//! Asking a loopback stand-in: the request the endpoint receives, retries, failures, and a
//! run that continues where the last one stopped without asking anything twice.

use hintlens_judge::client::{HttpJudge, Judge, JudgeConfig, open_answers, parse_config, run};
use hintlens_judge::prompts::Message;
use hintlens_judge::standin::{Reply, StandIn};
use serde_json::Value;
use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

fn config(url: &str) -> JudgeConfig {
    parse_config(&format!(
        "[judge]\nurl = \"{url}\"\nmodel = \"judge-model\"\nreasoning_effort = \"medium\"\nmax_retries = 2\nbackoff_seconds = 0.01\ntimeout_seconds = 10\n"
    ))
    .unwrap()
}

fn messages(text: &str) -> Vec<Message> {
    vec![
        Message { role: "system".into(), content: "You judge.".into() },
        Message { role: "user".into(), content: text.into() },
    ]
}

#[test]
fn the_request_is_a_chat_completion_and_the_answer_its_content() {
    let seen = std::sync::Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let server = StandIn::start(move |request: &Value| {
        log.lock().unwrap().push(request.clone());
        Reply::content("{\"label\": \"REDUNDANT\"}")
    })
    .unwrap();
    let judge = HttpJudge::new(&config(&server.url())).unwrap();
    assert_eq!(judge.ask(&messages("Rate this.")).unwrap(), "{\"label\": \"REDUNDANT\"}");
    let request = seen.lock().unwrap()[0].clone();
    assert_eq!(request["model"], "judge-model");
    assert_eq!(request["temperature"], 1.0);
    assert_eq!(request["reasoning_effort"], "medium");
    assert_eq!(request["messages"][1]["role"], "user");
    assert_eq!(request["messages"][1]["content"], "Rate this.");
}

#[test]
fn overload_is_retried_and_a_bad_request_is_not() {
    let calls = std::sync::Arc::new(AtomicUsize::new(0));
    let count = calls.clone();
    let server = StandIn::start(move |_: &Value| match count.fetch_add(1, Ordering::SeqCst) {
        0 => Reply { status: 503, body: "busy".into() },
        1 => Reply { status: 429, body: "slow down".into() },
        _ => Reply::content("third time"),
    })
    .unwrap();
    let judge = HttpJudge::new(&config(&server.url())).unwrap();
    assert_eq!(judge.ask(&messages("x")).unwrap(), "third time");
    assert_eq!(server.requests(), 3);

    let always_busy = StandIn::start(|_: &Value| Reply { status: 500, body: "down".into() }).unwrap();
    let e = HttpJudge::new(&config(&always_busy.url())).unwrap().ask(&messages("x")).unwrap_err();
    assert!(e.contains("HTTP 500") && e.contains("after 3 attempts"), "{e}");
    assert_eq!(always_busy.requests(), 3, "max_retries = 2: three attempts in all");

    let refused = StandIn::start(|_: &Value| Reply { status: 400, body: "{\"error\": \"bad model\"}".into() }).unwrap();
    let e = HttpJudge::new(&config(&refused.url())).unwrap().ask(&messages("x")).unwrap_err();
    assert!(e.contains("HTTP 400") && e.contains("bad model"), "{e}");
    assert_eq!(refused.requests(), 1);

    let empty = StandIn::start(|_: &Value| Reply { status: 200, body: "{\"choices\": []}".into() }).unwrap();
    let e = HttpJudge::new(&config(&empty.url())).unwrap().ask(&messages("x")).unwrap_err();
    assert!(e.contains("no choices[0].message.content"), "{e}");
}

#[test]
fn nothing_listens_on_a_closed_port() {
    let url = {
        let server = StandIn::start(|_: &Value| Reply::content("x")).unwrap();
        server.url()
    };
    let mut c = config(&url);
    c.timeout = Duration::from_secs(2);
    assert!(HttpJudge::new(&c).unwrap().ask(&messages("x")).is_err());
}

#[test]
fn a_missing_key_variable_is_named() {
    let mut c = config("http://127.0.0.1:9/");
    c.api_key_env = Some("HINTLENS_JUDGE_TEST_NO_SUCH_VARIABLE".into());
    let e = HttpJudge::new(&c).err().unwrap();
    assert!(e.contains("HINTLENS_JUDGE_TEST_NO_SUCH_VARIABLE"), "{e}");
}

/// Answers with the user message backwards, failing on "fail".
struct Echo(AtomicUsize);

impl Judge for Echo {
    fn ask(&self, messages: &[Message]) -> Result<String, String> {
        self.0.fetch_add(1, Ordering::SeqCst);
        let text = &messages[1].content;
        if text == "fail" { Err("refused".into()) } else { Ok(text.chars().rev().collect()) }
    }
}

#[test]
fn a_run_appends_whole_lines_and_a_second_run_asks_only_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("answers.jsonl");
    let prompts: Vec<(String, Vec<Message>)> =
        (0..20).map(|i| (format!("id{i}"), messages(if i == 7 { "fail" } else { "abc" }))).collect();
    let calls: Vec<(&str, &[Message])> = prompts.iter().map(|(id, m)| (id.as_str(), m.as_slice())).collect();
    let judge = Echo(AtomicUsize::new(0));

    let mut answers = open_answers(&path).unwrap();
    let mut progress = Vec::new();
    let summary = run(&calls, &judge, 4, &answers.answered, &mut answers.file, &mut |p| {
        progress.push((p.done, p.total, p.failed))
    })
    .unwrap();
    assert_eq!((summary.answered, summary.already), (19, 0));
    assert_eq!(summary.failed, vec![("id7".to_owned(), "refused".to_owned())]);
    assert_eq!(progress.last(), Some(&(20, 20, 1)));
    drop(answers);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 19);
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["content"], "cba");
    }

    // Killed mid-write of id19: a torn last line. The next run mends the file and asks only
    // id7 and id19.
    let text = text.lines().filter(|l| !l.contains("\"id19\"")).map(|l| format!("{l}\n")).collect::<String>();
    std::fs::write(&path, format!("{text}{{\"id\":\"id19\",\"cont")).unwrap();
    let mut answers = open_answers(&path).unwrap();
    assert_eq!((answers.answered.len(), answers.dropped), (18, 1));
    let before = judge.0.load(Ordering::SeqCst);
    let summary = run(&calls, &judge, 4, &answers.answered, &mut answers.file, &mut |_| {}).unwrap();
    assert_eq!((summary.answered, summary.failed.len(), summary.already), (1, 1, 18));
    assert_eq!(judge.0.load(Ordering::SeqCst) - before, 2, "only id7 and id19 were asked");
    drop(answers);
    let ids: HashSet<String> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids.len(), 19);
    assert!(ids.contains("id19") && !ids.contains("id7"));
}

#[test]
fn a_repeated_id_is_asked_once() {
    let m = messages("x");
    let calls = [("same", m.as_slice()), ("same", m.as_slice())];
    let judge = Echo(AtomicUsize::new(0));
    let mut out = Vec::new();
    let summary = run(&calls, &judge, 2, &HashSet::new(), &mut out, &mut |_| {}).unwrap();
    assert_eq!((summary.answered, judge.0.load(Ordering::SeqCst)), (1, 1));
}
