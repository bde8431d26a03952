//! Broken, truncated, hostile and non-UTF-8 input: extraction never panics, records syntax
//! errors and keeps what it can read.

use hintlens_python::{Python, parse_only};
use hintlens_syntax::{FileIndex, Frontend};

check!(
    missing_token_is_reported_and_the_rest_extracted,
    r#"
class Broken(Base:
    def method(self):
        return helper()

def after():
    pass
"#
);

check!(
    syntax_error_keeps_the_readable_parts,
    r#"
import os

def good(a):
    return a

def bad(x, y
    return x +

class Later:
    value = 1
"#
);

// Columns are byte offsets: `naïve` is character 7 but starts at byte 8 (`é` takes two).
check!(non_ascii_identifiers_keep_byte_columns, "café = naïve + 1\n");

/// Structural promises every index makes, whatever the input.
fn assert_invariants(text: &[u8], index: &FileIndex) {
    for (id, def) in index.definitions.iter().enumerate() {
        if let Some(parent) = def.parent {
            assert!((parent as usize) < id, "parent after child: {}", def.local_name);
        }
        assert!(def.span.start_byte <= def.name_span.start_byte);
        assert!(def.name_span.end_byte <= def.span.end_byte);
        assert!(def.span.end_byte as usize <= text.len());
        assert!(!def.name.is_empty());
    }
    let starts: Vec<u32> = index.uses.iter().map(|u| u.span.start_byte).collect();
    assert!(starts.is_sorted(), "uses out of source order");
    let starts: Vec<u32> = index.strings.iter().map(|s| s.span.start_byte).collect();
    assert!(starts.is_sorted(), "strings out of source order");
    for u in &index.uses {
        assert!(!u.name.is_empty());
        assert!(u.span.end_byte as usize <= text.len());
    }
}

const SAMPLE: &str = r#""""A sample exercising most of the grammar."""
from __future__ import annotations

import os.path as osp
from .models import Record, User as Account

LIMIT: int = 10


@dataclass(frozen=True)
class Service(Base, metaclass=Registry):
    """Serves."""

    name: str = "svc"

    def __init__(self, client: Client, *, retries: int = 3, **options) -> None:
        self.client = client
        self.items: list[Record] = [Record(x) for x in range(retries) if x % 2]
        try:
            self.path = osp.join(options["root"], f"{self.name}.json")
        except (KeyError, OSError) as error:
            raise ServiceError(str(error)) from error

    async def run(self, *args):
        async with self.client.session() as session:
            async for row in session.rows(limit=LIMIT):
                match row:
                    case {"kind": "user", "id": uid}:
                        yield Account(uid)
                    case Record(id=rid):
                        yield rid
        return lambda value, scale=2: value * scale


def helper[T](items: Sequence[T]) -> T | None:
    total = sum(item.weight for item in items)
    return items[0] if total > 0 else None
"#;

#[test]
fn a_valid_sample_has_no_errors_and_keeps_the_invariants() {
    let index = Python.extract(SAMPLE.as_bytes());
    assert!(index.errors.is_empty(), "{:?}", index.errors);
    assert_invariants(SAMPLE.as_bytes(), &index);
}

#[test]
fn every_truncation_of_the_sample_is_extracted_without_panicking() {
    let bytes = SAMPLE.as_bytes();
    for end in 0..=bytes.len() {
        let index = Python.extract(&bytes[..end]);
        assert_invariants(&bytes[..end], &index);
    }
}

#[test]
fn garbage_bytes_do_not_panic() {
    // A small deterministic generator: no dependency, same bytes on every run.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let alphabet = b"def class ( ) [ ] { } : = , . * ** @ -> if else \n    \t\"'\\#fx1_\x00\xff\xc3";
    for round in 0..300 {
        let len = (next() % 400) as usize;
        let text: Vec<u8> = (0..len)
            .map(|_| {
                let r = next();
                if round % 2 == 0 { r as u8 } else { alphabet[(r % alphabet.len() as u64) as usize] }
            })
            .collect();
        let index = Python.extract(&text);
        assert_invariants(&text, &index);
    }
}

#[test]
fn invalid_utf8_is_extracted_with_replacement_characters() {
    let text = b"def f\xff(x):\n    return \"\xfe\"\nname\xc3 = 1\n";
    let index = Python.extract(text);
    assert_invariants(text, &index);
    let names: Vec<&str> = index.definitions.iter().map(|d| d.name.as_str()).collect();
    assert!(names.iter().all(|n| !n.is_empty()), "{names:?}");
    assert!(index.dump().contains('\u{fffd}'), "{}", index.dump());
}

#[test]
fn empty_and_whitespace_files() {
    assert_eq!(Python.extract(b""), FileIndex::default());
    assert_eq!(Python.extract(b"\n\n   \n"), FileIndex::default());
    assert_eq!(Python.extract(b"# only a comment\n"), FileIndex::default());
}

/// Nesting far beyond any real program must not overflow the stack, even on a small thread
/// stack in an unoptimised build; the names inside are still found.
#[test]
fn deep_nesting_does_not_overflow_the_stack() {
    let depth = 20_000;
    let inputs: Vec<String> = vec![
        format!("x = {}y{}\n", "(".repeat(depth), ")".repeat(depth)),
        format!("x = {}y{}\n", "[".repeat(depth), "]".repeat(depth)),
        format!("x = {}\n", vec!["a"; depth].join(" + ")),
        format!("x = a{}\n", ".b".repeat(depth)),
        format!("x = f{}\n", "()".repeat(depth)),
        format!("x: {}int{}\n", "list[".repeat(depth), "]".repeat(depth)),
        (0..300).map(|i| format!("{}if x:\n", "  ".repeat(i))).collect::<String>() + &"  ".repeat(300) + "y = 1\n",
    ];
    let handle = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            for input in &inputs {
                let index = Python.extract(input.as_bytes());
                assert_invariants(input.as_bytes(), &index);
                assert!(!index.uses.is_empty(), "nothing found in {:.40}", input);
            }
        })
        .unwrap();
    handle.join().unwrap();
}

#[test]
fn extraction_is_a_pure_function_of_the_bytes() {
    assert_eq!(Python.extract(SAMPLE.as_bytes()), Python.extract(SAMPLE.as_bytes()));
}

#[test]
fn parse_only_parses_without_extracting() {
    let tree = parse_only(SAMPLE.as_bytes()).expect("tree-sitter parses without a timeout");
    assert_eq!(tree.root_node().kind(), "module");
    assert!(!tree.root_node().has_error());
}

#[test]
fn sample_dump() {
    insta::assert_snapshot!(crate::common::extract(SAMPLE).dump());
}
