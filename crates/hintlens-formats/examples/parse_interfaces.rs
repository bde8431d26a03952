//! Prints how the SWE-bench Pro interface parser reads each record of a JSONL file on
//! standard input: one line per entry (`instance_id<TAB>name<TAB>kind<TAB>path<TAB>parent`),
//! or `instance_id<TAB>-` for an empty interface. A tool for checking the parser on a whole
//! dataset by eye: `cargo run -p hintlens-formats --example parse_interfaces < instances.jsonl`.

use std::io::BufRead;

fn main() {
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let Ok(record) = serde_json::from_str::<serde_json::Value>(&line) else { continue };
        let id = record["instance_id"].as_str().unwrap_or("?");
        let entries = hintlens_formats::parse_interface(record["interface"].as_str().unwrap_or_default());
        if entries.is_empty() {
            println!("{id}\t-");
        }
        for e in entries {
            println!(
                "{id}\t{}\t{}\t{}\t{}",
                e.name,
                e.kind_text.as_deref().unwrap_or(""),
                e.path.as_deref().unwrap_or(""),
                e.parent.as_deref().unwrap_or("")
            );
        }
    }
}
