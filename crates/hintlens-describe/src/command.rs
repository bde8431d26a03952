//! A local command as provider: one process per request, the request on standard input, the
//! answer on standard output.

use crate::{parse_answer, request};
use hintlens_hints::{Identifier, TaskFields};
use hintlens_projection::{Description, DescriptionProvider, Want};
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub struct CommandProvider {
    argv: Vec<String>,
    timeout: Duration,
}

impl CommandProvider {
    pub fn new(argv: Vec<String>, timeout: Duration) -> Result<CommandProvider, String> {
        if argv.is_empty() {
            return Err("the provider command is empty".into());
        }
        Ok(CommandProvider { argv, timeout })
    }

    fn run(&self, input: &[u8]) -> Result<String, String> {
        let program = &self.argv[0];
        let mut child = Command::new(program)
            .args(&self.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run `{program}`: {e}"))?;
        // Written and read on threads of their own, so neither pipe can fill up and stall the
        // other while the timeout is watched here.
        let mut stdin = child.stdin.take().expect("piped");
        let input = input.to_vec();
        let writer = std::thread::spawn(move || stdin.write_all(&input));
        let mut stdout = child.stdout.take().expect("piped");
        let reader = std::thread::spawn(move || {
            let mut out = String::new();
            stdout.read_to_string(&mut out).map(|_| out)
        });
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
                break status;
            }
            if started.elapsed() > self.timeout {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("`{program}` did not answer within {}s", self.timeout.as_secs()));
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let _ = writer.join();
        let out = reader.join().map_err(|_| "reading the answer failed".to_owned())?.map_err(|e| e.to_string())?;
        if !status.success() {
            let mut err = String::new();
            if let Some(mut stderr) = child.stderr.take() {
                let _ = stderr.read_to_string(&mut err);
            }
            return Err(format!("`{program}` failed ({status}): {}", err.trim()));
        }
        Ok(out)
    }
}

impl DescriptionProvider for CommandProvider {
    fn describe(
        &self,
        identifier: &Identifier,
        task: &TaskFields<'_>,
        problem_statement: &str,
        want: Want,
    ) -> Result<Description, String> {
        let input = request(identifier, task, problem_statement, want).to_string();
        parse_answer(&self.run(input.as_bytes())?)
    }
}
