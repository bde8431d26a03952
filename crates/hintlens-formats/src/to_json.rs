//! Arrow arrays to JSON values, a column at a time: a struct is an object, a list an array, a
//! map with text keys an object, a dictionary its values; dates and timestamps are ISO 8601
//! text, decimals their exact digits. A null is an absent field.

use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{Array, ArrayRef, ArrowPrimitiveType, OffsetSizeTrait, RecordBatch};
use arrow_buffer::OffsetBuffer;
use arrow_schema::{DataType, TimeUnit};
use serde_json::{Map, Number, Value};

/// Appends the rows of a record batch to `out`, as JSON objects.
pub(crate) fn batch_rows(batch: &RecordBatch, out: &mut Vec<Value>) -> Result<(), String> {
    let schema = batch.schema();
    let mut columns = Vec::with_capacity(batch.num_columns());
    for (column, field) in batch.columns().iter().zip(schema.fields()) {
        let values = values(column.as_ref()).map_err(|e| format!("column `{}`: {e}", field.name()))?;
        columns.push(values.into_iter());
    }
    for _ in 0..batch.num_rows() {
        let mut row = Map::with_capacity(columns.len());
        for (column, field) in columns.iter_mut().zip(schema.fields()) {
            match column.next() {
                None | Some(Value::Null) => {}
                Some(value) => {
                    row.insert(field.name().clone(), value);
                }
            }
        }
        out.push(Value::Object(row));
    }
    Ok(())
}

/// The JSON value of every element of an array.
fn values(array: &dyn Array) -> Result<Vec<Value>, String> {
    let each = |value: &dyn Fn(usize) -> Value| -> Vec<Value> {
        (0..array.len()).map(|i| if array.is_null(i) { Value::Null } else { value(i) }).collect()
    };
    Ok(match array.data_type() {
        DataType::Null => vec![Value::Null; array.len()],
        DataType::Boolean => {
            let a = array.as_boolean();
            each(&|i| Value::Bool(a.value(i)))
        }
        DataType::Int8 => integers::<Int8Type>(array),
        DataType::Int16 => integers::<Int16Type>(array),
        DataType::Int32 => integers::<Int32Type>(array),
        DataType::Int64 => integers::<Int64Type>(array),
        DataType::UInt8 => integers::<UInt8Type>(array),
        DataType::UInt16 => integers::<UInt16Type>(array),
        DataType::UInt32 => integers::<UInt32Type>(array),
        DataType::UInt64 => integers::<UInt64Type>(array),
        DataType::Float16 => {
            let a = array.as_primitive::<Float16Type>();
            each(&|i| float(a.value(i).to_f64()))
        }
        DataType::Float32 => {
            let a = array.as_primitive::<Float32Type>();
            each(&|i| float(a.value(i).into()))
        }
        DataType::Float64 => {
            let a = array.as_primitive::<Float64Type>();
            each(&|i| float(a.value(i)))
        }
        DataType::Utf8 => {
            let a = array.as_string::<i32>();
            each(&|i| Value::String(a.value(i).to_owned()))
        }
        DataType::LargeUtf8 => {
            let a = array.as_string::<i64>();
            each(&|i| Value::String(a.value(i).to_owned()))
        }
        DataType::Utf8View => {
            let a = array.as_string_view();
            each(&|i| Value::String(a.value(i).to_owned()))
        }
        // Bytes are text more often than not in datasets (a patch stored as binary); others
        // keep their bytes as numbers rather than being mangled.
        DataType::Binary => {
            let a = array.as_binary::<i32>();
            each(&|i| bytes(a.value(i)))
        }
        DataType::LargeBinary => {
            let a = array.as_binary::<i64>();
            each(&|i| bytes(a.value(i)))
        }
        DataType::BinaryView => {
            let a = array.as_binary_view();
            each(&|i| bytes(a.value(i)))
        }
        DataType::FixedSizeBinary(_) => {
            let a = array.as_fixed_size_binary();
            each(&|i| bytes(a.value(i)))
        }
        DataType::Decimal32(..) => decimals::<Decimal32Type>(array),
        DataType::Decimal64(..) => decimals::<Decimal64Type>(array),
        DataType::Decimal128(..) => decimals::<Decimal128Type>(array),
        DataType::Decimal256(..) => decimals::<Decimal256Type>(array),
        DataType::Date32 => {
            let a = array.as_primitive::<Date32Type>();
            each(&|i| text(arrow_array::temporal_conversions::as_date::<Date32Type>(a.value(i).into())))
        }
        DataType::Date64 => {
            let a = array.as_primitive::<Date64Type>();
            each(&|i| text(arrow_array::temporal_conversions::as_date::<Date64Type>(a.value(i))))
        }
        DataType::Timestamp(unit, zone) => {
            let zone = zone.is_some();
            match unit {
                TimeUnit::Second => timestamps::<TimestampSecondType>(array, zone),
                TimeUnit::Millisecond => timestamps::<TimestampMillisecondType>(array, zone),
                TimeUnit::Microsecond => timestamps::<TimestampMicrosecondType>(array, zone),
                TimeUnit::Nanosecond => timestamps::<TimestampNanosecondType>(array, zone),
            }
        }
        // Times of day and durations stay counts of their unit.
        DataType::Time32(TimeUnit::Second) => integers::<Time32SecondType>(array),
        DataType::Time32(_) => integers::<Time32MillisecondType>(array),
        DataType::Time64(TimeUnit::Microsecond) => integers::<Time64MicrosecondType>(array),
        DataType::Time64(_) => integers::<Time64NanosecondType>(array),
        DataType::Duration(TimeUnit::Second) => integers::<DurationSecondType>(array),
        DataType::Duration(TimeUnit::Millisecond) => integers::<DurationMillisecondType>(array),
        DataType::Duration(TimeUnit::Microsecond) => integers::<DurationMicrosecondType>(array),
        DataType::Duration(TimeUnit::Nanosecond) => integers::<DurationNanosecondType>(array),
        DataType::List(_) => {
            let a = array.as_list::<i32>();
            lists(array, a.offsets(), a.values())?
        }
        DataType::LargeList(_) => {
            let a = array.as_list::<i64>();
            lists(array, a.offsets(), a.values())?
        }
        DataType::FixedSizeList(_, size) => {
            let a = array.as_fixed_size_list();
            let size = *size as usize;
            let offsets = OffsetBuffer::<i32>::from_lengths(std::iter::repeat_n(size, a.len()));
            // The child of a fixed-size list is not sliced with it.
            let child = a.values().slice(a.offset() * size, a.len() * size);
            lists(array, &offsets, &child)?
        }
        DataType::Struct(fields) => {
            let a = array.as_struct();
            let mut children = Vec::with_capacity(fields.len());
            for (child, field) in a.columns().iter().zip(fields) {
                children
                    .push(values(child.as_ref()).map_err(|e| format!("field `{}`: {e}", field.name()))?.into_iter());
            }
            let mut out = Vec::with_capacity(a.len());
            for i in 0..a.len() {
                let mut object = Map::with_capacity(children.len());
                for (child, field) in children.iter_mut().zip(fields) {
                    match child.next() {
                        None | Some(Value::Null) => {}
                        Some(value) => {
                            object.insert(field.name().clone(), value);
                        }
                    }
                }
                out.push(if a.is_null(i) { Value::Null } else { Value::Object(object) });
            }
            out
        }
        DataType::Map(..) => {
            let a = array.as_map();
            let keys = values(a.keys().as_ref())?;
            let entries = values(a.values().as_ref())?;
            let offsets = a.value_offsets();
            let textual = keys.iter().all(Value::is_string);
            let mut out = Vec::with_capacity(a.len());
            for i in 0..a.len() {
                if a.is_null(i) {
                    out.push(Value::Null);
                    continue;
                }
                let range = offsets[i] as usize..offsets[i + 1] as usize;
                let pairs = keys[range.clone()].iter().zip(&entries[range]);
                out.push(if textual {
                    Value::Object(pairs.map(|(k, v)| (k.as_str().unwrap_or_default().to_owned(), v.clone())).collect())
                } else {
                    Value::Array(pairs.map(|(k, v)| serde_json::json!({"key": k, "value": v})).collect())
                });
            }
            out
        }
        DataType::Dictionary(..) => {
            let a = array.as_any_dictionary();
            let dictionary = values(a.values().as_ref())?;
            let keys = a.normalized_keys();
            each(&|i| dictionary.get(keys[i]).cloned().unwrap_or(Value::Null))
        }
        other => return Err(format!("values of type {other} have no JSON form here; cast the column to text first")),
    })
}

fn integers<T: ArrowPrimitiveType>(array: &dyn Array) -> Vec<Value>
where
    T::Native: Into<Number>,
{
    let a = array.as_primitive::<T>();
    (0..a.len()).map(|i| if a.is_null(i) { Value::Null } else { Value::Number(a.value(i).into()) }).collect()
}

fn decimals<T: DecimalType>(array: &dyn Array) -> Vec<Value> {
    let a = array.as_primitive::<T>();
    (0..a.len()).map(|i| if a.is_null(i) { Value::Null } else { Value::String(a.value_as_string(i)) }).collect()
}

fn timestamps<T: ArrowTimestampType>(array: &dyn Array, zoned: bool) -> Vec<Value> {
    let a = array.as_primitive::<T>();
    (0..a.len())
        .map(|i| {
            if a.is_null(i) {
                return Value::Null;
            }
            // A zoned timestamp is stored in UTC.
            match arrow_array::temporal_conversions::as_datetime::<T>(a.value(i)) {
                Some(t) => {
                    Value::String(format!("{}{}", t.to_string().replacen(' ', "T", 1), if zoned { "Z" } else { "" }))
                }
                None => Value::Null,
            }
        })
        .collect()
}

fn lists<O: OffsetSizeTrait>(
    array: &dyn Array,
    offsets: &OffsetBuffer<O>,
    child: &ArrayRef,
) -> Result<Vec<Value>, String> {
    // An offset buffer always holds at least one offset.
    let start = offsets[0].as_usize();
    let end = offsets[offsets.len() - 1].as_usize();
    // Only the part of the child this (perhaps sliced) list spans is converted.
    let mut items = values(child.slice(start, end - start).as_ref())?.into_iter();
    Ok(offsets
        .windows(2)
        .enumerate()
        .map(|(i, w)| {
            let list: Vec<Value> = items.by_ref().take((w[1] - w[0]).as_usize()).collect();
            if array.is_null(i) { Value::Null } else { Value::Array(list) }
        })
        .collect())
}

fn float(x: f64) -> Value {
    Number::from_f64(x).map_or(Value::Null, Value::Number)
}

fn bytes(b: &[u8]) -> Value {
    match std::str::from_utf8(b) {
        Ok(s) => Value::String(s.to_owned()),
        Err(_) => Value::Array(b.iter().map(|&x| Value::from(x)).collect()),
    }
}

fn text(x: Option<impl ToString>) -> Value {
    x.map_or(Value::Null, |x| Value::String(x.to_string()))
}
