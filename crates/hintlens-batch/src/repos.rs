//! Finding a task's repository on disk.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Where repositories live: `DIR/owner__name`, `DIR/owner/name`, `DIR/name` (each also with a
/// `.git` suffix, bare or with a work tree), or an explicit `owner/name=PATH`.
#[derive(Debug, Clone, Default)]
pub struct RepoLocator {
    pub dir: Option<PathBuf>,
    /// Keyed by lower-cased `owner/name`: benchmarks disagree on case (`FasterXML` vs `fasterxml`).
    overrides: HashMap<String, PathBuf>,
}

impl RepoLocator {
    pub fn new(dir: Option<PathBuf>) -> RepoLocator {
        RepoLocator { dir, overrides: HashMap::new() }
    }

    pub fn add_override(&mut self, repo: &str, path: PathBuf) {
        self.overrides.insert(repo.to_lowercase(), path);
    }

    /// The repository's path, or a message listing every place looked at.
    pub fn locate(&self, repo: &str) -> Result<PathBuf, String> {
        if let Some(path) = self.overrides.get(&repo.to_lowercase()) {
            return if path.exists() {
                Ok(path.clone())
            } else {
                Err(format!("repository {repo} not found: --repo gives {}, which does not exist", path.display()))
            };
        }
        let Some(dir) = &self.dir else {
            return Err(format!("repository {repo} not found: no --repos directory and no --repo {repo}=PATH given"));
        };
        let (owner, name) = repo.split_once('/').unwrap_or(("", repo));
        let mut candidates = Vec::new();
        for base in [format!("{owner}__{name}"), format!("{owner}/{name}"), name.to_owned()] {
            candidates.push(base.clone());
            candidates.push(format!("{base}.git"));
        }
        for candidate in &candidates {
            if let Some(found) = find_case_insensitive(dir, candidate) {
                return Ok(found);
            }
        }
        Err(format!(
            "repository {repo} not found under {}: looked for {} (clone it there, or pass --repo {repo}=PATH)",
            dir.display(),
            candidates.join(", ")
        ))
    }
}

/// `dir/rel`, matching each component case-insensitively when the exact spelling is absent.
fn find_case_insensitive(dir: &Path, rel: &str) -> Option<PathBuf> {
    let exact = dir.join(rel);
    if exact.is_dir() {
        return Some(exact);
    }
    let mut current = dir.to_owned();
    for component in rel.split('/') {
        let lower = component.to_lowercase();
        let entry = std::fs::read_dir(&current)
            .ok()?
            .filter_map(Result::ok)
            .find(|e| e.file_name().to_string_lossy().to_lowercase() == lower)?;
        current = entry.path();
    }
    current.is_dir().then_some(current)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_layout_and_reports_what_it_tried() {
        let dir = std::env::temp_dir().join(format!("hintlens-repos-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for d in ["o1__a", "o2/b", "c.git", "FasterXML__jackson-databind"] {
            std::fs::create_dir_all(dir.join(d)).unwrap();
        }
        let locator = RepoLocator::new(Some(dir.clone()));
        assert_eq!(locator.locate("o1/a").unwrap(), dir.join("o1__a"));
        assert_eq!(locator.locate("o2/b").unwrap(), dir.join("o2/b"));
        assert_eq!(locator.locate("o3/c").unwrap(), dir.join("c.git"));
        assert_eq!(locator.locate("fasterxml/jackson-databind").unwrap(), dir.join("FasterXML__jackson-databind"));
        let err = locator.locate("o4/missing").unwrap_err();
        assert!(
            err.contains("o4__missing, o4__missing.git, o4/missing, o4/missing.git, missing, missing.git"),
            "{err}"
        );
        let mut with_override = locator.clone();
        with_override.add_override("O4/Missing", dir.join("c.git"));
        assert_eq!(with_override.locate("o4/missing").unwrap(), dir.join("c.git"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
