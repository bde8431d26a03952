use super::*;
use serde_json::json;

fn values(dataset: &Dataset) -> Vec<Value> {
    dataset.rows.iter().map(|r| r.value.clone().expect("a well-formed row")).collect()
}

fn sample() -> Vec<Value> {
    vec![
        json!({"instance_id": "o__a-1", "repo": "o/a", "base": {"label": "o:main", "sha": "abc"}, "patch": "diff",
               "FAIL_TO_PASS": ["t1", "t2"], "created_at": "2024-01-01T00:00:00Z", "n": 1, "score": 0.5,
               "flag": true, "doc_changes": [{"path": "d.md", "metadata": "m"}]}),
        // Absent fields, an integer among floats, an empty list, a nested null.
        json!({"instance_id": "o__b-2", "repo": "o/b", "base": {"sha": "def"}, "patch": "diff2",
               "FAIL_TO_PASS": [], "n": 2, "score": 1, "doc_changes": []}),
        // Kinds that do not mix are kept as JSON text.
        json!({"instance_id": "o__c-3", "repo": "o/c", "base": {"sha": "fff"}, "patch": "", "n": 3,
               "mixed": [1, 2]}),
        json!({"instance_id": "o__d-4", "repo": "o/d", "base": {"sha": "eee"}, "patch": "", "mixed": "text",
               "empty": {}}),
    ]
}

#[test]
fn rows_round_trip_through_parquet() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.parquet");
    write(&path, Format::Parquet, &sample()).unwrap();
    let dataset = read(&path).unwrap();
    assert_eq!(dataset.format, Format::Parquet);
    let rows = values(&dataset);
    let mut expected = sample();
    // What Parquet changes: a number column mixing integers and floats is floats; a field of
    // kinds that do not mix is JSON text; an object that never has a field is absent.
    expected[1]["score"] = json!(1.0);
    expected[2]["mixed"] = json!("[1,2]");
    expected[3]["mixed"] = json!("\"text\"");
    expected[3].as_object_mut().unwrap().remove("empty");
    assert_eq!(rows, expected);
    // Field order is the file's.
    let keys: Vec<&String> = rows[0].as_object().unwrap().keys().collect();
    assert_eq!(keys[..3], ["instance_id", "repo", "base"]);
}

#[test]
fn a_directory_of_shards_is_one_dataset_in_shard_order() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    let rows = sample();
    write(&data.join("test-00001-of-00002.parquet"), Format::Parquet, &rows[2..]).unwrap();
    write(&data.join("test-00000-of-00002.parquet"), Format::Parquet, &rows[..2]).unwrap();
    let dataset = read(dir.path()).unwrap();
    assert_eq!(dataset.rows_per_file, [2, 2]);
    let ids: Vec<&str> =
        dataset.rows.iter().map(|r| r.value.as_ref().unwrap()["instance_id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["o__a-1", "o__b-2", "o__c-3", "o__d-4"]);
    assert_eq!(dataset.rows.last().unwrap().position, 4);
    // A pattern names the same files.
    assert_eq!(read(&data.join("test-*.parquet")).unwrap().rows.len(), 4);
    // Two splits in one directory: which one is meant cannot be guessed.
    write(&data.join("train-00000-of-00001.parquet"), Format::Parquet, &rows[..1]).unwrap();
    let error = read(dir.path()).unwrap_err().to_string();
    assert!(error.contains("several splits (data/test-, data/train-)"), "{error}");
    assert_eq!(read(&data.join("train-*")).unwrap().rows.len(), 1);
}

#[test]
fn json_lines_and_arrays_are_written_back_as_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.jsonl");
    std::fs::write(&path, "{\"b\":1,\"a\":2}\n\nnot json\n{\"c\":[1]}\n").unwrap();
    let dataset = read(&path).unwrap();
    assert_eq!(dataset.format, Format::JsonLines);
    assert_eq!(dataset.rows.iter().map(|r| r.position).collect::<Vec<_>>(), [1, 3, 4]);
    let out = dir.path().join("out.jsonl");
    write_json(&out, dataset.format, dataset.rows.iter().map(|r| r.value.as_ref())).unwrap();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "{\"b\":1,\"a\":2}\nnot json\n{\"c\":[1]}\n");

    let array = dir.path().join("d.json");
    write(&array, Format::JsonArray, &sample()).unwrap();
    let dataset = read(&array).unwrap();
    assert_eq!(dataset.format, Format::JsonArray);
    assert_eq!(values(&dataset), sample());
}

#[test]
fn a_column_is_added_or_edited_and_nothing_else_changes() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.parquet");
    write(&input, Format::Parquet, &sample()).unwrap();
    let hints = vec![Some("h1".to_owned()), None, Some(String::new()), Some("h4".into())];
    let added = dir.path().join("added.parquet");
    rewrite_parquet(&input, &added, ColumnEdit::Add { name: "hints", values: &hints }).unwrap();
    let rows = values(&read(&added).unwrap());
    let before = values(&read(&input).unwrap());
    for (i, (row, old)) in rows.iter().zip(&before).enumerate() {
        let mut row = row.clone();
        let hint = row.as_object_mut().unwrap().shift_remove("hints");
        assert_eq!(hint, hints[i].clone().map(Value::String));
        assert_eq!(&row, old);
    }
    let error =
        rewrite_parquet(&added, &dir.path().join("x.parquet"), ColumnEdit::Add { name: "hints", values: &hints });
    assert!(error.unwrap_err().to_string().contains("already has a column `hints`"));

    let patched = vec![Some("new".to_owned()), None, None, None];
    let replaced = dir.path().join("replaced.parquet");
    rewrite_parquet(&input, &replaced, ColumnEdit::Replace { name: "patch", values: &patched }).unwrap();
    let rows = values(&read(&replaced).unwrap());
    assert_eq!(rows[0]["patch"], "new");
    assert_eq!(rows[1..], before[1..]);
    let error = rewrite_parquet(&input, &replaced, ColumnEdit::Replace { name: "n", values: &patched });
    assert!(error.unwrap_err().to_string().contains("column `n` holds Int64, not text"));
    let short = rewrite_parquet(&input, &replaced, ColumnEdit::Replace { name: "patch", values: &patched[..2] });
    assert!(short.unwrap_err().to_string().contains("more rows than the 2 values"));
}

#[test]
fn hugging_face_features_learn_of_an_added_column() {
    let metadata = r#"{"info": {"features": {"instance_id": {"dtype": "string", "_type": "Value"}}}}"#;
    let updated: Value = serde_json::from_str(&crate::parquet_io::add_feature(metadata, "hints").unwrap()).unwrap();
    let names: Vec<&String> = updated["info"]["features"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["instance_id", "hints"]);
}

#[test]
fn unreadable_inputs_say_what_and_where() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("fake.parquet");
    std::fs::write(&fake, b"PAR1 but nothing else").unwrap();
    let error = read(&fake).unwrap_err();
    assert_eq!(error.path, fake);
    assert!(error.message.starts_with("not a readable Parquet file"), "{error}");
    let empty = tempfile::tempdir().unwrap();
    assert!(read(empty.path()).unwrap_err().to_string().contains("no .parquet file"));
    assert!(read(&dir.path().join("none-*.parquet")).unwrap_err().to_string().contains("no file matches"));
    assert!(read(&dir.path().join("missing.jsonl")).is_err());
}

/// A FIFO (as `/dev/null` or `/dev/stdout` would be) is written to, never renamed over.
#[cfg(unix)]
#[test]
fn a_write_to_a_device_or_fifo_keeps_it() {
    use std::io::{Read, Write};
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut text = String::new();
            std::fs::File::open(&fifo).unwrap().read_to_string(&mut text).unwrap();
            text
        })
    };
    write_atomically(&fifo, |f| f.write_all(b"report\n").map_err(|e| e.to_string())).unwrap();
    assert_eq!(reader.join().unwrap(), "report\n");
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo(), "still a FIFO");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file beside it");
}
