//! Hostile input: every nesting the walk recurses on, deep enough to exhaust a worker's stack
//! if the walk recursed without bound, and wide flat nodes that would make it quadratic. All
//! three dialects read each input on a thread with rayon's default 2 MiB stack (8 MiB in debug
//! builds, whose frames are several times larger; an unbounded walk would need tens of MiB
//! here either way). An overflow aborts the process: this test failing at all means the walk
//! is unbounded somewhere.

use hintlens_ts::frontends;
use std::time::{Duration, Instant};

fn nest(open: &str, middle: &str, close: &str, n: usize) -> String {
    format!("{}{middle}{}", open.repeat(n), close.repeat(n))
}

fn hostile() -> Vec<(&'static str, String)> {
    vec![
        ("member chain", format!("a{};", ".b".repeat(50_000))),
        ("member chain called", format!("a{}();", ".b".repeat(50_000))),
        ("member chain assigned at module level", format!("a{} = function () {{}};", ".b".repeat(50_000))),
        ("calls", nest("f(", "x", ")", 20_000)),
        ("arrays", nest("[", "1", "]", 50_000)),
        ("arrows", format!("{}1", "() => ".repeat(20_000))),
        ("blocks", nest("{ ", "x;", "}", 50_000)),
        ("ifs", format!("{}x;", "if (a) ".repeat(20_000))),
        ("functions", nest("function f() { ", "x;", "}", 10_000)),
        ("classes", nest("class A { m() { ", "x;", "} }", 5_000)),
        ("modules", nest("module A { ", "x;", "}", 10_000)),
        ("namespaces", nest("namespace A { ", "x;", "}", 10_000)),
        ("exported namespaces", nest("export namespace A { ", "x;", "}", 10_000)),
        ("module.exports functions", nest("module.exports = function (m) { ", "m.x = 1;", "};", 8_000)),
        ("generic parameter types", format!("function f(x: {}T{}) {{}}", "A<".repeat(30_000), ">".repeat(30_000))),
        ("generic types", format!("type T = {}number{};", "Array<".repeat(20_000), ">".repeat(20_000))),
        ("jsx", nest("<A>", "x", "</A>", 5_000)),
        ("objects", nest("x = { a: ", "1", " }", 10_000)),
        ("patterns", format!("const {} = v;", nest("{ a: ", "b", " }", 20_000))),
        ("heritage", format!("class C extends {}B{} {{}}", "M(".repeat(30_000), ")".repeat(30_000))),
        ("template substitutions", nest("`${", "x", "}`", 10_000)),
        ("garbage", "\u{1}\u{ff}}){(]['\"`/*".repeat(2_000)),
    ]
}

#[test]
fn deep_nesting_never_exhausts_a_workers_stack() {
    let stack = if cfg!(debug_assertions) { 8 << 20 } else { 2 << 20 };
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(|| {
            for (name, input) in hostile() {
                let t = Instant::now();
                for frontend in frontends() {
                    let index = frontend.extract(input.as_bytes());
                    std::hint::black_box((name, index));
                }
                eprintln!("TIME {name}: {:?}", t.elapsed());
            }
        })
        .expect("a thread")
        .join()
        .expect("no panic");
}

/// Unterminated nestings leave one flat ERROR node with a child per line: reading its children
/// by index would cost O(n²). Extraction stays within a small multiple of the parse.
#[test]
fn wide_error_nodes_are_read_in_linear_time() {
    let input = "module.exports = function (m) { ".repeat(30_000);
    for frontend in frontends() {
        let start = Instant::now();
        std::hint::black_box(frontend.bare_parse(input.as_bytes()));
        let parse = start.elapsed();
        let start = Instant::now();
        std::hint::black_box(frontend.extract(input.as_bytes()));
        let extract = start.elapsed();
        assert!(
            extract < parse * 25 + Duration::from_secs(2),
            "{}: extraction {extract:?} against a parse of {parse:?}",
            frontend.language()
        );
    }
}
