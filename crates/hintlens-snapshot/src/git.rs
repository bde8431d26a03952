//! Running git itself, for what gix does not do: fetching a partial clone's missing objects
//! from its promisor remote, and cloning or fetching repositories (`hintlens fetch`).

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Variables that would point git at another repository, object store or index than the one
/// named: a hintlens run inside a git hook or an editor's git integration inherits them.
const REPOSITORY_VARIABLES: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_NAMESPACE",
    "GIT_COMMON_DIR",
    "GIT_CEILING_DIRECTORIES",
    "GIT_DISCOVERY_ACROSS_FILESYSTEM",
    "GIT_QUARANTINE_PATH",
];

/// One git command on one repository (`--git-dir`), or on none (`git clone`).
pub struct Git {
    command: Command,
    stdin: Option<Vec<u8>>,
}

impl Git {
    /// `git --git-dir=<git_dir> …`.
    pub fn new(git_dir: &Path) -> Git {
        let mut git = Git::bare();
        git.command.arg("--git-dir").arg(git_dir);
        git
    }

    /// `git …` outside any repository.
    pub fn bare() -> Git {
        let mut command = Command::new("git");
        for variable in REPOSITORY_VARIABLES {
            command.env_remove(variable);
        }
        // Never wait for a password nobody will type: a remote that wants one fails instead.
        command.env("GIT_TERMINAL_PROMPT", "0");
        command.stdout(Stdio::piped()).stderr(Stdio::piped());
        Git { command, stdin: None }
    }

    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Git {
        self.command.arg(arg);
        self
    }

    pub fn args<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(mut self, args: I) -> Git {
        self.command.args(args);
        self
    }

    pub fn current_dir(mut self, dir: impl Into<PathBuf>) -> Git {
        self.command.current_dir(dir.into());
        self
    }

    /// Bytes written to the command's standard input.
    pub fn stdin(mut self, bytes: Vec<u8>) -> Git {
        self.stdin = Some(bytes);
        self
    }

    /// Lets git write its progress to this process's standard error (a terminal's user watches
    /// a clone); an error message then says only the exit status.
    pub fn inherit_stderr(mut self) -> Git {
        self.command.stderr(Stdio::inherit());
        self
    }

    /// Runs the command; its standard output, or what failed: git missing, or its exit status
    /// and last lines of standard error.
    pub fn run(mut self) -> Result<Vec<u8>, String> {
        // Without `--git-dir PATH`: a message about a repository's fetch reads the same for
        // every clone of it.
        let mut args: Vec<String> = self.command.get_args().map(|a| a.to_string_lossy().into_owned()).collect();
        if args.first().is_some_and(|a| a == "--git-dir") {
            args.drain(..2);
        }
        let shown = format!("git {}", args.join(" "));
        self.command.stdin(if self.stdin.is_some() { Stdio::piped() } else { Stdio::null() });
        let mut child = self.command.spawn().map_err(|e| format!("cannot run `{shown}`: {e} (is git installed?)"))?;
        // Written from a thread, so that a command filling its output pipes before it has read
        // its input cannot deadlock with us.
        let writer = match (self.stdin.take(), child.stdin.take()) {
            (Some(bytes), Some(mut pipe)) => Some(std::thread::spawn(move || pipe.write_all(&bytes))),
            _ => None,
        };
        let output = child.wait_with_output().map_err(|e| format!("`{shown}` failed: {e}"))?;
        if let Some(writer) = writer {
            // A command that exits early closes its input: its status says why.
            let _ = writer.join();
        }
        if output.status.success() {
            return Ok(output.stdout);
        }
        let stderr = String::from_utf8_lossy(&output.stderr);
        let tail: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
        let tail = tail[tail.len().saturating_sub(4)..].join(" / ");
        Err(match tail.is_empty() {
            true => format!("`{shown}` exited with {}", output.status),
            false => format!("`{shown}` exited with {}: {tail}", output.status),
        })
    }
}
