//! Reading result records and datasets: JSON lines, one JSON array, or Parquet.

use serde_json::Value;
use std::path::Path;

/// Parses JSON lines (blank lines skipped) or a JSON array of objects.
pub fn read_records(text: &str) -> Result<Vec<Value>, String> {
    if text.trim_start().starts_with('[') {
        return serde_json::from_str(text).map_err(|e| format!("not a valid JSON array: {e}"));
    }
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| format!("line {} is not valid JSON: {e}", i + 1)))
        .collect()
}

/// Reads records from JSON lines, a JSON array or Parquet (see `hintlens_formats::read`); a line
/// that does not parse fails the whole file.
pub fn read_records_file(path: &Path) -> Result<Vec<Value>, String> {
    let dataset = hintlens_formats::read(path).map_err(|e| format!("cannot read {e}"))?;
    dataset.rows.into_iter().map(|r| r.value.map_err(|m| format!("{}: {}", path.display(), m.message))).collect()
}

/// The instance id of a record.
pub(crate) fn instance_id(record: &Value) -> Option<&str> {
    record.get("instance_id").and_then(Value::as_str)
}

/// Whether a result record is a successful one.
pub(crate) fn is_ok(record: &Value) -> bool {
    record.get("status").and_then(Value::as_str) == Some("ok")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_arrays() {
        assert_eq!(read_records("{\"a\": 1}\n\n{\"a\": 2}\n").unwrap().len(), 2);
        assert_eq!(read_records("[{\"a\": 1}]").unwrap().len(), 1);
        assert!(read_records("{\"a\": 1}\nnope\n").unwrap_err().contains("line 2"));
    }
}
