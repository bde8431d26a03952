//! JSON objects to Arrow arrays, for writing Parquet: one pass finds each field's shape over
//! all rows, a second builds the columns.
//!
//! Parquet wants one type per column: integers and floats mixed are floats; a field whose values
//! are of kinds that do not mix (text here, a list there) is stored as each value's JSON text.
//! Parquet cannot store an object with no fields at all, nor a column whose every value is null
//! or empty: those are Arrow's null type, and read back as absent.

use arrow_array::{
    ArrayRef, BooleanArray, Float64Array, Int64Array, ListArray, NullArray, RecordBatch, StringArray, StructArray,
};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field, Fields, Schema};
use serde_json::Value;
use std::sync::Arc;

#[derive(Debug, Clone, PartialEq)]
enum Shape {
    /// Nothing seen but nulls.
    Null,
    Bool,
    Int,
    Float,
    Text,
    List(Box<Shape>),
    Object(Vec<(String, Shape)>),
    /// Kinds that do not mix: each value's JSON text.
    Json,
}

impl Shape {
    fn observe(&mut self, value: &Value) {
        match (&mut *self, value) {
            (_, Value::Null) | (Shape::Json, _) => {}
            (Shape::Null, _) => {
                *self = match value {
                    Value::Bool(_) => Shape::Bool,
                    Value::Number(n) if n.is_i64() => Shape::Int,
                    Value::Number(_) => Shape::Float,
                    Value::String(_) => Shape::Text,
                    Value::Array(_) => Shape::List(Box::new(Shape::Null)),
                    Value::Object(_) => Shape::Object(Vec::new()),
                    Value::Null => Shape::Null,
                };
                self.observe(value);
            }
            (Shape::Bool, Value::Bool(_)) | (Shape::Text, Value::String(_)) | (Shape::Float, Value::Number(_)) => {}
            (Shape::Int, Value::Number(n)) => {
                if !n.is_i64() {
                    *self = Shape::Float;
                }
            }
            (Shape::List(item), Value::Array(items)) => items.iter().for_each(|x| item.observe(x)),
            (Shape::Object(fields), Value::Object(map)) => {
                for (key, x) in map {
                    match fields.iter_mut().find(|(k, _)| k == key) {
                        Some((_, shape)) => shape.observe(x),
                        None => {
                            let mut shape = Shape::Null;
                            shape.observe(x);
                            fields.push((key.clone(), shape));
                        }
                    }
                }
            }
            _ => *self = Shape::Json,
        }
    }

    fn data_type(&self) -> DataType {
        match self {
            Shape::Null => DataType::Null,
            Shape::Object(fields) if fields.is_empty() => DataType::Null,
            Shape::Bool => DataType::Boolean,
            Shape::Int => DataType::Int64,
            Shape::Float => DataType::Float64,
            Shape::Text | Shape::Json => DataType::Utf8,
            Shape::List(item) => DataType::List(Arc::new(Field::new("item", item.data_type(), true))),
            Shape::Object(fields) => DataType::Struct(Self::fields(fields)),
        }
    }

    fn fields(fields: &[(String, Shape)]) -> Fields {
        fields.iter().map(|(name, shape)| Field::new(name, shape.data_type(), true)).collect()
    }

    fn build(&self, values: &[&Value]) -> Result<ArrayRef, String> {
        let nulls = || NullBuffer::from(values.iter().map(|v| !v.is_null()).collect::<Vec<bool>>());
        Ok(match self {
            Shape::Null => Arc::new(NullArray::new(values.len())),
            Shape::Object(fields) if fields.is_empty() => Arc::new(NullArray::new(values.len())),
            Shape::Bool => Arc::new(values.iter().map(|v| v.as_bool()).collect::<BooleanArray>()),
            Shape::Int => Arc::new(values.iter().map(|v| v.as_i64()).collect::<Int64Array>()),
            Shape::Float => Arc::new(values.iter().map(|v| v.as_f64()).collect::<Float64Array>()),
            Shape::Text => Arc::new(values.iter().map(|v| v.as_str()).collect::<StringArray>()),
            Shape::Json => {
                Arc::new(values.iter().map(|v| (!v.is_null()).then(|| v.to_string())).collect::<StringArray>())
            }
            Shape::List(item) => {
                let lengths = values.iter().map(|v| v.as_array().map_or(0, Vec::len));
                let offsets = OffsetBuffer::<i32>::from_lengths(lengths);
                let flat: Vec<&Value> = values.iter().filter_map(|v| v.as_array()).flatten().collect();
                let child = item.build(&flat)?;
                let field = Arc::new(Field::new("item", item.data_type(), true));
                Arc::new(ListArray::try_new(field, offsets, child, Some(nulls())).map_err(|e| e.to_string())?)
            }
            Shape::Object(fields) => {
                let mut children = Vec::with_capacity(fields.len());
                for (name, shape) in fields {
                    let column: Vec<&Value> = values.iter().map(|v| v.get(name).unwrap_or(&Value::Null)).collect();
                    children.push(shape.build(&column)?);
                }
                Arc::new(
                    StructArray::try_new(Self::fields(fields), children, Some(nulls())).map_err(|e| e.to_string())?,
                )
            }
        })
    }
}

/// The schema rows (JSON objects) need, and batches of at most `batch_rows` rows in it.
pub(crate) fn batches(rows: &[Value], batch_rows: usize) -> Result<(Arc<Schema>, Vec<RecordBatch>), String> {
    let mut shape = Shape::Object(Vec::new());
    for (i, row) in rows.iter().enumerate() {
        if !row.is_object() {
            return Err(format!("row {} is not a JSON object", i + 1));
        }
        shape.observe(row);
    }
    let Shape::Object(fields) = shape else { unreachable!("observing objects keeps an object shape") };
    let schema = Arc::new(Schema::new(Shape::fields(&fields)));
    let mut batches = Vec::new();
    for chunk in rows.chunks(batch_rows.max(1)) {
        let mut columns = Vec::with_capacity(fields.len());
        for (name, shape) in &fields {
            let column: Vec<&Value> = chunk.iter().map(|v| v.get(name).unwrap_or(&Value::Null)).collect();
            columns.push(shape.build(&column).map_err(|e| format!("field `{name}`: {e}"))?);
        }
        let options = arrow_array::RecordBatchOptions::new().with_row_count(Some(chunk.len()));
        batches.push(RecordBatch::try_new_with_options(schema.clone(), columns, &options).map_err(|e| e.to_string())?);
    }
    Ok((schema, batches))
}
