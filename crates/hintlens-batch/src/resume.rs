//! Continuing an interrupted `--out` file: its complete records are kept and their tasks
//! skipped, a torn last line (the run was killed mid-write) is dropped.

use std::collections::{HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

/// An output file ready to be appended to.
pub struct Resumed {
    /// Opened for appending after the kept records.
    pub file: File,
    /// Instance ids that already have a complete record.
    pub done: HashSet<String>,
    /// What had to be dropped to leave one complete record per task: a torn last line,
    /// unreadable lines, records without an instance id, earlier duplicates.
    pub dropped: usize,
}

/// Opens `path` to continue it (a missing file is an empty one). When anything must be dropped
/// the kept records are rewritten through a temporary file renamed over `path`, so that a
/// reader, or a second interruption, never sees a half-written file.
pub fn resume_results(path: &Path) -> io::Result<Resumed> {
    let text = match std::fs::read(path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e),
    };
    // Slots in file order; an earlier record of a task is emptied when a later one comes.
    let mut kept: Vec<Option<(String, &[u8])>> = Vec::new();
    let mut slot_of: HashMap<String, usize> = HashMap::new();
    let mut dropped = 0;
    for line in text.split_inclusive(|&b| b == b'\n') {
        let complete = line.ends_with(b"\n");
        let id = complete
            .then(|| serde_json::from_slice::<serde_json::Value>(line).ok())
            .flatten()
            .and_then(|record| record.get("instance_id")?.as_str().map(str::to_owned));
        match id {
            Some(id) => {
                // The last complete record of a task wins.
                if let Some(at) = slot_of.insert(id.clone(), kept.len()) {
                    kept[at] = None;
                    dropped += 1;
                }
                kept.push(Some((id, line)));
            }
            None if line.iter().all(u8::is_ascii_whitespace) => {}
            None => dropped += 1,
        }
    }
    let kept: Vec<(String, &[u8])> = kept.into_iter().flatten().collect();
    if dropped > 0 {
        let tmp = path.with_extension("resume.tmp");
        {
            let mut out = io::BufWriter::new(File::create(&tmp)?);
            for (_, line) in &kept {
                out.write_all(line)?;
            }
            out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        }
        std::fs::rename(&tmp, path)?;
    }
    let file = OpenOptions::new().create(true).append(true).open(path)?;
    Ok(Resumed { file, done: kept.into_iter().map(|(id, _)| id).collect(), dropped })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complete_records_stay_and_the_rest_goes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.jsonl");
        let text = concat!(
            "{\"instance_id\":\"a\",\"status\":\"ok\"}\n",
            "not json\n",
            "{\"instance_id\":null,\"status\":\"error\"}\n",
            "{\"instance_id\":\"b\",\"status\":\"error\"}\n",
            "{\"instance_id\":\"b\",\"status\":\"ok\"}\n",
            "{\"instance_id\":\"c\",\"sta",
        );
        std::fs::write(&path, text).unwrap();
        let mut resumed = resume_results(&path).unwrap();
        assert_eq!(resumed.done, HashSet::from(["a".to_owned(), "b".to_owned()]));
        assert_eq!(resumed.dropped, 4);
        resumed.file.write_all(b"{\"instance_id\":\"c\",\"status\":\"ok\"}\n").unwrap();
        drop(resumed);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            concat!(
                "{\"instance_id\":\"a\",\"status\":\"ok\"}\n",
                "{\"instance_id\":\"b\",\"status\":\"ok\"}\n",
                "{\"instance_id\":\"c\",\"status\":\"ok\"}\n",
            )
        );
        // Nothing to drop: the file is appended to as it is.
        let resumed = resume_results(&path).unwrap();
        assert_eq!((resumed.done.len(), resumed.dropped), (3, 0));
        assert!(resume_results(&dir.path().join("missing.jsonl")).unwrap().done.is_empty());
    }
}
