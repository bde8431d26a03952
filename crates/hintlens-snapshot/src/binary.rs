//! Git's binary patches (`git diff --binary`, `format-patch --binary`): a `GIT binary patch`
//! line, then a forward hunk (`literal N`: the whole new content, or `delta N`: a git delta
//! against the old content) and usually a reverse one, each zlib-deflated and written as
//! base85 lines, each line prefixed with its decoded length and followed by a blank line.

/// The forward hunk of a binary patch, inflated: what turns the old content into the new.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BinaryHunk {
    /// The new content.
    Literal(Vec<u8>),
    /// A git delta (the pack format's copy/insert instructions) against the old content.
    Delta(Vec<u8>),
}

impl BinaryHunk {
    /// The new content, from the old content for a delta.
    pub fn apply(&self, old: &[u8]) -> Result<Vec<u8>, String> {
        match self {
            BinaryHunk::Literal(content) => Ok(content.clone()),
            BinaryHunk::Delta(delta) => apply_delta(old, delta),
        }
    }
}

/// Git's base85 alphabet (RFC 1924's).
const ALPHABET: &[u8; 85] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~";

fn digit(c: u8) -> Option<u32> {
    ALPHABET.iter().position(|&a| a == c).map(|d| d as u32)
}

/// One data line: a length letter (`A`–`Z` for 1–26 bytes, `a`–`z` for 27–52), then five
/// base85 characters for every four bytes (the last group padded).
pub(crate) fn decode_line(line: &[u8], out: &mut Vec<u8>) -> Result<(), String> {
    let (&first, data) = line.split_first().ok_or("an empty data line")?;
    let len = match first {
        b'A'..=b'Z' => (first - b'A') as usize + 1,
        b'a'..=b'z' => (first - b'a') as usize + 27,
        _ => return Err(format!("a data line starts with `{}`, not a length letter", first as char)),
    };
    let groups = len.div_ceil(4);
    if data.len() != groups * 5 {
        return Err(format!(
            "a data line of {len} bytes needs {} base85 characters, it has {}",
            groups * 5,
            data.len()
        ));
    }
    let mut left = len;
    for group in data.chunks(5) {
        let mut value: u64 = 0;
        for &c in group {
            let d = digit(c).ok_or_else(|| format!("`{}` is no base85 character", c as char))?;
            value = value * 85 + u64::from(d);
        }
        let value = u32::try_from(value).map_err(|_| "a base85 group overflows 32 bits".to_owned())?;
        let take = left.min(4);
        out.extend_from_slice(&value.to_be_bytes()[..take]);
        left -= take;
    }
    Ok(())
}

/// The zlib stream `deflated` inflated to exactly `size` bytes, as the hunk header says.
pub(crate) fn inflate(deflated: &[u8], size: usize) -> Result<Vec<u8>, String> {
    // zlib expands at most about 1032 to 1: a larger size is a corrupt header, not a reason to
    // allocate it.
    if size > deflated.len().saturating_mul(1032).saturating_add(64) {
        return Err(format!("its header says {size} bytes, more than {} deflated bytes can hold", deflated.len()));
    }
    // One byte more than announced, so that a stream longer than its header says is caught.
    let mut out = vec![0; size + 1];
    let (written, code) = zlib_rs::decompress_slice(&mut out, deflated, zlib_rs::InflateConfig::default());
    let written = written.len();
    if code != zlib_rs::ReturnCode::Ok {
        return Err(format!("its data does not inflate ({code:?})"));
    }
    if written != size {
        return Err(format!("its data inflates to {written} bytes, the header says {size}"));
    }
    out.truncate(size);
    Ok(out)
}

/// Applies a git delta: two sizes (base, result) as little-endian base-128 numbers, then
/// instructions — a byte with the top bit set copies a range of the base (the low bits say which
/// offset and size bytes follow), any other non-zero byte inserts that many literal bytes.
pub(crate) fn apply_delta(base: &[u8], delta: &[u8]) -> Result<Vec<u8>, String> {
    let mut pos = 0;
    let mut size = || -> Result<usize, String> {
        let mut value = 0usize;
        let mut shift = 0;
        loop {
            let &byte = delta.get(pos).ok_or("the delta ends inside its header")?;
            pos += 1;
            value |= usize::from(byte & 0x7f).checked_shl(shift).ok_or("a delta size overflows")?;
            shift += 7;
            if byte & 0x80 == 0 || shift > 63 {
                return Ok(value);
            }
        }
    };
    let (base_size, result_size) = (size()?, size()?);
    if base_size != base.len() {
        return Err(format!("the delta is against {base_size} bytes, the old content has {}", base.len()));
    }
    let mut out = Vec::with_capacity(result_size.min(1 << 26));
    while let Some(&op) = delta.get(pos) {
        pos += 1;
        if op & 0x80 != 0 {
            let mut field = |bits: u8, bytes: usize| -> Result<usize, String> {
                let mut value = 0usize;
                for i in 0..bytes {
                    if op & (bits << i) != 0 {
                        let &byte = delta.get(pos).ok_or("the delta ends inside a copy")?;
                        pos += 1;
                        value |= usize::from(byte) << (8 * i);
                    }
                }
                Ok(value)
            };
            let offset = field(0x01, 4)?;
            let mut len = field(0x10, 3)?;
            if len == 0 {
                len = 0x10000;
            }
            let copied = offset.checked_add(len).and_then(|end| base.get(offset..end)).ok_or_else(|| {
                format!("the delta copies bytes {offset}..{} of a {}-byte base", offset + len, base.len())
            })?;
            out.extend_from_slice(copied);
        } else if op != 0 {
            let inserted = delta.get(pos..pos + usize::from(op)).ok_or("the delta ends inside an insertion")?;
            out.extend_from_slice(inserted);
            pos += usize::from(op);
        } else {
            return Err("the delta holds a reserved instruction (0)".into());
        }
        if out.len() > result_size {
            break;
        }
    }
    if out.len() != result_size {
        return Err(format!("the delta yields {} bytes, its header says {result_size}", out.len()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base85_lines_decode_as_git_encodes_them() {
        // The reverse hunk git writes for an added file: the deflated empty content.
        let mut out = Vec::new();
        decode_line(b"HcmV?d00001", &mut out).unwrap();
        assert_eq!(out, [0x78, 0x01, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]);
        assert_eq!(inflate(&out, 0).unwrap(), b"");
        assert!(decode_line(b"Hcm", &mut Vec::new()).unwrap_err().contains("needs 10 base85 characters"));
        assert!(decode_line(b"1abcde", &mut Vec::new()).unwrap_err().contains("not a length letter"));
        assert!(decode_line(b"A\"bcde", &mut Vec::new()).unwrap_err().contains("no base85 character"));
    }

    #[test]
    fn deltas_copy_and_insert() {
        let base = b"hello, world\n";
        // Base 13 bytes, result 18: copy 7 bytes from 0 ("hello, "), insert "brave ", copy 6 from 7.
        let mut delta = vec![13, 19, 0x90, 7, 6];
        delta.extend_from_slice(b"brave ");
        delta.extend_from_slice(&[0x91, 7, 6]);
        assert_eq!(apply_delta(base, &delta).unwrap(), b"hello, brave world\n");
        assert!(apply_delta(b"other", &delta).unwrap_err().contains("against 13 bytes"));
        assert!(apply_delta(base, &[13, 19, 0x91, 12, 6]).unwrap_err().contains("copies bytes 12..18"));
        assert!(apply_delta(base, &[13, 1, 0]).unwrap_err().contains("reserved"));
        assert!(apply_delta(base, &[13, 2, 5, b'a']).unwrap_err().contains("inside an insertion"));
        assert!(apply_delta(base, &[13]).unwrap_err().contains("inside its header"));
    }
}
