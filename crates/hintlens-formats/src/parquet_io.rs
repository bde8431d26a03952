//! Parquet files: read into rows, written from rows, and rewritten with one text column added
//! or edited while every other column, the schema and its metadata stay as they were.

use crate::{Dataset, Error, Format, Row, is_pattern, to_arrow, to_json, write_atomically};
use arrow_array::{Array, ArrayRef, LargeStringArray, RecordBatch, StringArray, StringViewArray, cast::AsArray};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const BATCH_ROWS: usize = 8192;

/// The Parquet files `path` names: itself, the `*.parquet` files below a directory, or the files
/// a `*` pattern in the last component matches; in name order, which is shard order for
/// Hugging Face's `test-00000-of-00002.parquet`. A directory holding several splits (`test-…`
/// and `train-…`, or `test/` and `train/`) is refused: which one is meant cannot be guessed.
pub fn parquet_files(path: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut files = Vec::new();
    if path.is_dir() {
        collect(path, &mut files).map_err(|e| Error::new(path, e.to_string()))?;
        files.sort();
        if files.is_empty() {
            return Err(Error::new(path, "no .parquet file in this directory"));
        }
        let splits: BTreeSet<String> = files.iter().map(|f| split_of(path, f)).collect();
        if splits.len() > 1 {
            let listed: Vec<&str> = splits.iter().map(String::as_str).collect();
            return Err(Error::new(
                path,
                format!(
                    "this directory holds several splits ({}); name one, e.g. `{}`",
                    listed.join(", "),
                    path.join(format!("{}*.parquet", listed[0])).display()
                ),
            ));
        }
    } else if is_pattern(path) {
        let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let pattern = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let entries = std::fs::read_dir(dir).map_err(|e| Error::new(dir, e.to_string()))?;
        for entry in entries {
            let entry = entry.map_err(|e| Error::new(dir, e.to_string()))?;
            if entry.file_name().to_str().is_some_and(|name| wildcard(pattern, name)) && entry.path().is_file() {
                files.push(entry.path());
            }
        }
        files.sort();
        if files.is_empty() {
            return Err(Error::new(path, "no file matches this pattern"));
        }
    } else {
        files.push(path.to_owned());
    }
    Ok(files)
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, files)?;
        } else if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("parquet")) {
            files.push(path);
        }
    }
    Ok(())
}

/// The split a shard belongs to: its directory below `root` and its name without the shard
/// number (`data/test-00001-of-00002.parquet` → `data/test-`, `test/0000.parquet` → `test/`).
fn split_of(root: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(root).unwrap_or(file);
    let dir = relative.parent().map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    let name = stem.trim_end_matches(|c: char| c.is_ascii_digit() || c == '-');
    let name =
        name.strip_suffix("-of").map(|n| n.trim_end_matches(|c: char| c.is_ascii_digit() || c == '-')).unwrap_or(name);
    let name = if name.is_empty() { String::new() } else { format!("{name}-") };
    if dir.is_empty() { name } else { format!("{dir}/{name}") }
}

/// `*` matches any run of characters, everything else itself.
fn wildcard(pattern: &str, name: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = name.strip_prefix(first) else { return false };
    let parts: Vec<&str> = parts.collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Reads Parquet files, in order, into one dataset.
pub fn read_parquet(files: &[PathBuf]) -> Result<Dataset, Error> {
    let mut values = Vec::new();
    let mut rows_per_file = Vec::with_capacity(files.len());
    for file in files {
        let before = values.len();
        for batch in open(file)?.1 {
            let batch = batch.map_err(|e| read_error(file, e))?;
            to_json::batch_rows(&batch, &mut values).map_err(|m| Error::new(file, m))?;
        }
        rows_per_file.push(values.len() - before);
    }
    let rows = values.into_iter().enumerate().map(|(i, v)| Row { position: i + 1, value: Ok(v) }).collect();
    Ok(Dataset { format: Format::Parquet, files: files.to_vec(), rows_per_file, rows })
}

fn open(file: &Path) -> Result<(Arc<Schema>, parquet::arrow::arrow_reader::ParquetRecordBatchReader), Error> {
    let handle = std::fs::File::open(file).map_err(|e| Error::new(file, e.to_string()))?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(handle).map_err(|e| read_error(file, e))?;
    let schema = builder.schema().clone();
    let reader = builder.with_batch_size(BATCH_ROWS).build().map_err(|e| read_error(file, e))?;
    Ok((schema, reader))
}

fn read_error(file: &Path, e: impl std::fmt::Display) -> Error {
    let message = e.to_string();
    let hint = if message.contains("Disabled feature") || message.to_ascii_lowercase().contains("codec") {
        " (hintlens reads uncompressed and Snappy-compressed Parquet, pyarrow's default: rewrite the file with \
         `pyarrow.parquet.write_table(table, path, compression=\"snappy\")`)"
    } else {
        ""
    };
    Error::new(file, format!("not a readable Parquet file: {message}{hint}"))
}

fn properties() -> WriterProperties {
    WriterProperties::builder().set_compression(Compression::SNAPPY).build()
}

/// Writes rows (JSON objects) as one Parquet file; see [`to_arrow`] for how JSON kinds map to
/// column types.
pub fn write_parquet(path: &Path, rows: &[Value]) -> Result<(), Error> {
    let (schema, batches) = to_arrow::batches(rows, BATCH_ROWS).map_err(|m| Error::new(path, m))?;
    write_atomically(path, |file| {
        let mut writer = ArrowWriter::try_new(file, schema, Some(properties())).map_err(|e| e.to_string())?;
        for batch in &batches {
            writer.write(batch).map_err(|e| e.to_string())?;
        }
        writer.close().map(|_| ()).map_err(|e| e.to_string())
    })
}

/// One text column to change in a Parquet file, with a value per row of the file.
#[derive(Debug, Clone, Copy)]
pub enum ColumnEdit<'a> {
    /// A new nullable text column (`None`: null), last; the file must not have it yet.
    Add { name: &'a str, values: &'a [Option<String>] },
    /// An existing text column, where `Some` replaces the row's value and `None` keeps it.
    Replace { name: &'a str, values: &'a [Option<String>] },
}

/// Copies a Parquet file with one column added or edited; every other column, the schema (its
/// types and metadata) and the row order are kept. A Hugging Face `datasets` schema in the
/// metadata learns of an added column, so that `load_dataset` reads it.
pub fn rewrite_parquet(input: &Path, output: &Path, edit: ColumnEdit<'_>) -> Result<(), Error> {
    let (schema, reader) = open(input)?;
    let (name, values) = match edit {
        ColumnEdit::Add { name, values } | ColumnEdit::Replace { name, values } => (name, values),
    };
    let mut metadata = schema.metadata().clone();
    // The writer stores its own copy of the Arrow schema.
    metadata.remove("ARROW:schema");
    let (out_schema, replaced) = match edit {
        ColumnEdit::Add { .. } => {
            if schema.field_with_name(name).is_ok() {
                return Err(Error::new(input, format!("already has a column `{name}`")));
            }
            if let Some(features) = metadata.get("huggingface").and_then(|m| add_feature(m, name)) {
                metadata.insert("huggingface", features);
            }
            let mut fields: Vec<Field> = schema.fields().iter().map(|f| f.as_ref().clone()).collect();
            fields.push(Field::new(name, DataType::Utf8, true));
            (Arc::new(Schema::new_with_metadata(fields, metadata)), None)
        }
        ColumnEdit::Replace { .. } => {
            let index = schema.index_of(name).map_err(|_| Error::new(input, format!("has no column `{name}`")))?;
            let ty = schema.field(index).data_type();
            if !matches!(ty, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View) {
                return Err(Error::new(input, format!("column `{name}` holds {ty}, not text")));
            }
            (Arc::new(Schema::new_with_metadata(schema.fields().clone(), metadata)), Some(index))
        }
    };
    let mut batches = Vec::new();
    let mut at = 0;
    for batch in reader {
        let batch = batch.map_err(|e| read_error(input, e))?;
        let n = batch.num_rows();
        let slice = values.get(at..at + n).ok_or_else(|| {
            Error::new(input, format!("has more rows than the {} values given for `{name}`", values.len()))
        })?;
        at += n;
        let mut columns: Vec<ArrayRef> = batch.columns().to_vec();
        match replaced {
            None => columns.push(Arc::new(slice.iter().map(Option::as_deref).collect::<StringArray>())),
            Some(index) => columns[index] = replace_text(columns[index].as_ref(), slice),
        }
        batches.push(RecordBatch::try_new(out_schema.clone(), columns).map_err(|e| Error::new(input, e.to_string()))?);
    }
    if at != values.len() {
        return Err(Error::new(input, format!("has {at} rows, but {} values were given for `{name}`", values.len())));
    }
    write_atomically(output, |file| {
        let mut writer = ArrowWriter::try_new(file, out_schema, Some(properties())).map_err(|e| e.to_string())?;
        for batch in &batches {
            writer.write(batch).map_err(|e| e.to_string())?;
        }
        writer.close().map(|_| ()).map_err(|e| e.to_string())
    })
}

/// A text column with some values replaced, in the column's own string type.
fn replace_text(column: &dyn Array, values: &[Option<String>]) -> ArrayRef {
    fn merged<'a>(old: impl Fn(usize) -> Option<&'a str>, values: &'a [Option<String>]) -> Vec<Option<&'a str>> {
        values.iter().enumerate().map(|(i, v)| v.as_deref().or_else(|| old(i))).collect()
    }
    match column.data_type() {
        DataType::LargeUtf8 => {
            let a = column.as_string::<i64>();
            Arc::new(LargeStringArray::from(merged(|i| a.is_valid(i).then(|| a.value(i)), values)))
        }
        DataType::Utf8View => {
            let a = column.as_string_view();
            Arc::new(StringViewArray::from(merged(|i| a.is_valid(i).then(|| a.value(i)), values)))
        }
        _ => {
            let a = column.as_string::<i32>();
            Arc::new(StringArray::from(merged(|i| a.is_valid(i).then(|| a.value(i)), values)))
        }
    }
}

/// The `huggingface` schema metadata with a text feature `name` added, if it lists features.
pub(crate) fn add_feature(metadata: &str, name: &str) -> Option<String> {
    let mut value: Value = serde_json::from_str(metadata).ok()?;
    let features = value.get_mut("info")?.get_mut("features")?.as_object_mut()?;
    features.insert(name.to_owned(), serde_json::json!({"dtype": "string", "_type": "Value"}));
    serde_json::to_string(&value).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards() {
        assert!(wildcard("test-*.parquet", "test-00000-of-00002.parquet"));
        assert!(!wildcard("test-*.parquet", "train-00000-of-00002.parquet"));
        assert!(wildcard("*", "x"));
        assert!(wildcard("a*b*c", "aXbYc"));
        assert!(!wildcard("a*b*c", "aXbYcd"));
    }

    #[test]
    fn splits() {
        let root = Path::new("/d");
        assert_eq!(split_of(root, Path::new("/d/data/test-00001-of-00002.parquet")), "data/test-");
        assert_eq!(split_of(root, Path::new("/d/test-00000-of-00001.parquet")), "test-");
        assert_eq!(split_of(root, Path::new("/d/default/test/0000.parquet")), "default/test/");
        assert_eq!(split_of(root, Path::new("/d/0001.parquet")), "");
    }
}
