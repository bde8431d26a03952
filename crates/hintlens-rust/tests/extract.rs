//! What one Rust file defines and uses, as snapshots of the index's dump.

use hintlens_rust::Rust;
use hintlens_tree::check_extraction as check;

check!(
    items_and_members,
    Rust,
    r#"//! A stack.
use std::fmt;
use crate::util::{self, Id as Ident};
use super::*;

/// A stack of items.
#[derive(Debug, Clone)]
pub struct Stack<T> {
    /// The items, bottom first.
    pub items: Vec<T>,
    limit: usize,
}

pub struct Pair(u32, String);

pub enum Shape {
    Square,
    Circle { radius: f64 },
    Hexagon(u8),
}

pub union Bits { i: u32, f: f32 }

pub trait Sink {
    fn write(&mut self, b: &[u8]) -> usize;
    fn flush(&mut self) {}
    const SIZE: usize;
    type Item;
}

pub const MAX: usize = 10;
static COUNTER: u32 = 0;
pub type Items<T> = Vec<T>;

macro_rules! ensure_port {
    ($p:expr) => { check_port($p) };
}

impl<T: Clone> Stack<T> {
    pub const EMPTY: usize = 0;

    /// Makes an empty stack.
    pub fn new() -> Self {
        Self { items: Vec::new(), limit: MAX }
    }

    pub fn peek(&self) -> Option<&T> {
        let last = self.items.last();
        self.check();
        last
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name())
    }
}

pub fn area(shape: &Shape) -> f64 {
    match shape {
        Shape::Circle { radius } => radius * radius,
        Shape::Square => 1.0,
        _ => util::zero(),
    }
}

mod inner {
    pub fn helper() -> u32 { super::MAX as u32 }
}

mod other;
"#
);

check!(
    unit_tests_in_a_source_file,
    Rust,
    r#"pub fn double(x: u32) -> u32 {
    x * 2
}

#[cfg(test)]
mod tests {
    use super::*;

    struct FakeSink { flushed: bool }

    impl crate::Sink for FakeSink {
        fn flush(&mut self) { self.flushed = true; }
    }

    #[test]
    fn doubles() {
        let x = 3;
        assert_eq!(double(x), 6);
        let opts = crate::config::Options { retries: 3, ..Default::default() };
        assert!(matches!(opts.mode, Mode::Strict));
        let s = Stack::new();
        assert_eq!(s.peek(), None, "empty stack");
        ensure_port!(clap::Command::new("x").get_port());
    }

    #[test]
    #[should_panic(expected = "bad port")]
    fn rejects() {
        let v = vec![Options { retries: 1 }];
        panic!("bad port {}", v.len());
    }
}
"#
);

check!(
    integration_test_through_the_crate,
    Rust,
    r#"use clap::{Arg, Command};
use std::collections::HashMap;

#[test]
fn builds() {
    let cmd = Command::new("app").arg(Arg::new("x").long("x"));
    let m = clap::parser::ArgMatches::default();
    let mut map = HashMap::new();
    map.insert("k", 1);
    for (k, v) in map.iter() {
        let _ = (k, v);
    }
    if let Some(value) = m.get_one::<String>("x") {
        println!("{value}");
    }
    let closure = |a: u32| a + 1;
    closure(cmd.get_count());
}
"#
);

check!(syntax_errors_keep_the_readable_parts, Rust, "pub fn ok() {}\n\nfn broken( {\n\npub struct After { a: u8 }\n");

check!(
    uniform_paths_start_at_the_module,
    Rust,
    r#"mod action;
pub use action::ArgAction;
use Shape::*;
use serde::Serialize;

pub enum Shape { Square }
"#
);
