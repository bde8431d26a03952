//! JSON lines and JSON arrays.

use crate::{Error, Format, Malformed, Row, write_atomically};
use serde_json::Value;
use std::io::Write;
use std::path::Path;

/// Parses JSON lines (blank lines skipped, a line that does not parse kept as [`Malformed`]) or
/// one JSON array (which parses as a whole or not at all).
pub fn parse_json(text: &str) -> Result<(Format, Vec<Row>), String> {
    if text.trim_start().starts_with('[') {
        let values: Vec<Value> = serde_json::from_str(text)
            .map_err(|e| format!("not a valid JSON array: {e} (expected a JSON array or JSON lines)"))?;
        let rows = values.into_iter().enumerate().map(|(i, v)| Row { position: i + 1, value: Ok(v) }).collect();
        return Ok((Format::JsonArray, rows));
    }
    let rows = text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| Row {
            position: i + 1,
            value: serde_json::from_str(line).map_err(|e| Malformed {
                message: format!("line {} is not valid JSON: {e}", i + 1),
                text: line.to_owned(),
            }),
        })
        .collect();
    Ok((Format::JsonLines, rows))
}

/// Writes rows as JSON lines or one JSON array (a row a line). A malformed row is written back as
/// the text it was read from.
pub fn write_json<'a>(
    path: &Path,
    format: Format,
    rows: impl Iterator<Item = Result<&'a Value, &'a Malformed>>,
) -> Result<(), Error> {
    write_atomically(path, |file| {
        let mut out = std::io::BufWriter::new(file);
        let array = format == Format::JsonArray;
        let io = |e: std::io::Error| e.to_string();
        if array {
            out.write_all(b"[").map_err(io)?;
        }
        for (i, row) in rows.enumerate() {
            if array {
                out.write_all(if i == 0 { b"\n" } else { b",\n" }).map_err(io)?;
            }
            match row {
                Ok(value) => serde_json::to_writer(&mut out, value).map_err(|e| e.to_string())?,
                Err(malformed) => out.write_all(malformed.text.as_bytes()).map_err(io)?,
            }
            if !array {
                out.write_all(b"\n").map_err(io)?;
            }
        }
        if array {
            out.write_all(b"\n]\n").map_err(io)?;
        }
        out.flush().map_err(io)
    })
}
