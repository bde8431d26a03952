//! Benchmark formats, text in and plain data out; nothing here reads a repository.
//!
//! - Datasets as rows of JSON objects, whatever file holds them: JSON lines, one JSON array, or
//!   Parquet (one file, a directory of shards as Hugging Face publishes them, or a `*` pattern).
//! - The hint text benchmarks release ([`parse_interface`], SWE-bench Pro's `interface` field):
//!   what hintlens' own selections are compared with (`hintlens agree`) and matched against
//!   (the `pro` selection).
//! - What the agent is told ([`told`]): the text of a row's told fields in any benchmark's
//!   shape, and the one definition of a field *stating* a name ([`told::states`]).
//!
//! Invariants:
//! - The format is read from the content (Parquet's magic bytes, a leading `[`), never guessed
//!   from a file name; only what to *write* is chosen by name ([`Format::for_output`]).
//! - Rows keep their fields in file order; a Parquet null (or an absent JSON field) is an absent
//!   field, so the same dataset reads the same from JSON lines and from Parquet.
//! - Every write goes to a temporary file renamed over the target: a reader never sees half a
//!   dataset.

mod interface;
mod json;
mod parquet_io;
mod to_arrow;
mod to_json;
pub mod told;

pub use interface::{InterfaceEntry, parse_interface};
pub use json::{parse_json, write_json};
pub use parquet_io::{ColumnEdit, parquet_files, read_parquet, rewrite_parquet, write_parquet};

use serde_json::Value;
use std::fmt;
use std::path::{Path, PathBuf};

/// How a dataset is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    JsonLines,
    JsonArray,
    Parquet,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::JsonLines => "JSON lines",
            Format::JsonArray => "a JSON array",
            Format::Parquet => "Parquet",
        }
    }

    /// What an output path asks for: Parquet for `*.parquet`, JSON lines otherwise.
    pub fn for_output(path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("parquet") => Format::Parquet,
            _ => Format::JsonLines,
        }
    }
}

/// One row of a dataset: its one-based position (the line number in JSON lines, the row number
/// across all files otherwise) and its value, or why the line could not be read.
#[derive(Debug, Clone)]
pub struct Row {
    pub position: usize,
    pub value: Result<Value, Malformed>,
}

/// A JSON line that does not parse: the reason and the line as it was, so that a dataset
/// written back keeps it.
#[derive(Debug, Clone)]
pub struct Malformed {
    pub message: String,
    pub text: String,
}

/// A dataset as read.
#[derive(Debug, Clone)]
pub struct Dataset {
    pub format: Format,
    /// The files read, in order (one, except for Parquet shards).
    pub files: Vec<PathBuf>,
    /// How many rows each file gave.
    pub rows_per_file: Vec<usize>,
    pub rows: Vec<Row>,
}

/// A dataset that cannot be read or written as a whole.
#[derive(Debug, Clone)]
pub struct Error {
    pub path: PathBuf,
    pub message: String,
}

impl Error {
    pub(crate) fn new(path: &Path, message: impl Into<String>) -> Error {
        Error { path: path.to_owned(), message: message.into() }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for Error {}

/// Parquet files start (and end) with these four bytes.
const PARQUET_MAGIC: &[u8; 4] = b"PAR1";

/// Reads a dataset: a directory or a `*` pattern is a set of Parquet shards, a file is Parquet
/// when it starts with Parquet's magic bytes, JSON otherwise (an array when it starts with `[`,
/// JSON lines else).
pub fn read(path: &Path) -> Result<Dataset, Error> {
    if is_parquet(path)? {
        return read_parquet(&parquet_files(path)?);
    }
    let text = std::fs::read_to_string(path).map_err(|e| Error::new(path, e.to_string()))?;
    let (format, rows) = parse_json(&text).map_err(|m| Error::new(path, m))?;
    Ok(Dataset { format, files: vec![path.to_owned()], rows_per_file: vec![rows.len()], rows })
}

/// Whether `path` names Parquet: a directory, a pattern, or a file with the magic bytes.
pub fn is_parquet(path: &Path) -> Result<bool, Error> {
    if path.is_dir() || is_pattern(path) {
        return Ok(true);
    }
    let mut magic = [0u8; 4];
    let mut file = std::fs::File::open(path).map_err(|e| Error::new(path, e.to_string()))?;
    let read = std::io::Read::read(&mut file, &mut magic).map_err(|e| Error::new(path, e.to_string()))?;
    Ok(read == 4 && &magic == PARQUET_MAGIC)
}

pub(crate) fn is_pattern(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.contains('*')) && !path.exists()
}

/// Writes rows (JSON objects) to `path` in `format`.
pub fn write(path: &Path, format: Format, rows: &[Value]) -> Result<(), Error> {
    match format {
        Format::Parquet => write_parquet(path, rows),
        Format::JsonLines | Format::JsonArray => write_json(path, format, rows.iter().map(Ok)),
    }
}

/// Writes through a temporary file beside `path`, renamed over it once complete. A `path` that
/// exists and is no regular file (`/dev/null`, a FIFO, `/dev/stdout`) is written to directly:
/// a rename would replace the device with a file.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut std::fs::File) -> Result<(), String>,
) -> Result<(), Error> {
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| Error::new(path, format!("cannot open: {e}")))?;
        return write(&mut file).map_err(|message| Error::new(path, message));
    }
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("out");
    let tmp = path.with_file_name(format!(".{name}.tmp"));
    let mut file = std::fs::File::create(&tmp).map_err(|e| Error::new(&tmp, format!("cannot create: {e}")))?;
    let written = write(&mut file).and_then(|()| file.sync_all().map_err(|e| e.to_string()));
    drop(file);
    if let Err(message) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(Error::new(path, message));
    }
    std::fs::rename(&tmp, path).map_err(|e| Error::new(path, format!("cannot rename {} over it: {e}", tmp.display())))
}

#[cfg(test)]
mod tests;
