//! The decisions file: one JSON line per decision, appended as it is made and read back in
//! order, the last decision about a thing winning.
//!
//! ```text
//! {"time_ms":1730000000000,"instance_id":"acme__textkit-1","target":"identifier","identifier":{"qualified_name":"textkit.slug.truncate_slug","kind":"function","path":"textkit/slug.py"},"verdict":"drop","note":"names the answer"}
//! {"time_ms":1730000000001,"instance_id":"acme__textkit-1","target":"task","reviewed":true,"flagged":false,"note":""}
//! ```
//!
//! A decision is acknowledged only once its whole line (newline included) has been written and
//! synced, so a server killed at any moment loses nothing it acknowledged: at worst the last
//! line is torn (no newline), and that decision was never acknowledged. Replay drops it; opening
//! the file for writing also cuts it off, so the next line does not run on from it.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The decisions file beside a results file when none is named: `RESULTS.decisions.jsonl`.
pub fn default_path(results: &Path) -> PathBuf {
    let mut name = results.file_name().unwrap_or_default().to_owned();
    name.push(".decisions.jsonl");
    results.with_file_name(name)
}

/// Which identifier of a task a decision is about: the same entity in every selection that
/// picked it (dropping a name from the hint is a judgement of what it discloses, whichever
/// policy chose it).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct IdentifierKey {
    pub qualified_name: String,
    pub kind: String,
    pub path: String,
}

impl IdentifierKey {
    /// The key of an identifier as a result record holds it.
    pub fn of(identifier: &Value) -> IdentifierKey {
        let text = |k: &str| identifier.get(k).and_then(Value::as_str).unwrap_or_default().to_owned();
        IdentifierKey { qualified_name: text("qualified_name"), kind: text("kind"), path: text("path") }
    }

    /// The keys of every identifier a result record's selections hold (one per selection that
    /// picked it).
    pub fn selected(record: &Value) -> impl Iterator<Item = IdentifierKey> + '_ {
        record
            .get("selections")
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|m| m.values())
            .filter_map(Value::as_array)
            .flatten()
            .map(IdentifierKey::of)
    }
}

/// Keep or drop an identifier from the hint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Keep,
    Drop,
}

/// One decision, as the page sends it and the file holds it (without its time).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "target", rename_all = "snake_case")]
pub enum Decision {
    /// Keep or drop an identifier (`verdict: null` takes a decision back), with a note.
    Identifier {
        instance_id: String,
        identifier: IdentifierKey,
        verdict: Option<Verdict>,
        #[serde(default)]
        note: String,
    },
    /// The task as a whole: reviewed, flagged for a second look, a note.
    Task {
        instance_id: String,
        reviewed: bool,
        flagged: bool,
        #[serde(default)]
        note: String,
    },
}

impl Decision {
    pub fn instance_id(&self) -> &str {
        match self {
            Decision::Identifier { instance_id, .. } | Decision::Task { instance_id, .. } => instance_id,
        }
    }
}

/// A line of the file: a decision and when it was made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// Milliseconds since the Unix epoch.
    pub time_ms: u64,
    #[serde(flatten)]
    pub decision: Decision,
}

/// The current decision about an identifier.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IdentifierState {
    pub verdict: Option<Verdict>,
    pub note: String,
    pub time_ms: u64,
}

/// The current decision about a task.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct TaskState {
    pub reviewed: bool,
    pub flagged: bool,
    pub note: String,
    pub time_ms: u64,
}

/// Every decision made so far, the last about each thing winning.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Decisions {
    tasks: BTreeMap<String, TaskState>,
    identifiers: BTreeMap<String, BTreeMap<IdentifierKey, IdentifierState>>,
}

impl Decisions {
    pub fn apply(&mut self, entry: &Entry) {
        match &entry.decision {
            Decision::Identifier { instance_id, identifier, verdict, note } => {
                let state = IdentifierState { verdict: *verdict, note: note.clone(), time_ms: entry.time_ms };
                self.identifiers.entry(instance_id.clone()).or_default().insert(identifier.clone(), state);
            }
            Decision::Task { instance_id, reviewed, flagged, note } => {
                let state =
                    TaskState { reviewed: *reviewed, flagged: *flagged, note: note.clone(), time_ms: entry.time_ms };
                self.tasks.insert(instance_id.clone(), state);
            }
        }
    }

    pub fn task(&self, instance_id: &str) -> Option<&TaskState> {
        self.tasks.get(instance_id)
    }

    /// The decisions about a task's identifiers (a taken-back one has no verdict).
    pub fn identifiers(&self, instance_id: &str) -> impl Iterator<Item = (&IdentifierKey, &IdentifierState)> {
        self.identifiers.get(instance_id).into_iter().flatten()
    }

    pub fn identifier(&self, instance_id: &str, key: &IdentifierKey) -> Option<&IdentifierState> {
        self.identifiers.get(instance_id)?.get(key)
    }

    pub fn is_dropped(&self, instance_id: &str, key: &IdentifierKey) -> bool {
        self.identifier(instance_id, key).is_some_and(|s| s.verdict == Some(Verdict::Drop))
    }

    /// The tasks any decision is about.
    pub fn instance_ids(&self) -> impl Iterator<Item = &str> {
        let mut ids: Vec<&str> = self.tasks.keys().chain(self.identifiers.keys()).map(String::as_str).collect();
        ids.sort_unstable();
        ids.dedup();
        ids.into_iter()
    }
}

/// What reading a decisions file found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Replay {
    /// Decisions read.
    pub applied: usize,
    /// The last line was torn (a server killed while writing it; never acknowledged): dropped.
    pub torn: bool,
}

/// A decisions file that cannot be read or written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub path: PathBuf,
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "decisions file {}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for Error {}

/// Reads a decisions file (absent: no decisions). A torn last line is dropped; any other line
/// that does not parse is an error naming it, since it is no write this program was killed in.
pub fn read_decisions(path: &Path) -> Result<(Decisions, Replay), Error> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Default::default()),
        Err(e) => return Err(Error { path: path.to_owned(), message: e.to_string() }),
    };
    let (decisions, replay, _) = replay(path, &bytes)?;
    Ok((decisions, replay))
}

/// Replays the complete lines of `bytes`; also returns how many bytes they take.
fn replay(path: &Path, bytes: &[u8]) -> Result<(Decisions, Replay, usize), Error> {
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut decisions = Decisions::default();
    let mut replay = Replay { applied: 0, torn: complete < bytes.len() };
    for (n, line) in bytes[..complete].split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let entry: Entry = serde_json::from_slice(line).map_err(|e| Error {
            path: path.to_owned(),
            message: format!(
                "line {} is not a decision ({e}); the file is only ever appended to whole lines, so it was edited: fix or remove that line",
                n + 1
            ),
        })?;
        decisions.apply(&entry);
        replay.applied += 1;
    }
    Ok((decisions, replay, complete))
}

/// The decisions file open for appending, with the decisions it holds.
#[derive(Debug)]
pub struct DecisionLog {
    path: PathBuf,
    file: File,
    decisions: Decisions,
}

impl DecisionLog {
    /// Opens (or creates) the file and replays it. A torn last line is cut off the file.
    pub fn open(path: &Path) -> Result<(DecisionLog, Replay), Error> {
        let error = |e: std::io::Error| Error { path: path.to_owned(), message: e.to_string() };
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(error(e)),
        };
        let (decisions, replay, complete) = replay(path, &bytes)?;
        let file = OpenOptions::new().create(true).append(true).open(path).map_err(error)?;
        if replay.torn {
            file.set_len(complete as u64).map_err(error)?;
            file.sync_data().map_err(error)?;
        }
        Ok((DecisionLog { path: path.to_owned(), file, decisions }, replay))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn decisions(&self) -> &Decisions {
        &self.decisions
    }

    /// Appends a decision as one line, synced to disk before it is applied and acknowledged.
    pub fn record(&mut self, decision: Decision) -> Result<Entry, Error> {
        let time_ms = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
        let entry = Entry { time_ms, decision };
        let mut line = serde_json::to_vec(&entry).map_err(|e| self.error(e.to_string()))?;
        line.push(b'\n');
        // One write of the whole line to a file opened for appending: a kill leaves at most
        // this line torn, which replay drops.
        self.file.write_all(&line).map_err(|e| self.error(e.to_string()))?;
        self.file.sync_data().map_err(|e| self.error(e.to_string()))?;
        self.decisions.apply(&entry);
        Ok(entry)
    }

    fn error(&self, message: String) -> Error {
        Error { path: self.path.clone(), message }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(name: &str) -> IdentifierKey {
        IdentifierKey { qualified_name: name.into(), kind: "function".into(), path: "m.py".into() }
    }

    fn drop_decision(id: &str, name: &str, note: &str) -> Decision {
        Decision::Identifier {
            instance_id: id.into(),
            identifier: key(name),
            verdict: Some(Verdict::Drop),
            note: note.into(),
        }
    }

    #[test]
    fn decisions_are_appended_and_replayed_last_wins() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.jsonl");
        let (mut log, replay) = DecisionLog::open(&path).unwrap();
        assert_eq!(replay, Replay::default());
        log.record(drop_decision("t1", "m.f", "leaks")).unwrap();
        log.record(Decision::Task { instance_id: "t1".into(), reviewed: true, flagged: false, note: String::new() })
            .unwrap();
        log.record(Decision::Identifier {
            instance_id: "t1".into(),
            identifier: key("m.g"),
            verdict: Some(Verdict::Keep),
            note: String::new(),
        })
        .unwrap();
        log.record(Decision::Identifier {
            instance_id: "t1".into(),
            identifier: key("m.g"),
            verdict: None,
            note: "undecided".into(),
        })
        .unwrap();
        let live = log.decisions().clone();
        std::mem::drop(log);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 4);
        assert!(text.lines().next().unwrap().contains(r#""target":"identifier""#), "{text}");
        let (read, replay) = read_decisions(&path).unwrap();
        assert_eq!(read, live);
        assert_eq!(replay, Replay { applied: 4, torn: false });
        assert!(read.is_dropped("t1", &key("m.f")));
        assert!(!read.is_dropped("t1", &key("m.g")));
        assert_eq!(read.identifier("t1", &key("m.g")).unwrap().note, "undecided");
        assert!(read.task("t1").unwrap().reviewed);
        assert_eq!(read.instance_ids().collect::<Vec<_>>(), ["t1"]);
    }

    #[test]
    fn a_torn_last_line_is_dropped_and_cut_off() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.jsonl");
        let (mut log, _) = DecisionLog::open(&path).unwrap();
        log.record(drop_decision("t1", "m.f", "")).unwrap();
        std::mem::drop(log);
        // A server killed halfway through its second line.
        let whole = serde_json::to_string(&Entry { time_ms: 1, decision: drop_decision("t2", "m.h", "") }).unwrap();
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(&whole.as_bytes()[..whole.len() / 2]).unwrap();
        std::mem::drop(file);
        let (read, replay) = read_decisions(&path).unwrap();
        assert_eq!(replay, Replay { applied: 1, torn: true });
        assert!(read.is_dropped("t1", &key("m.f")) && !read.is_dropped("t2", &key("m.h")));
        // Reading leaves the file alone; opening it for writing cuts the torn line off, so the
        // next decision is a line of its own.
        assert!(std::fs::read_to_string(&path).unwrap().ends_with(&whole[..whole.len() / 2]));
        let (mut log, replay) = DecisionLog::open(&path).unwrap();
        assert_eq!(replay, Replay { applied: 1, torn: true });
        log.record(drop_decision("t3", "m.k", "after the kill")).unwrap();
        std::mem::drop(log);
        let (read, replay) = read_decisions(&path).unwrap();
        assert_eq!(replay, Replay { applied: 2, torn: false });
        assert!(read.is_dropped("t3", &key("m.k")));
        // Even a complete decision without its newline was never acknowledged.
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(whole.as_bytes()).unwrap();
        std::mem::drop(file);
        assert_eq!(read_decisions(&path).unwrap().1, Replay { applied: 2, torn: true });
    }

    #[test]
    fn a_broken_line_inside_the_file_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.jsonl");
        std::fs::write(&path, "{\"nope\": 1}\n\n").unwrap();
        let e = read_decisions(&path).unwrap_err();
        assert!(e.to_string().contains("line 1 is not a decision"), "{e}");
        assert!(DecisionLog::open(&path).is_err());
        assert_eq!(read_decisions(&dir.path().join("absent.jsonl")).unwrap(), Default::default());
    }

    #[test]
    fn the_default_file_is_beside_the_results() {
        assert_eq!(default_path(Path::new("out/r.jsonl")), Path::new("out/r.jsonl.decisions.jsonl"));
    }
}
