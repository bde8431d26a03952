//! Serves the fixed-rule stand-in judge (`hintlens_judge::standin::fixed_rule`) on a loopback
//! port until killed, and writes a configuration for `hintlens judge run` that names it:
//!
//! ```sh
//! cargo run -p hintlens-judge --example standin -- judge.toml &
//! hintlens judge run PROMPTS.jsonl --config judge.toml --out ANSWERS.jsonl
//! ```
//!
//! The report of its answers is known in advance (see `fixed_rule`): a check of the whole
//! pipeline before a model is paid for.

use hintlens_judge::standin::{StandIn, fixed_rule};

fn main() {
    let Some(config) = std::env::args().nth(1) else {
        eprintln!("usage: standin CONFIG.toml");
        std::process::exit(2);
    };
    let server = StandIn::start(fixed_rule).expect("a loopback port");
    let text = format!("[judge]\nurl = \"{}\"\nmodel = \"stand-in\"\nbackoff_seconds = 0.1\n", server.url());
    std::fs::write(&config, text).expect("the configuration is writable");
    eprintln!("stand-in judge at {} (configuration in {config}); Ctrl-C ends it", server.url());
    loop {
        std::thread::park();
    }
}
