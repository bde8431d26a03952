//! Document URIs ↔ repository paths (`/`-separated, relative to the work tree root).

use lsp_types::Uri;
use percent_encoding::{AsciiSet, CONTROLS, percent_decode_str, utf8_percent_encode};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Characters escaped in the path of a `file:` URI: everything RFC 3986 does not allow in a
/// path segment, and `%` itself.
const PATH: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b']')
    .add(b'\\')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// The work tree root, under both its given and its canonical spelling, so that a document
/// reached through a symlinked directory still maps into the repository.
#[derive(Debug, Clone)]
pub(crate) struct Root {
    path: PathBuf,
    canonical: PathBuf,
}

impl Root {
    pub(crate) fn new(path: PathBuf) -> Root {
        let canonical = path.canonicalize().unwrap_or_else(|_| path.clone());
        Root { path, canonical }
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The file's path on disk.
    pub(crate) fn join(&self, relative: &str) -> PathBuf {
        self.path.join(relative)
    }

    /// The repository path of a file on disk, if it is inside the work tree.
    pub(crate) fn relative(&self, file: &Path) -> Option<String> {
        let rest = file.strip_prefix(&self.path).or_else(|_| file.strip_prefix(&self.canonical)).ok()?;
        let parts: Vec<&str> = rest.components().map(|c| c.as_os_str().to_str()).collect::<Option<_>>()?;
        (!parts.is_empty()).then(|| parts.join("/"))
    }

    /// The repository path a document URI names, if it is a file inside the work tree.
    pub(crate) fn relative_uri(&self, uri: &Uri) -> Option<String> {
        self.relative(&file_path(uri)?)
    }

    pub(crate) fn uri(&self, relative: &str) -> Uri {
        file_uri(&self.join(relative))
    }
}

/// The local path of a `file:` URI (`file:///a/b` or `file://localhost/a/b`).
pub(crate) fn file_path(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    let path = match rest.strip_prefix("localhost") {
        Some(path) => path,
        None => rest,
    };
    if !path.starts_with('/') {
        return None;
    }
    let path = path.split(['?', '#']).next().unwrap_or_default();
    let bytes: Vec<u8> = percent_decode_str(path).collect();
    Some(PathBuf::from(String::from_utf8(bytes).ok()?))
}

pub(crate) fn file_uri(path: &Path) -> Uri {
    let encoded = utf8_percent_encode(&path.to_string_lossy(), PATH).to_string();
    Uri::from_str(&format!("file://{encoded}")).expect("an escaped absolute path is a valid URI")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uri(s: &str) -> Uri {
        Uri::from_str(s).unwrap()
    }

    #[test]
    fn file_uris_round_trip_with_escapes() {
        let path = Path::new("/tmp/a dir/café #1.py");
        let u = file_uri(path);
        assert_eq!(u.as_str(), "file:///tmp/a%20dir/caf%C3%A9%20%231.py");
        assert_eq!(file_path(&u).as_deref(), Some(path));
        assert_eq!(file_path(&uri("file://localhost/x/y.py")).as_deref(), Some(Path::new("/x/y.py")));
        assert_eq!(file_path(&uri("untitled:Untitled-1")), None);
        assert_eq!(file_path(&uri("file://server/share/x.py")), None);
    }

    #[test]
    fn relative_paths_stay_inside_the_root() {
        let root = Root::new(PathBuf::from("/nonexistent/repo"));
        assert_eq!(root.relative_uri(&uri("file:///nonexistent/repo/pkg/a%20b.py")).as_deref(), Some("pkg/a b.py"));
        assert_eq!(root.relative_uri(&uri("file:///nonexistent/other/x.py")), None);
        assert_eq!(root.relative_uri(&uri("file:///nonexistent/repo")), None);
        assert_eq!(root.uri("pkg/x.py").as_str(), "file:///nonexistent/repo/pkg/x.py");
    }
}
