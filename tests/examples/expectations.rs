//! Prints what each policy of a scenario file selects, as expectation blocks ready to paste:
//! `cargo run -p hintlens-tests --example expectations -- tests/scenarios/python/x.md`. Blocks
//! are written for the policies the file already names (add an empty block to ask for one).

fn main() {
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let scenario = hintlens_tests::parse_scenario(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        let outcome = hintlens_tests::run(&scenario).unwrap_or_else(|e| panic!("{path}: {e}"));
        println!("<!-- {path} -->");
        for (name, ids) in &outcome.selections {
            let (policy, _) = hintlens_tests::parse_policy(name).expect("parsed by parse_scenario");
            let mut lines: Vec<String> = ids.iter().map(|i| hintlens_tests::describe_for(policy, i)).collect();
            lines.sort();
            println!("```{name}");
            for line in lines {
                println!("{line}");
            }
            println!("```\n");
        }
    }
}
