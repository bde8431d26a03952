//! Extraction from small Java fixtures, checked through `FileIndex::dump`.

use hintlens_java::{Java, parse_only};
use hintlens_syntax::{DefKind, FileIndex, Frontend, UseKind};

/// Extracts, checks the invariants every index must hold, and dumps.
fn dump(src: &str) -> String {
    let index = extract(src.as_bytes());
    index.dump()
}

fn extract(src: &[u8]) -> FileIndex {
    let index = Java.extract(src);
    check_invariants(&index);
    index
}

fn check_invariants(index: &FileIndex) {
    for (id, def) in index.definitions.iter().enumerate() {
        if let Some(parent) = def.parent {
            assert!((parent as usize) < id, "parent after child: {}", def.local_name);
            let parent = index.definition(parent);
            assert_eq!(def.local_name, format!("{}.{}", parent.local_name, def.name));
        } else {
            assert_eq!(def.local_name, def.name);
        }
        assert!(def.span.start_byte <= def.name_span.start_byte);
        assert!(def.name_span.end_byte <= def.span.end_byte);
        assert!(!def.name.is_empty());
    }
    for pair in index.definitions.windows(2) {
        assert!(pair[0].name_span.start_byte <= pair[1].name_span.start_byte);
    }
    for pair in index.uses.windows(2) {
        assert!(pair[0].span.start_byte <= pair[1].span.start_byte, "uses out of order: {:?} {:?}", pair[0], pair[1]);
    }
    for u in &index.uses {
        assert!(!u.name.is_empty());
    }
}

#[test]
fn class_members_and_package() {
    insta::assert_snapshot!(dump(
        r#"package com.google.gson.stream;

import java.io.Closeable;

/**
 * Writes a JSON value, one token at a time.
 *
 * <p>Not thread-safe.
 */
@Deprecated
public final class JsonWriter<T extends Comparable<T>> extends Base implements Closeable, java.io.Flushable {
  private static final String[] REPLACEMENT_CHARS;
  static final int A = 1, B = 2;
  private int depth, stack[];
  protected final Writer out;

  /** Creates a writer. */
  public JsonWriter(Writer out) {
    this.out = out;
  }

  /**
   * Sets the indent.
   * @param indent the indent
   */
  public final void setIndent(final String indent) throws IOException, IllegalStateException {
  }

  public static <E> List<E> quote(String s, int n, E... values) {
    return null;
  }

  abstract int[] sizes();
}
"#
    ));
}

#[test]
fn interface_constants_and_default_methods() {
    insta::assert_snapshot!(dump(
        r#"public interface Listener<E> extends EventListener, Comparable<Listener<E>> {
  int MAX = 10;
  String NAME = "listener", OTHER = "x";
  void onEvent(E event);
  default boolean enabled() { return true; }
  static Listener<String> noop() { return e -> {}; }
}
"#
    ));
}

#[test]
fn enum_constants_with_arguments_and_bodies() {
    insta::assert_snapshot!(dump(
        r#"enum Color implements Supplier<String> {
  /** Red. */
  RED("r") {
    @Override public String get() { return "red"; }
  },
  @Deprecated GREEN("g", 2),
  BLUE;

  private final String code;

  Color(String code) { this.code = code; }
  Color(String code, int n) { this(code); }
  Color() { this("b"); }
}
"#
    ));
}

#[test]
fn record_components_and_compact_constructor() {
    insta::assert_snapshot!(dump(
        r#"public record Point<T>(int x, @Nullable T y, String... tags) implements Shape {
  static final Point<Object> ORIGIN = new Point<>(0, null);
  public Point {
    if (x < 0) throw new IllegalArgumentException();
  }
  public Point(int x) { this(x, null); }
  double norm() { return Math.sqrt(x * x); }
}
"#
    ));
}

#[test]
fn annotation_type_elements() {
    insta::assert_snapshot!(dump(
        r#"/** Marks a version. */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.TYPE})
public @interface Since {
  double value();
  String[] names() default {"a", "b"};
  int level() default 3;
  int DEFAULT_LEVEL = 1;
}
"#
    ));
}

#[test]
fn nested_and_local_classes() {
    insta::assert_snapshot!(dump(
        r#"class Outer {
  static class Inner {
    int field;
    interface Deep { void run(); }
  }
  enum Mode { ON, OFF }
  record Pair(int a, int b) {}
  void method() {
    class Local {
      void help() {}
    }
    record LocalRecord(String s) {}
    new Local().help();
  }
}
"#
    ));
}

#[test]
fn anonymous_class_methods_belong_to_the_enclosing_definition() {
    insta::assert_snapshot!(dump(
        r#"class FooTest {
  static final Comparator<String> BY_LENGTH = new Comparator<String>() {
    @Override public int compare(String a, String b) { return a.length() - b.length(); }
  };

  void testX() {
    bus.register(new Listener<Event>() {
      int calls;
      @Override public void onEvent(Event e) { calls++; record(e); }
    });
  }
}
"#
    ));
}

#[test]
fn calls_with_and_without_receivers() {
    insta::assert_snapshot!(dump(
        r#"class C extends B {
  void f(Helper helper) {
    run();
    helper.run(1);
    this.helper.run();
    super.run();
    Foo.bar();
    com.acme.Util.check(x);
    System.out.println(y);
    make().then().done();
    items[0].size();
    "abc".length();
    Collections.<String>emptyList();
    this.<T>generic();
  }
}
"#
    ));
}

#[test]
fn field_access_reads_and_writes() {
    insta::assert_snapshot!(dump(
        r#"class C {
  int x;
  void f(C other) {
    x = 3;
    x += 1;
    y++;
    this.x = 4;
    other.x = this.x + other.next.x;
    int z = Foo.MAX;
    arr[i] = value;
  }
}
"#
    ));
}

#[test]
fn method_references() {
    insta::assert_snapshot!(dump(
        r#"class C {
  void f() {
    list.forEach(System.out::println);
    map(Foo::bar);
    map(String::valueOf);
    map(this::helper);
    map(super::helper);
    map(ArrayList::new);
    map(java.util.ArrayList::new);
    map(int[]::new);
    map(List<String>::size);
  }
}
"#
    ));
}

#[test]
fn object_creation() {
    insta::assert_snapshot!(dump(
        r#"class C {
  void f() {
    Object a = new Foo<>(x);
    Object b = new a.b.Foo();
    Object c = new Map.Entry<String, Integer>();
    Object d = outer.new Inner();
    Object e = new int[3];
    Object g = new Foo[] {};
    Runnable r = new Runnable() {
      public void run() {}
    };
  }
}
"#
    ));
}

#[test]
fn types_in_every_position() {
    insta::assert_snapshot!(dump(
        r#"class C<T> {
  Map<String, List<T>> map;
  Map.Entry<K, V> entry;
  java.util.List<?> any;
  List<? extends Number> nums;
  <R extends Comparable<? super R>> R max(Collection<R> items) throws IOException {
    var v = items;
    String s = (String) obj;
    if (obj instanceof Foo foo) { }
    Class<?> k = Bar.class;
    int[] ints = new int[0];
    Baz[] bazs;
    try (Reader r = open()) {
    } catch (IOException | RuntimeException e) {
    }
    for (Item item : items) { }
    return null;
  }
}
"#
    ));
}

#[test]
fn annotations_and_element_values() {
    insta::assert_snapshot!(dump(
        r#"@Entity
@Table(name = "users", schema = Schemas.MAIN)
class User {
  @JsonProperty("id") @a.b.Since(1.0) private long id;
  @Override public String toString() { return ""; }
  @a.b.Config(key = "k", nested = @Inner(value = 2)) void configured(@Nullable String s) {}
}
"#
    ));
}

#[test]
fn import_forms() {
    insta::assert_snapshot!(dump(
        r#"package com.acme.app;

import com.x.Foo;
import static com.x.Foo.bar;
import com.x.*;
import static org.junit.Assert.*;
import Single;

class C {}
"#
    ));
}

#[test]
fn javadoc_placement() {
    insta::assert_snapshot!(dump(
        r#"/** License header, documents nothing. */
package p;

/** First type. */
class First {
  /** Field doc. */
  @Inject
  int a;

  /* An ordinary comment. */
  int b;

  /** Kept across a line comment. */
  // TODO
  void kept() {}

  /** Stale: the method below is separated by a field. */
  int c;
  void undocumented() {}

  /**
   * Para one
   * continues.
   *
   * Para two.
   *
   * @param x the x
   * @return nothing
   */
  void documented(int x) {}
}

/** Second type: not the file's doc. */
class Second {}
"#
    ));
}

#[test]
fn file_doc_is_none_when_the_first_type_has_none() {
    let index = extract(b"class A {}\n/** B. */ class B {}\n");
    assert_eq!(index.doc, None);
    assert_eq!(index.definitions[1].doc.as_deref(), Some("B."));
}

#[test]
fn traps_comments_strings_locals_lambdas_catch_and_labels() {
    insta::assert_snapshot!(dump(
        r#"class Traps {
  // mentions hiddenInComment()
  /* and blockComment.call() */
  void f(int n) {
    String s = "notAUse.call()";
    int local = n, other;
    for (int i = 0; i < n; i++) { local += i; }
    for (String each : list) { use(each); }
    Runnable r = () -> go();
    Function<String, Integer> g = (String typed) -> typed.length();
    BiFunction<A, B, C> h = (p, q) -> p;
    try { risky(); } catch (Exception err) { log(err); }
    outer:
    while (true) { break outer; }
    switch (mode) { case ON -> on(); default -> {} }
  }
}
"#
    ));
}

#[test]
fn strings_and_text_blocks() {
    insta::assert_snapshot!(dump(
        "class S {\n  String a = \"plain\";\n  String b = \"esc\\\"aped\\n\";\n  String c = \"\";\n  String d = \"\"\"\n      Hello,\n        World!\n      \"\"\";\n  char ch = 'x';\n}\n"
    ));
}

#[test]
fn signatures_drop_annotations_and_comments() {
    insta::assert_snapshot!(dump(
        r#"class Sig {
  public /* why */ static
      List<@NonNull String> names(
          @Nullable String prefix,   // trailing
          int/*gap*/count) {
    return null;
  }
  @SuppressWarnings("unchecked") private transient volatile Object cache;
}
"#
    ));
}

#[test]
fn module_info() {
    insta::assert_snapshot!(dump(
        r#"module com.acme.app {
  requires java.sql;
  exports com.acme.api;
  uses com.acme.spi.Plugin;
  provides com.acme.spi.Plugin with com.acme.impl.DefaultPlugin;
}
"#
    ));
}

#[test]
fn syntax_errors_keep_what_is_readable() {
    insta::assert_snapshot!(dump(
        r#"class Broken {
  int a = 1
  void ok(String s) { s.trim(); }
  void bad() { int = ; foo(; }
  void after() { helper(); }
}
"#
    ));
}

#[test]
fn truncated_file() {
    insta::assert_snapshot!(dump(
        r#"package p;
/** Doc. */
public class Cut extends Base {
  public void method(String s) {
    s.call("unterminated
"#
    ));
}

#[test]
fn declarations_recovered_from_an_unterminated_string() {
    insta::assert_snapshot!(dump(
        r#"package p;
/** Doc. */
@Deprecated public class Cut<T> extends Base implements Api {
  int x;
  /** Ctor. */
  Cut(int x) { }
  abstract void bodiless(int y);
  public static <T> String method(String s, int... rest) throws IOException {
    s.call("unterminated);
  }
  void swallowed() {}
}
"#
    ));
}

#[test]
fn never_panics_on_garbage_or_prefixes() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut garbage = Vec::new();
    for _ in 0..20_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        garbage.push((state >> 24) as u8);
    }
    extract(&garbage);
    let mixed = [b"class A { String s = \"".as_slice(), &[0xff, 0xfe, 0xc3], b"\"; void \xe2\x82(int x) {} }"].concat();
    let index = extract(&mixed);
    assert!(index.strings[0].value.contains('\u{fffd}'));

    // Every prefix of a realistic file: cuts inside tokens, comments, strings and text blocks.
    let file = r#"package a.b;
import static x.Y.*;
/** Doc */
@A(k = "v") public class C<T> extends D<T> implements E {
  enum M { X(1) { void f() {} }, Y }
  record R(int a, String... b) { R { } }
  String t = """
      block
      """;
  <U> U g(U u, int... v) throws Ex { return new F<>() { public void h() { u.i(this::j); } }.k; }
}
"#;
    for end in 0..=file.len() {
        extract(&file.as_bytes()[..end]);
    }
}

#[test]
fn deep_nesting_does_not_overflow_the_stack() {
    let depth = 20_000;
    let expr = format!("{}1{}", "(".repeat(depth), ")".repeat(depth));
    let chain = format!("a{}", ".b".repeat(depth));
    let sum = vec!["x"; depth].join(" + ");
    let src =
        format!("class Deep {{ int a = {expr}; Object b = {chain}; int c = {sum}; void m() {{ {chain}.call(); }} }}");
    let index = extract(src.as_bytes());
    let call = index.uses.iter().find(|u| u.kind == UseKind::Call).unwrap();
    assert_eq!(call.name, "call");
    // Beyond the chain limit no qualifier is built.
    assert_eq!(call.qualifier, None);
    assert!(index.uses.iter().filter(|u| u.name == "x").count() == depth);
}

#[test]
fn definition_nesting_is_bounded() {
    let depth = 5_000;
    let src = format!("{}{}", "class A { ".repeat(depth), "}".repeat(depth));
    let index = extract(src.as_bytes());
    assert_eq!(index.definitions.len(), 128);
}

#[test]
fn qualifiers_are_normalised_dotted_names() {
    insta::assert_snapshot!(dump(
        r#"class Q {
  Outer<String>.Inner inner;
  void f() {
    this . helper
        /* why */ .run();
    Outer.this.run();
    a.b().c.d();
  }
}
"#
    ));
}

#[test]
fn patterns_bind_rather_than_use() {
    insta::assert_snapshot!(dump(
        r#"class P {
  String f(Object o) {
    if (o instanceof Point(int x, var y) && x > 0) { return "p"; }
    return switch (o) {
      case Circle c when c.r() > 1 -> "big";
      case Square(Side s) -> s.name();
      default -> "none";
    };
  }
}
"#
    ));
}

#[test]
fn package_info_annotations() {
    insta::assert_snapshot!(dump(
        r#"/** Package docs. */
@ParametersAreNonnullByDefault
package com.acme;

import javax.annotation.ParametersAreNonnullByDefault;
"#
    ));
}

#[test]
fn invalid_utf8_keeps_byte_positions() {
    let src = b"class A {\n  // \xff\xff\n  int \xc3\xa9t\xe9 = 1; int after;\n}\n";
    let index = extract(src);
    let after = index.definitions.iter().find(|d| d.name == "after").unwrap();
    let start = after.name_span.start_byte as usize;
    assert_eq!(&src[start..start + 5], b"after");
    assert_eq!(index.definitions[0].kind, DefKind::Class);
}

#[test]
fn module_name_joins_package_and_stem() {
    let with_package = extract(b"package com.google.gson;\nclass JsonWriter {}\n");
    assert_eq!(
        Java.module_name("gson/src/main/java/com/google/gson/JsonWriter.java", &with_package),
        "com.google.gson.JsonWriter"
    );
    let without = extract(b"class Main {}\n");
    assert_eq!(without.package, None);
    assert_eq!(Java.module_name("src/Main.java", &without), "Main");
    assert_eq!(Java.module_name("Main.java", &without), "Main");
    // The stem is known before the file is read: a module lookup passes over other files.
    assert_eq!(Java.module_name_last("gson/src/main/java/com/google/gson/JsonWriter.java"), Some("JsonWriter"));
    assert_eq!(Java.module_name_last("Main.java"), Some("Main"));
    let spaced = extract(b"package com . acme /* c */ . app;\n");
    assert_eq!(spaced.package.as_deref(), Some("com.acme.app"));
}

#[test]
fn frontend_identity() {
    assert_eq!(Java.language(), "java");
    assert!(Java.claims("src/main/java/A.java"));
    assert!(Java.claims("A.java"));
    assert!(!Java.claims("A.javax"));
    assert!(!Java.claims("a/b.py"));
}

#[test]
fn parse_only_parses() {
    let tree = parse_only(b"class A { void f() {} }").unwrap();
    assert_eq!(tree.root_node().kind(), "program");
    assert!(!tree.root_node().has_error());
}

#[test]
fn error_contexts() {
    let src = r#"
class T {
  void t() {
    if (x < 0) throw new IllegalArgumentException("negative: " + x); // "comment"
    String s = "plain";
    assertEquals("negative: -1", e.getMessage());
    assertEquals("other", value);
    assertEquals(fmt("inner"), e.getMessage());
    assertThat(e).hasMessage("boom");
    throw new Outer.Failure(String.format("%s failed", name));
    throw new Generic<>("not plain");
  }
}
"#;
    let index = extract(src.as_bytes());
    let flagged: Vec<&str> = index.strings.iter().filter(|s| s.error_context).map(|s| s.value.as_str()).collect();
    assert_eq!(flagged, ["negative: ", "negative: -1", "boom", "%s failed"]);
}

#[test]
fn privacy_is_the_private_modifier() {
    let index = Java.extract(b"public class A {\n  private int count;\n  public int size;\n  private static void helper() {}\n  void run() {}\n}\n");
    let private: Vec<(&str, bool)> = index
        .definitions
        .iter()
        .filter(|d| d.kind != DefKind::Parameter)
        .map(|d| (d.name.as_str(), Java.is_private(d)))
        .collect();
    assert_eq!(private, [("A", false), ("count", true), ("size", false), ("helper", true), ("run", false)]);
}
