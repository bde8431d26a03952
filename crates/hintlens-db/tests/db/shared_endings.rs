//! An ending two languages share (`.h`, C's and C++'s) is decided by the snapshot holding the
//! file: the sharing language's where the snapshot holds more files of its own endings than of
//! the owning language's, the owner's elsewhere; every way of listing a snapshot decides alike.

use hintlens_db::{Database, LanguageId, SnapshotIndex};
use hintlens_snapshot::{NoBlobs, Snapshot, build_reference};
use hintlens_syntax::{FileIndex, Frontend, LanguageSpec, lexical::Dialect};

/// Stand-ins for C (owns `.c` and `.h`) and C++ (owns `.cc`, shares `.h`); they read nothing.
struct Lang(&'static LanguageSpec);

static C: LanguageSpec = LanguageSpec {
    name: "c",
    extensions: &[".c", ".h"],
    shared_extensions: &[],
    lexical: Dialect::Python,
    test_patterns: &[],
    keywords: &[],
};
static CPP: LanguageSpec = LanguageSpec { name: "cpp", extensions: &[".cc"], shared_extensions: &[".h"], ..C };

impl Frontend for Lang {
    fn spec(&self) -> &'static LanguageSpec {
        self.0
    }
    fn extract_source(
        &self,
        _text: &[u8],
        _earlier: Option<hintlens_syntax::reuse::Earlier>,
    ) -> (FileIndex, Option<hintlens_syntax::reuse::Parse>) {
        (FileIndex::default(), None)
    }
    fn source_module_name(&self, path: &str, _index: &FileIndex) -> String {
        path.to_owned()
    }
    fn bare_parse(&self, _text: &[u8]) -> usize {
        0
    }
}

fn database() -> Database {
    Database::new(vec![Box::new(Lang(&CPP)), Box::new(Lang(&C))])
}

fn snapshot(paths: &[&str]) -> Snapshot {
    Snapshot::from_files(paths.iter().map(|p| (p.to_string(), b"x\n".to_vec())))
}

fn languages(db: &Database, index: &SnapshotIndex) -> Vec<(String, &'static str)> {
    index.paths(db).map(|(path, language)| (path.to_owned(), db.language_name(language))).collect()
}

#[test]
fn a_header_is_cpp_where_the_snapshot_holds_cpp_sources() {
    let db = database();
    let cpp = snapshot(&["include/x.h", "src/x.cc", "src/y.c", "src/z.cc"]);
    let c = snapshot(&["include/x.h", "src/y.c"]);
    // jq: a C project with a C++ fuzz harness keeps its headers C.
    let mostly_c = snapshot(&["include/x.h", "src/a.c", "src/b.c", "tests/fuzz.cc"]);
    // Headers and nothing else are their owner's.
    let headers = snapshot(&["include/x.h", "include/y.h"]);
    for (snapshot, header) in [(&cpp, "cpp"), (&c, "c"), (&mostly_c, "c"), (&headers, "c")] {
        let full = db.index_snapshot(snapshot, || NoBlobs);
        let demand = db.snapshot_on_demand(snapshot, Box::new(NoBlobs));
        assert_eq!(languages(&db, &full), languages(&db, &demand));
        assert_eq!(languages(&db, &full)[0], ("include/x.h".to_owned(), header));
        assert_eq!(db.language_in("include/x.h", &db.holdings(snapshot)), Some(full.paths(&db).next().unwrap().1));
    }
    // By its path alone a header is its owner's.
    assert_eq!(db.language_of("include/x.h"), Some(LanguageId(1)));
    assert_eq!(db.shared_ending("a/b.h"), Some(".h"));
    assert_eq!(db.shared_ending("a/b.c"), None);
}

/// A reference derived from its base lists its files as a fresh listing does, also when the
/// change makes C++ sources outnumber C sources (every header changes hands) or no longer.
#[test]
fn a_derived_snapshot_decides_its_headers_as_a_fresh_one() {
    let db = database();
    let add =
        "diff --git a/src/z.cc b/src/z.cc\nnew file mode 100644\n--- /dev/null\n+++ b/src/z.cc\n@@ -0,0 +1 @@\n+x\n";
    let delete = "diff --git a/src/x.cc b/src/x.cc\ndeleted file mode 100644\n--- a/src/x.cc\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n";
    let touch = "diff --git a/include/x.h b/include/x.h\n--- a/include/x.h\n+++ b/include/x.h\n@@ -1 +1 @@\n-x\n+y\n";
    for (base, patch) in [
        (snapshot(&["include/x.h", "src/y.c"]), add),
        (snapshot(&["include/x.h"]), add),
        (snapshot(&["include/x.h", "src/x.cc", "src/y.c"]), delete),
        (snapshot(&["include/x.h", "src/x.cc"]), delete),
        (snapshot(&["include/x.h", "src/x.cc"]), touch),
        (snapshot(&["include/x.h", "src/y.c"]), touch),
    ] {
        let reference = build_reference(&base, &NoBlobs, patch.as_bytes(), b"").unwrap().snapshot;
        let base_index = db.snapshot_on_demand(&base, Box::new(NoBlobs));
        let derived = db.derive_on_demand(&base, &base_index, &reference, Box::new(NoBlobs));
        let afresh = db.snapshot_on_demand(&reference, Box::new(NoBlobs));
        assert_eq!(languages(&db, &derived), languages(&db, &afresh), "{patch}");
    }
}
