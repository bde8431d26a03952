//! Stamps the binary with the git commit it was built from, for `hintlens --version`:
//! `HINTLENS_GIT_COMMIT`, the short id of `HEAD`, or `unknown` outside a git checkout (a source
//! archive, the wheel's sdist) or without `git` on `PATH`. `HINTLENS_GIT_COMMIT` set in the
//! environment wins (a packager building from an archive knows the commit).

use std::path::{Path, PathBuf};
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let output = Command::new("git").arg("-C").arg(dir).args(args).output().ok()?;
    let text = String::from_utf8(output.stdout).ok()?.trim().to_owned();
    (output.status.success() && !text.is_empty()).then_some(text)
}

fn main() {
    println!("cargo:rerun-if-env-changed=HINTLENS_GIT_COMMIT");
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    // Rebuild when HEAD moves: HEAD itself (a checkout), the branch it names (a commit) and
    // packed-refs (a branch packed by gc). In a worktree `.git` is a file, so ask git where they
    // are. Only existing paths are named: cargo reruns every build for a missing one.
    if let Some(git_dir) = git(&dir, &["rev-parse", "--path-format=absolute", "--git-dir"]) {
        let git_dir = PathBuf::from(git_dir);
        let common = git(&dir, &["rev-parse", "--path-format=absolute", "--git-common-dir"])
            .map(PathBuf::from)
            .unwrap_or_else(|| git_dir.clone());
        let mut watched = vec![git_dir.join("HEAD"), common.join("packed-refs")];
        if let Some(branch) = git(&dir, &["symbolic-ref", "-q", "HEAD"]) {
            watched.push(common.join(branch));
        }
        for path in watched.iter().filter(|p| p.exists()) {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    let commit = std::env::var("HINTLENS_GIT_COMMIT")
        .ok()
        .filter(|c| !c.is_empty())
        .or_else(|| git(&dir, &["rev-parse", "--short", "HEAD"]))
        .unwrap_or_else(|| "unknown".to_owned());
    println!("cargo:rustc-env=HINTLENS_GIT_COMMIT={commit}");
}
