use crate::{
    FileChange, FileStatus, Mode, NoBlobs, Patch, PatchErrorKind, PatchRole, Reference, Snapshot, blob_id,
    build_reference,
};

fn base(files: &[(&str, &str)]) -> Snapshot {
    Snapshot::from_files(files.iter().map(|(path, text)| (path.to_string(), text.as_bytes().to_vec())))
}

fn apply(base: &Snapshot, code: &str, test: &str) -> Reference {
    build_reference(base, &NoBlobs, code.as_bytes(), test.as_bytes()).unwrap_or_else(|error| panic!("{error}"))
}

fn apply_err(base: &Snapshot, code: &str, test: &str) -> crate::PatchError {
    match build_reference(base, &NoBlobs, code.as_bytes(), test.as_bytes()) {
        Ok(_) => panic!("the patches applied"),
        Err(error) => error,
    }
}

fn text(reference: &Reference, path: &str) -> String {
    let data = reference.snapshot.read(path, &NoBlobs).unwrap();
    String::from_utf8(data.to_vec()).unwrap()
}

fn change(status: FileStatus, old_path: Option<&str>, added_lines: &[u32]) -> FileChange {
    FileChange { status, old_path: old_path.map(str::to_owned), added_lines: added_lines.to_vec(), binary: false }
}

fn paths(snapshot: &Snapshot) -> Vec<&str> {
    snapshot.iter().map(|(path, _)| path).collect()
}

#[test]
fn blob_id_matches_git_hash_object() {
    // `printf 'hello\n' | git hash-object --stdin`, and the well-known empty blob.
    assert_eq!(blob_id(b"hello\n").to_string(), "ce013625030ba8dba906f756967f9e9ca394464a");
    assert_eq!(blob_id(b"").to_string(), "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
}

#[test]
fn empty_patches_change_nothing() {
    let b = base(&[("a.py", "x\n")]);
    let r = apply(&b, "", "");
    assert_eq!(paths(&r.snapshot), ["a.py"]);
    assert!(r.code.files.is_empty() && r.test.files.is_empty() && r.notes.is_empty());
    assert!(Patch::parse(b"just a commit message\n").unwrap().files.is_empty());
}

#[test]
fn modify_with_multiple_hunks_reports_added_lines() {
    let b = base(&[("a.py", "1\n2\n3\n4\n5\n6\n7\n8\n9\n")]);
    let code = "\
diff --git a/a.py b/a.py
index 1111111..2222222 100644
--- a/a.py
+++ b/a.py
@@ -1,2 +1,3 @@ def f():
 1
+1.5
 2
@@ -7,3 +8,3 @@
 7
-8
+eight
 9
";
    let r = apply(&b, code, "");
    assert_eq!(text(&r, "a.py"), "1\n1.5\n2\n3\n4\n5\n6\n7\neight\n9\n");
    assert_eq!(r.code.files["a.py"], change(FileStatus::Modified, None, &[1, 8]));
    let patch = Patch::parse(code.as_bytes()).unwrap();
    assert_eq!(patch.files[0].hunks[0].header, "@@ -1,2 +1,3 @@");
    assert_eq!(patch.touched_paths().into_iter().collect::<Vec<_>>(), ["a.py"]);
}

#[test]
fn omitted_hunk_counts_mean_one_line() {
    let b = base(&[("a.txt", "old\n")]);
    let r = apply(&b, "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new\n", "");
    assert_eq!(text(&r, "a.txt"), "new\n");
    assert_eq!(r.code.files["a.txt"].added_lines, [0]);
}

#[test]
fn new_file_with_mode() {
    let b = base(&[("a.py", "x\n")]);
    let code = "\
diff --git a/bin/run b/bin/run
new file mode 100755
index 0000000..3333333
--- /dev/null
+++ b/bin/run
@@ -0,0 +1,2 @@
+#!/bin/sh
+exit 0
";
    let r = apply(&b, code, "");
    assert_eq!(paths(&r.snapshot), ["a.py", "bin/run"]);
    assert_eq!(r.snapshot.len(), 2);
    let entry = r.snapshot.get("bin/run").unwrap();
    assert_eq!(entry.mode, Mode::Executable);
    assert_eq!(entry.id, blob_id(b"#!/bin/sh\nexit 0\n"));
    assert_eq!(r.code.files["bin/run"], change(FileStatus::Added, None, &[0, 1]));
}

#[test]
fn new_empty_file_has_no_hunks() {
    let r = apply(
        &Snapshot::default(),
        "diff --git a/pkg/__init__.py b/pkg/__init__.py\nnew file mode 100644\nindex 0000000..e69de29\n",
        "",
    );
    assert_eq!(text(&r, "pkg/__init__.py"), "");
    assert_eq!(r.code.files["pkg/__init__.py"].status, FileStatus::Added);
}

#[test]
fn deleted_file() {
    let b = base(&[("a.py", "x\ny\n"), ("b.py", "")]);
    let code = "\
diff --git a/a.py b/a.py
deleted file mode 100644
index 1111111..0000000
--- a/a.py
+++ /dev/null
@@ -1,2 +0,0 @@
-x
-y
diff --git a/b.py b/b.py
deleted file mode 100644
index e69de29..0000000
";
    let r = apply(&b, code, "");
    assert!(r.snapshot.is_empty());
    assert_eq!(paths(&r.snapshot), Vec::<&str>::new());
    assert_eq!(r.code.files["a.py"], change(FileStatus::Deleted, None, &[]));
    assert_eq!(r.code.files["b.py"], change(FileStatus::Deleted, None, &[]));
}

#[test]
fn deleting_a_file_that_has_more_lines_fails() {
    let b = base(&[("a.py", "x\ny\n")]);
    let code = "diff --git a/a.py b/a.py\ndeleted file mode 100644\n--- a/a.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n";
    let error = apply_err(&b, code, "");
    assert!(matches!(error.kind(), PatchErrorKind::ContextMismatch { line: 2, expected: None, .. }), "{error}");
}

#[test]
fn pure_rename_keeps_the_entry() {
    let b = base(&[("old/name.py", "x\n")]);
    let code = "\
diff --git a/old/name.py b/new/name.py
similarity index 100%
rename from old/name.py
rename to new/name.py
";
    let r = apply(&b, code, "");
    assert_eq!(paths(&r.snapshot), ["new/name.py"]);
    assert_eq!(r.snapshot.get("new/name.py"), b.get("old/name.py"));
    assert_eq!(r.code.files["new/name.py"], change(FileStatus::Renamed, Some("old/name.py"), &[]));
}

#[test]
fn rename_with_changes() {
    let b = base(&[("a.py", "1\n2\n3\n")]);
    let code = "\
diff --git a/a.py b/b.py
similarity index 80%
rename from a.py
rename to b.py
index 1111111..2222222 100644
--- a/a.py
+++ b/b.py
@@ -1,3 +1,3 @@
 1
-2
+two
 3
";
    let r = apply(&b, code, "");
    assert_eq!(paths(&r.snapshot), ["b.py"]);
    assert_eq!(text(&r, "b.py"), "1\ntwo\n3\n");
    assert_eq!(r.code.files["b.py"], change(FileStatus::Renamed, Some("a.py"), &[1]));
}

#[test]
fn copy_keeps_the_source() {
    let b = base(&[("a.py", "1\n")]);
    let code = "\
diff --git a/a.py b/c.py
similarity index 100%
copy from a.py
copy to c.py
";
    let r = apply(&b, code, "");
    assert_eq!(paths(&r.snapshot), ["a.py", "c.py"]);
    assert_eq!(r.code.files["c.py"], change(FileStatus::Copied, Some("a.py"), &[]));
}

#[test]
fn renames_in_one_patch_read_the_pre_image() {
    let b = base(&[("a", "A\n"), ("b", "B\n")]);
    let code = "\
diff --git a/a b/b
similarity index 100%
rename from a
rename to b
diff --git a/b b/a
similarity index 100%
rename from b
rename to a
";
    let r = apply(&b, code, "");
    assert_eq!(text(&r, "a"), "B\n");
    assert_eq!(text(&r, "b"), "A\n");
}

#[test]
fn mode_only_change() {
    let b = base(&[("run.sh", "echo\n")]);
    let code = "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n";
    let patch = Patch::parse(code.as_bytes()).unwrap();
    assert_eq!(patch.files[0].old_mode, Some(Mode::File));
    assert_eq!(patch.files[0].new_mode, Some(Mode::Executable));
    let r = apply(&b, code, "");
    let entry = r.snapshot.get("run.sh").unwrap();
    assert_eq!((entry.mode, entry.id), (Mode::Executable, b.get("run.sh").unwrap().id));
    assert_eq!(r.code.files["run.sh"], change(FileStatus::Modified, None, &[]));
}

#[test]
fn type_change_is_a_deletion_plus_a_creation() {
    let b = base(&[("link", "target\n")]);
    let code = "\
diff --git a/link b/link
deleted file mode 100644
--- a/link
+++ /dev/null
@@ -1 +0,0 @@
-target
diff --git a/link b/link
new file mode 120000
--- /dev/null
+++ b/link
@@ -0,0 +1 @@
+target
\\ No newline at end of file
";
    let r = apply(&b, code, "");
    let entry = r.snapshot.get("link").unwrap();
    assert_eq!(entry.mode, Mode::Symlink);
    assert_eq!(text(&r, "link"), "target");
    assert_eq!(r.code.files["link"], change(FileStatus::Added, None, &[0]));
}

#[test]
fn crlf_lines_stay_crlf() {
    let b = base(&[("win.txt", "a\r\nb\r\nc\r\n")]);
    let code = "--- a/win.txt\n+++ b/win.txt\n@@ -1,3 +1,3 @@\n a\r\n-b\r\n+B\r\n c\r\n";
    let r = apply(&b, code, "");
    assert_eq!(text(&r, "win.txt"), "a\r\nB\r\nc\r\n");

    // A patch whose `\r`s were lost (datasets that went through text-mode tools) still applies
    // to a CRLF file, keeps the file's CRLFs, and says so in a note.
    let lf = "--- a/win.txt\n+++ b/win.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n";
    let r = apply(&b, lf, "");
    assert_eq!(text(&r, "win.txt"), "a\r\nB\r\nc\r\n");
    assert_eq!(r.code.files["win.txt"].added_lines, [1]);
    assert!(r.notes.iter().any(|n| n.contains("win.txt uses CRLF line endings")), "{:?}", r.notes);

    // Other mismatches are still exact failures, reported with the exact bytes.
    let wrong = "--- a/win.txt\n+++ b/win.txt\n@@ -1,3 +1,3 @@\n x\n-b\n+B\n c\n";
    let error = apply_err(&b, wrong, "");
    assert!(error.to_string().contains(r#"expects "x\n", the base snapshot has "a\r\n""#), "{error}");
}

#[test]
fn no_newline_at_end_of_file_on_the_old_side() {
    let b = base(&[("a.txt", "1\n2")]);
    let code = "\
--- a/a.txt
+++ b/a.txt
@@ -1,2 +1,3 @@
 1
-2
\\ No newline at end of file
+2
+3
";
    let r = apply(&b, code, "");
    assert_eq!(text(&r, "a.txt"), "1\n2\n3\n");
    assert_eq!(r.code.files["a.txt"].added_lines, [1, 2]);
}

#[test]
fn no_newline_at_end_of_file_on_the_new_side() {
    let b = base(&[("a.txt", "1\n2\n")]);
    let code = "\
--- a/a.txt
+++ b/a.txt
@@ -1,2 +1,2 @@
 1
-2
+2
\\ No newline at end of file
";
    let r = apply(&b, code, "");
    assert_eq!(text(&r, "a.txt"), "1\n2");
}

#[test]
fn no_newline_at_end_of_file_on_both_sides() {
    let b = base(&[("a.txt", "1\n2")]);
    let code = "\
--- a/a.txt
+++ b/a.txt
@@ -1,2 +1,2 @@
-1
+one
 2
\\ No newline at end of file
";
    let r = apply(&b, code, "");
    assert_eq!(text(&r, "a.txt"), "one\n2");
}

/// `git diff --binary` of a `.py` file holding a NUL byte (a delta), a binary image (a delta)
/// and a new binary file (a literal), as git wrote them.
const GIT_BINARY_PATCH: &str = "\
diff --git a/logo.png b/logo.png
index c8b49c8cd518e58491924bfc364ff26e01a85009..363f05296d4e933f77016839a2bcb93effd68a1a 100644
GIT binary patch
delta 21
VcmZqRXyBNT!W97r8}lYH0{}~i2QvTw

delta 10
RcmZqRXy91H$h?S=5daTR0$Tt8

diff --git a/mod.py b/mod.py
index 0332fed7ef861982240e4163ebd1c081a63c68b1..fd6f9080f143b3a79097f5feee7e54b1d8f2c65d 100644
GIT binary patch
delta 39
scmb2Kn;@ga#g&qprjVCf9-on#Q;=GuQK4zYr2qs)sU@XFc?uO=0O1V_ga7~l

delta 4
LcmcDMnIHoI0*nC%

diff --git a/new.bin b/new.bin
new file mode 100644
index 0000000000000000000000000000000000000000..2f80ba2d0304f08ad583c74f6a3f5271562ec999
GIT binary patch
literal 8
PcmZQzWXed*$;k%*20{WD

literal 0
HcmV?d00001

";

fn binary_base() -> Snapshot {
    let logo: Vec<u8> = (0..4).flat_map(|_| 0..=255u8).collect();
    Snapshot::from_files([
        ("logo.png".to_owned(), logo),
        ("mod.py".to_owned(), b"def old():\n    return \"a\0b\"\n".to_vec()),
    ])
}

#[test]
fn git_binary_patches_are_applied() {
    let b = binary_base();
    let r = apply(&b, GIT_BINARY_PATCH, "");
    assert!(r.notes.is_empty(), "{:?}", r.notes);
    assert_eq!(paths(&r.snapshot), ["logo.png", "mod.py", "new.bin"]);
    let read = |path| r.snapshot.read(path, &NoBlobs).unwrap();
    assert_eq!(&*read("mod.py"), b"def old():\n    return \"a\0b\"\n\n\ndef new_helper(x):\n    return x\n");
    assert_eq!(&*read("new.bin"), b"\0\x01\x02hello");
    assert_eq!(&read("logo.png")[100..110], b"XXXXXXXXXX");
    assert_eq!(r.snapshot.get("logo.png").unwrap().id.to_string(), "363f05296d4e933f77016839a2bcb93effd68a1a");
    // A source file's lines are the change, as its text diff's would be; a binary file has none.
    assert_eq!(r.code.files["mod.py"], change(FileStatus::Modified, None, &[2, 3, 4, 5]));
    assert!(r.code.files["logo.png"].binary && r.code.files["logo.png"].added_lines.is_empty());
    assert!(r.code.files["new.bin"].binary && r.code.files["new.bin"].status == FileStatus::Added);
}

#[test]
fn a_binary_patch_that_cannot_apply_is_an_error() {
    // Made against other content: the index line's old id says so before the delta is tried.
    let other = Snapshot::from_files([
        ("logo.png".to_owned(), b"not the logo".to_vec()),
        ("mod.py".to_owned(), b"def old():\n    return \"a\0b\"\n".to_vec()),
    ]);
    let error = apply_err(&other, GIT_BINARY_PATCH, "");
    assert!(matches!(error.kind(), PatchErrorKind::BinaryDoesNotApply(_)), "{error}");
    assert_eq!(error.path(), Some("logo.png"));
    assert!(error.to_string().contains("it was made against blob c8b49c8cd518e58491924bfc364ff26e01a85009"), "{error}");
    // Without the index line, the delta itself refuses a base of another size.
    let unchecked = GIT_BINARY_PATCH.replace(
        "index c8b49c8cd518e58491924bfc364ff26e01a85009..363f05296d4e933f77016839a2bcb93effd68a1a 100644\n",
        "",
    );
    let error = apply_err(&other, &unchecked, "");
    assert!(error.to_string().contains("the delta is against 1024 bytes, the old content has 12"), "{error}");
    // Corrupt data is a parse error naming the line.
    let corrupt = GIT_BINARY_PATCH.replace("PcmZQzWXed*$;k%*20{WD", "PcmZQzWXed*$;k%*20{WE");
    let error = apply_err(&binary_base(), &corrupt, "");
    assert!(matches!(error.kind(), PatchErrorKind::Malformed(_)), "{error}");
    assert!(error.to_string().contains("line 23") && error.to_string().contains("`literal 8`"), "{error}");
}

#[test]
fn binary_diffs_without_content() {
    let b = base(&[("img/logo.png", "PNG1"), ("a.txt", "x\n"), ("lib/mod.py", "x = 1\n"), ("gone.bin", "\0")]);
    let code = "\
diff --git a/img/logo.png b/img/logo.png
index 1111111..2222222 100644
Binary files a/img/logo.png and b/img/logo.png differ
diff --git a/img/new.png b/img/new.png
new file mode 100644
index 0000000..3333333
Binary files /dev/null and b/img/new.png differ
diff --git a/gone.bin b/gone.bin
deleted file mode 100644
index 4444444..0000000
Binary files a/gone.bin and /dev/null differ
diff --git a/a.txt b/a.txt
--- a/a.txt
+++ b/a.txt
@@ -1 +1 @@
-x
+y
";
    // A file nothing reads keeps its content, with a note; a deletion needs no content.
    let r = apply(&b, code, "");
    assert_eq!(paths(&r.snapshot), ["a.txt", "img/logo.png", "lib/mod.py"]);
    assert_eq!(text(&r, "img/logo.png"), "PNG1");
    assert_eq!(text(&r, "a.txt"), "y\n");
    assert_eq!(
        r.notes,
        [
            "code patch: binary patch for img/logo.png skipped: the reference snapshot keeps its previous content",
            "code patch: binary patch for img/new.png skipped: the file is not in the reference snapshot",
        ]
    );
    assert!(r.code.files["img/new.png"].binary && r.code.files["img/logo.png"].binary);
    assert_eq!(r.code.files["gone.bin"].status, FileStatus::Deleted);
    // A source file's new content is needed: without it the answer would read the old one.
    let source = "\
diff --git a/lib/mod.py b/lib/mod.py
index 1111111..2222222 100644
Binary files a/lib/mod.py and b/lib/mod.py differ
";
    let error = apply_err(&b, "", source);
    assert!(matches!(error.kind(), PatchErrorKind::BinaryWithoutContent), "{error}");
    assert_eq!(error.role(), Some(PatchRole::Test));
    assert!(error.to_string().contains("lib/mod.py, a source file, so its new content is unknown"), "{error}");
}

#[test]
fn submodule_changes_are_skipped_with_a_note() {
    let code = "\
diff --git a/vendor/lib b/vendor/lib
index 1111111..2222222 160000
--- a/vendor/lib
+++ b/vendor/lib
@@ -1 +1 @@
-Subproject commit 1111111111111111111111111111111111111111
+Subproject commit 2222222222222222222222222222222222222222
";
    let r = apply(&Snapshot::default(), code, "");
    assert!(r.snapshot.is_empty() && r.code.files.is_empty());
    assert_eq!(r.notes, ["code patch: submodule change for vendor/lib skipped (snapshots do not contain submodules)"]);
}

#[test]
fn quoted_paths_and_paths_with_spaces() {
    let b = base(&[("café.txt", "y\n"), ("my file.txt", "x\n"), ("spaced name", "z\n")]);
    // As printed by `git diff` (core.quotePath and the tab after names with spaces).
    let code = "\
diff --git \"a/caf\\303\\251.txt\" \"b/caf\\303\\251.txt\"
index 975fbec..1a78173 100644
--- \"a/caf\\303\\251.txt\"
+++ \"b/caf\\303\\251.txt\"
@@ -1 +1 @@
-y
+y2
diff --git a/my file.txt b/my file.txt
index 587be6b..d735d34 100644
--- a/my file.txt\t
+++ b/my file.txt\t
@@ -1 +1 @@
-x
+x2
diff --git \"a/tab\\there\" \"b/tab\\there\"
new file mode 100644
index 0000000..e69de29
diff --git a/spaced name b/spaced name
old mode 100644
new mode 100755
";
    let r = apply(&b, code, "");
    assert_eq!(text(&r, "café.txt"), "y2\n");
    assert_eq!(text(&r, "my file.txt"), "x2\n");
    assert_eq!(text(&r, "tab\there"), "");
    assert_eq!(r.snapshot.get("spaced name").unwrap().mode, Mode::Executable);
}

#[test]
fn text_around_the_diff_is_ignored() {
    let b = base(&[("a.txt", "x\n")]);
    let code = "\
From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001
From: Someone <someone@example.com>
Subject: [PATCH] Fix things

--- is not a header here
---
 a.txt | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/a.txt b/a.txt
index 1111111..2222222 100644
--- a/a.txt
+++ b/a.txt
@@ -1 +1 @@
-x
+y
-- 
2.39.0

";
    let r = apply(&b, code, "");
    assert_eq!(text(&r, "a.txt"), "y\n");
}

#[test]
fn empty_context_lines_without_the_space_are_accepted() {
    let b = base(&[("a.py", "a\n\nb\n")]);
    let r = apply(&b, "--- a/a.py\n+++ b/a.py\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n", "");
    assert_eq!(text(&r, "a.py"), "a\n\nc\n");
}

#[test]
fn code_lines_are_mapped_through_the_test_patch() {
    let b = base(&[("m.py", "a\nb\nc\nd\n")]);
    let code = "\
--- a/m.py
+++ b/m.py
@@ -2,2 +2,4 @@
 b
+code1
+code2
 c
";
    // Applies to b, code1, code2, c: adds two lines at the top and deletes code1.
    let test = "\
--- a/m.py
+++ b/m.py
@@ -1,3 +1,4 @@
+t1
+t2
 a
 b
-code1
";
    let r = apply(&b, code, test);
    assert_eq!(text(&r, "m.py"), "t1\nt2\na\nb\ncode2\nc\nd\n");
    assert_eq!(r.code.files["m.py"], change(FileStatus::Modified, None, &[4]));
    assert_eq!(r.test.files["m.py"], change(FileStatus::Modified, None, &[0, 1]));
}

#[test]
fn code_changes_follow_a_rename_in_the_test_patch() {
    let b = base(&[("a.py", "1\n")]);
    let code = "--- a/a.py\n+++ b/a.py\n@@ -1 +1,2 @@\n 1\n+2\n";
    let test = "\
diff --git a/a.py b/tests/a.py
similarity index 100%
rename from a.py
rename to tests/a.py
";
    let r = apply(&b, code, test);
    assert_eq!(r.code.files["tests/a.py"], change(FileStatus::Modified, Some("a.py"), &[1]));
    assert!(!r.code.files.contains_key("a.py"));
}

#[test]
fn code_changes_of_a_file_the_test_patch_deletes_are_noted() {
    let b = base(&[("a.py", "1\n")]);
    let code = "--- a/a.py\n+++ b/a.py\n@@ -1 +1,2 @@\n 1\n+2\n";
    let test = "--- a/a.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-1\n-2\n";
    let r = apply(&b, code, test);
    assert!(r.snapshot.is_empty());
    assert_eq!(r.code.files["a.py"].added_lines, Vec::<u32>::new());
    assert_eq!(r.notes.len(), 1, "{:?}", r.notes);
}

#[test]
fn context_mismatch_names_file_hunk_and_line() {
    let b = base(&[("pkg/a.py", "1\n2\n3\n4\n")]);
    let code = "\
diff --git a/pkg/a.py b/pkg/a.py
--- a/pkg/a.py
+++ b/pkg/a.py
@@ -1 +1 @@
-1
+one
@@ -3,2 +3,2 @@ def f():
 3
-four
+FOUR
";
    let error = apply_err(&b, code, "");
    assert_eq!(error.role(), Some(PatchRole::Code));
    assert_eq!(error.path(), Some("pkg/a.py"));
    let hunk = error.hunk().unwrap();
    assert_eq!((hunk.number, hunk.header.as_str()), (2, "@@ -3,2 +3,2 @@"));
    assert_eq!(
        error.to_string(),
        "code patch: hunk #2 `@@ -3,2 +3,2 @@` does not apply: context does not match at line 4 of pkg/a.py: \
         the patch expects \"four\\n\", the base snapshot has \"4\\n\"; \
         the patch was made against different contents of pkg/a.py (is the snapshot at the patch's base commit?)"
    );
}

#[test]
fn hunks_apply_only_at_their_stated_position() {
    // The same context one line further down would let an offset-searching applier succeed.
    let b = base(&[("a.txt", "0\nx\ny\n")]);
    let error = apply_err(&b, "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n", "");
    assert!(matches!(error.kind(), PatchErrorKind::ContextMismatch { line: 1, .. }), "{error}");
}

#[test]
fn hunk_beyond_the_end_of_the_file_fails() {
    let b = base(&[("a.txt", "x\n")]);
    let error = apply_err(&b, "--- a/a.txt\n+++ b/a.txt\n@@ -5,1 +5,1 @@\n-q\n+r\n", "");
    assert!(
        error.to_string().contains("at line 2 of a.txt: the patch expects \"q\\n\", the base snapshot has end of file"),
        "{error}"
    );
}

#[test]
fn missing_file_errors_name_the_snapshot() {
    let b = base(&[("a.py", "x\n")]);
    let patch = "--- a/pkg/gone.py\n+++ b/pkg/gone.py\n@@ -1 +1 @@\n-x\n+y\n";
    let error = apply_err(&b, patch, "");
    assert!(matches!(error.kind(), PatchErrorKind::MissingFile));
    assert!(
        error.to_string().starts_with("code patch: file pkg/gone.py does not exist in the base snapshot"),
        "{error}"
    );
    let error = apply_err(&b, "", patch);
    assert!(
        error.to_string().starts_with(
            "test patch: file pkg/gone.py does not exist in the base snapshot with the code patch applied"
        ),
        "{error}"
    );
}

#[test]
fn creating_an_existing_file_fails() {
    let b = base(&[("pkg/new.py", "x\n")]);
    let patch = "diff --git a/pkg/new.py b/pkg/new.py\nnew file mode 100644\n--- /dev/null\n+++ b/pkg/new.py\n@@ -0,0 +1 @@\n+y\n";
    let error = apply_err(&b, patch, "");
    assert!(matches!(error.kind(), PatchErrorKind::AlreadyExists));
    assert!(
        error.to_string().starts_with("code patch: file pkg/new.py already exists in the base snapshot"),
        "{error}"
    );
    // The code patch creates it, so the same diff in the test patch collides with it.
    let r = apply_err(&Snapshot::default(), patch, patch);
    assert_eq!(r.role(), Some(PatchRole::Test));
}

#[test]
fn editing_one_file_twice_in_a_patch_fails() {
    let b = base(&[("a", "x\n")]);
    let diff = "--- a/a\n+++ b/a\n@@ -1 +1 @@\n-x\n+y\n";
    let error = apply_err(&b, &format!("{diff}{diff}"), "");
    assert!(matches!(error.kind(), PatchErrorKind::ChangedTwice), "{error}");
}

#[test]
fn malformed_hunk_header() {
    let patch = "diff --git a/pkg/a.py b/pkg/a.py\n--- a/pkg/a.py\n+++ b/pkg/a.py\n@@ -1,x +1 @@\n-a\n+b\n";
    let error = apply_err(&Snapshot::default(), "", patch);
    assert_eq!(error.patch_line(), Some(4));
    assert_eq!(
        error.to_string(),
        "test patch, line 4: diff of pkg/a.py: malformed hunk header `@@ -1,x +1 @@`: \
         expected `@@ -<start>[,<count>] +<start>[,<count>] @@`"
    );
}

#[test]
fn truncated_hunk() {
    let patch = "--- a/a.py\n+++ b/a.py\n@@ -1,3 +1,3 @@\n a\n-b\n";
    let error = Patch::parse(patch.as_bytes()).unwrap_err();
    assert_eq!(error.hunk().map(|h| h.number), Some(1));
    assert!(error.to_string().contains("the patch ends inside the hunk"), "{error}");
}

#[test]
fn foreign_line_inside_a_hunk() {
    let patch = "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n a\n?b\n";
    let error = Patch::parse(patch.as_bytes()).unwrap_err();
    assert_eq!(error.patch_line(), Some(5));
    assert!(error.to_string().contains("unexpected line `?b` inside the hunk"), "{error}");
}

#[test]
fn overlapping_hunks() {
    let patch = "--- a/a\n+++ b/a\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n@@ -2 +2 @@\n-b\n+c\n";
    let error = Patch::parse(patch.as_bytes()).unwrap_err();
    assert!(error.to_string().contains("hunk #2 `@@ -2 +2 @@` starts before the end of hunk #1"), "{error}");
}

#[test]
fn hunk_header_hidden_behind_junk() {
    let patch = "--- a/a\n+++ b/a\n@@ -1 +1 @@\n-x\n+y\n+z\n@@ -5 +6 @@\n-p\n+q\n";
    let error = Patch::parse(patch.as_bytes()).unwrap_err();
    assert_eq!(error.patch_line(), Some(7));
    assert!(error.to_string().contains("hunk header `@@ -5 +6 @@` outside of a file's diff"), "{error}");
}

#[test]
fn paths_leaving_the_repository_are_refused() {
    let base = base(&[("a.py", "x = 1\n")]);
    let cases = [
        (
            "diff --git a/../../../tmp/x.py b/../../../tmp/x.py\nnew file mode 100644\n--- /dev/null\n+++ b/../../../tmp/x.py\n@@ -0,0 +1 @@\n+x\n",
            "../../../tmp/x.py",
        ),
        ("--- /dev/null\n+++ /etc/x\n@@ -0,0 +1 @@\n+x\n", "/etc/x"),
        ("diff --git a/a.py b/a.py\nsimilarity index 100%\nrename from a.py\nrename to ../a.py\n", "../a.py"),
        ("--- a/pkg/../../a.py\n+++ b/pkg/../../a.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n", "pkg/../../a.py"),
        ("--- /dev/null\n+++ b/C:\\Windows\\x\n@@ -0,0 +1 @@\n+x\n", "C:\\Windows\\x"),
    ];
    for (patch, path) in cases {
        for (code, test) in [(patch, ""), ("", patch)] {
            let error = apply_err(&base, code, test);
            assert!(
                matches!(error.kind(), crate::PatchErrorKind::UnsafePath { path: p } if p == path),
                "{path}: {error}"
            );
            assert_eq!(error.role(), Some(if code.is_empty() { PatchRole::Test } else { PatchRole::Code }));
            assert!(error.to_string().contains(&format!("unsafe path `{path}`")), "{error}");
        }
    }
}

#[test]
fn paths_inside_the_repository_are_normalised() {
    use crate::patch::inside_repository;
    assert_eq!(inside_repository("a/./b/../c.py").as_deref(), Some("a/c.py"));
    assert_eq!(inside_repository("a//b.py").as_deref(), Some("a/b.py"));
    assert_eq!(inside_repository("a:b.py").as_deref(), Some("a:b.py"), "a colon is a plain character on Linux");
    assert_eq!(inside_repository("dir\\file.py").as_deref(), Some("dir\\file.py"));
    for unsafe_path in ["/etc/x", "..", "../x", "a/../../x", "\\\\server\\share", "C:/x", "", ".", "a\0b"] {
        assert_eq!(inside_repository(unsafe_path), None, "{unsafe_path:?}");
    }
    let base = base(&[("pkg/a.py", "x = 1\n")]);
    let reference = apply(&base, "--- a/pkg/./a.py\n+++ b/pkg/./a.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n", "");
    assert_eq!(text(&reference, "pkg/a.py"), "x = 2\n");
}

/// Applies the patches for a reader of `.py` files only.
fn apply_reading_python(base: &Snapshot, code: &str, test: &str) -> Result<Reference, crate::PatchError> {
    crate::build_reference_reading(base, &NoBlobs, code.as_bytes(), test.as_bytes(), &|path| path.ends_with(".py"))
}

const BASELINE_PATCH: &str = "\
diff --git a/tests/out.txt b/tests/out.txt
index 1111111..2222222 100644
--- a/tests/out.txt
+++ b/tests/out.txt
@@ -1,3 +1,4 @@
 a
-b
+B
+C
 c
@@ -9,2 +10,2 @@
 i
-j
+J
diff --git a/tests/new.txt b/tests/new.txt
new file mode 100644
index 0000000..3333333
--- /dev/null
+++ b/tests/new.txt
@@ -0,0 +1,2 @@
+x
+y
diff --git a/tests/old.txt b/tests/old.txt
deleted file mode 100644
index 4444444..0000000
--- a/tests/old.txt
+++ /dev/null
@@ -1 +0,0 @@
-gone
";

#[test]
fn files_the_reader_never_reads_are_not_applied_but_keep_their_lines() {
    let b = base(&[("a.py", "x\n"), ("tests/out.txt", "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"), ("tests/old.txt", "gone\n")]);
    let applied = apply(&b, "", BASELINE_PATCH);
    let unapplied = apply_reading_python(&b, "", BASELINE_PATCH).unwrap();
    // The same files, changes and lines as applied; only the content is not there.
    assert_eq!(paths(&unapplied.snapshot), paths(&applied.snapshot));
    assert_eq!(paths(&unapplied.snapshot), ["a.py", "tests/new.txt", "tests/out.txt"]);
    assert_eq!(unapplied.test, applied.test);
    assert_eq!(unapplied.test.files["tests/out.txt"].added_lines, [1, 2, 10]);
    assert_eq!(unapplied.test.files["tests/new.txt"].added_lines, [0, 1]);
    for path in ["tests/out.txt", "tests/new.txt"] {
        let entry = unapplied.snapshot.get(path).unwrap();
        assert!(entry.is_unapplied(), "{path}");
        assert!(matches!(entry.read(&NoBlobs), Err(crate::Error::Unapplied)), "{path}");
    }
    // What the reader reads is as it was.
    assert_eq!(text(&unapplied, "a.py"), "x\n");
}

#[test]
fn a_file_the_reader_never_reads_is_not_checked_against_the_base() {
    // The base's baseline is not the patch's: applying fails, not applying does not.
    let b = base(&[("a.py", "x\n"), ("tests/out.txt", "other\n"), ("tests/old.txt", "gone\n")]);
    assert!(matches!(apply_err(&b, "", BASELINE_PATCH).kind(), PatchErrorKind::ContextMismatch { .. }));
    assert!(apply_reading_python(&b, "", BASELINE_PATCH).is_ok());
    // Paths are still checked: a file the patch adds must not exist.
    let b = base(&[("tests/out.txt", "a\n"), ("tests/old.txt", "gone\n"), ("tests/new.txt", "x\n")]);
    let error = apply_reading_python(&b, "", BASELINE_PATCH).unwrap_err();
    assert!(matches!(error.kind(), PatchErrorKind::AlreadyExists), "{error}");
}

#[test]
fn a_file_both_patches_change_is_applied_for_any_reader() {
    // The test patch moves the code patch's lines: both need the content.
    let b = base(&[("notes.txt", "1\n2\n")]);
    let code = "\
diff --git a/notes.txt b/notes.txt
--- a/notes.txt
+++ b/notes.txt
@@ -1,2 +1,3 @@
 1
+code
 2
";
    let test = "\
diff --git a/notes.txt b/notes.txt
--- a/notes.txt
+++ b/notes.txt
@@ -1,3 +1,4 @@
+test
 1
 code
 2
";
    let r = apply_reading_python(&b, code, test).unwrap();
    assert_eq!(text(&r, "notes.txt"), "test\n1\ncode\n2\n");
    assert_eq!(r.code.files["notes.txt"].added_lines, [2]);
}
