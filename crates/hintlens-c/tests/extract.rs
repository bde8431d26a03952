//! What one C or C++ file defines and uses, as snapshots of the index's dump.

use hintlens_c::{C, Cpp};
use hintlens_tree::check_extraction as check;

check!(
    c_declarations_of_every_kind,
    C,
    r#"#include "jv.h"
#include <stdio.h>

/* The largest depth. */
#define MAX_DEPTH 256
#define JV_KIND(j) ((j).kind_flags & KIND_MASK)

typedef struct jv_parser {
  int flags;
  struct { int a; } inner;
} jv_parser;

enum jv_kind { JV_KIND_NULL, JV_KIND_TRUE = 2 };

extern int jv_debug;
int jv_debug = 0;
static int counter;

// Parses text.
jv jv_parse(const char *text, int flags);

static void helper(jv_parser *p) {
  int local = p->flags + MAX_DEPTH;
  p->inner.a = local;
}

jv jv_parse(const char *text, int flags) {
  jv_parser parser = { .flags = flags, .inner = { .a = 1 } };
  helper(&parser);
  if (JV_KIND(x) == JV_KIND_NULL) return jv_null();
  printf("parsed %s\n", text);
  return (jv)sizeof(struct jv_parser);
}

#ifdef WIN32
int platform(void) { return 1; }
#else
int platform(void) { return 2; }
#endif
"#
);

check!(
    cpp_namespaces_classes_and_members,
    Cpp,
    r#"#include "fmt/core.h"

namespace fmt {
inline namespace v10 {
namespace detail {
// Writes a value.
template <typename T> void write(buffer<T>& out, T value) { out.push_back(value); }
}  // namespace detail

class format_error : public std::runtime_error {
 public:
  explicit format_error(const char* message);
  ~format_error() override;
  int code() const;
  bool operator==(const format_error& other) const;
  static int count;
 private:
  int code_ = 0;
};

enum class presentation_type : unsigned char { none, dec };
using string_view = basic_string_view<char>;
}  // namespace v10
}  // namespace fmt

namespace fmt::v10 {
format_error::format_error(const char* message) : std::runtime_error(message), code_(1) {}
int format_error::code() const { return code_ + detail::count_digits(presentation_type::dec); }
}

namespace {
int hidden(int x) { return x; }
}

static int file_helper() { return fmt::v10::format_error("x").code(); }
"#
);

check!(
    gtest_tests_however_the_grammar_reads_their_header,
    Cpp,
    r#"class FormatTest : public ::testing::Test {};

/// Escapes braces.
TEST_F(FormatTest,
       Escape) {
  EXPECT_EQ("{", fmt::format("{{"));
}

TYPED_TEST(TypedSuite, Widths) { TypeParam c{}; }

TEST(Suite, Tight){ run(); }

TEST(format_test, enum) { EXPECT_EQ(fmt::format("{}", foo), "0"); }
"#
);

check!(
    cpp_tests_are_collected,
    Cpp,
    r#"#include "gtest/gtest.h"

class FormatTest : public ::testing::Test {
 protected:
  void SetUp() override {}
};

TEST(FormatTest, Escape) {
  EXPECT_EQ("{", fmt::format("{{"));
}

TEST_F(FormatTest, Fixture) { SetUp(); }

TEST_CASE("vectors can be sized", "[vector]") {
  std::vector<int> v(5);
  SECTION("resizing") { v.resize(10); REQUIRE(v.size() == 10); }
}

TEMPLATE_TEST_CASE("widths",
                   "[char]",
                   char,
                   wchar_t,
                   Fixture::Char) {
  TestType c{};
}
"#
);

check!(
    unity_tests_and_broken_macros,
    C,
    r#"#include "unity.h"

void test_parse_number(void) {
  TEST_ASSERT_EQUAL(1, jv_number_value(jv_parse("1")));
}

MACRO_THAT_BREAKS(the grammar {{ here
int still_read(void) { return 1; }
"#
);

check!(
    anonymous_structs_and_specializations,
    Cpp,
    r#"typedef struct {
  int kind;
  union {
    double number;
    jv_nontrivial nontrivial;
  } val;
} jv;

template <typename T> struct capture_by_value : std::false_type {};
template <> struct capture_by_value<std::strong_ordering> : std::true_type {
  static constexpr bool value = true;
};

void f(jv a) { a.val.nontrivial.ptr = 0; }
"#
);

check!(
    a_typedef_of_a_struct_of_its_name_declares_the_struct,
    C,
    r#"typedef struct jq_state jq_state;
typedef struct other alias;
"#
);

check!(
    template_parameters_are_local,
    Cpp,
    r#"template <typename T> struct is_container_adaptor {
  template <typename U> static auto check(U* p) -> typename U::container_type;
  using base = typename T::value_type;
};
"#
);

check!(
    macros_alone_on_their_lines,
    Cpp,
    r#"#define NLOHMANN_DEFINE(Type, ...) \
  friend void to_json(const Type& t) { \
    TO_JSON(__VA_ARGS__)
FMT_BEGIN_NAMESPACE

FMT_EXPORT
template <typename T>
struct is_container_adaptor : std::false_type {};

enum class cbor_tag_handler_t {
  error,
  ignore,
  STORE
};

/* A comment holding
FMT_EXPORT
static nothing. */
class person {
  int age;
  NLOHMANN_DEFINE(person, age)
};

class widget {
  REGISTER_WIDGET(widget, "w");
  widget(int);
};

FMT_NORETURN FMT_API void assert_fail(const char* file);
FMT_EXPORT template <typename T> struct formatter_like {};
FMT_CONSTEXPR auto copy(int x) -> int;
FMT_END_NAMESPACE
"#
);

/// The scope macros a header defines, the lines that use them at namespace level, and the
/// inline namespaces a file opens (`hintlens_syntax::scoping`).
#[test]
fn scope_macros_their_marks_and_inline_namespaces() {
    use hintlens_syntax::Frontend;
    use hintlens_syntax::scoping::{ScopeMacro, ScopeMark, ScopeOp};
    let header = "#ifndef NLOHMANN_JSON_NAMESPACE_BEGIN\n#define NLOHMANN_JSON_NAMESPACE_BEGIN \\\n    namespace nlohmann \\\n    { \\\n    inline namespace NLOHMANN_JSON_ABI_STRING \\\n    {\n#endif\n#define NLOHMANN_JSON_NAMESPACE_END \\\n    }  /* namespace (abi_string) */ \\\n    }  /* namespace nlohmann */\n#define FMT_END_NAMESPACE \\\n  } \\\n  }\n#define JSON_HEDLEY_LIKELY(x) __builtin_expect(!!(x), 1)\n";
    let index = Cpp.extract(header.as_bytes());
    let open = |segments: &[&str], inline| ScopeOp::Open {
        segments: segments.iter().map(|s| s.to_string()).collect(),
        inline,
    };
    assert_eq!(
        index.scope_macros,
        [
            ScopeMacro {
                name: "NLOHMANN_JSON_NAMESPACE_BEGIN".into(),
                ops: vec![open(&["nlohmann"], false), open(&[], true)]
            },
            ScopeMacro { name: "NLOHMANN_JSON_NAMESPACE_END".into(), ops: vec![ScopeOp::Close, ScopeOp::Close] },
            ScopeMacro { name: "FMT_END_NAMESPACE".into(), ops: vec![ScopeOp::Close, ScopeOp::Close] },
        ]
    );
    let user = "#include <nlohmann/detail/abi_macros.hpp>\n\nNLOHMANN_JSON_NAMESPACE_BEGIN\nnamespace detail\n{\nstruct from_json_fn {};\n}  // namespace detail\nNLOHMANN_JSON_NAMESPACE_END\n\nnamespace fmt {\ninline namespace v10 {\nclass W {\n  Q_OBJECT\n public:\n};\n}\n}\n";
    let index = Cpp.extract(user.as_bytes());
    let mark = |name: &str, line| ScopeMark { name: name.into(), line, depth: 0 };
    assert_eq!(index.scope_marks, [mark("NLOHMANN_JSON_NAMESPACE_BEGIN", 2), mark("NLOHMANN_JSON_NAMESPACE_END", 7)]);
    assert_eq!(index.inline_scopes, ["v10"]);
    let local: Vec<&str> = index.definitions.iter().map(|d| d.local_name.as_str()).collect();
    assert!(local.contains(&"detail.from_json_fn") && local.contains(&"fmt.v10.W"), "{local:?}");
}

/// An outline (`Frontend::outline_reusing`) passes over the blocks that spell no type keyword
/// and no `#`, and reads those that may define: a function's own struct, a scoped enum's
/// constants, a macro defined in a body, a Catch2 test's body. It holds every definition the
/// index holds, and the uses of the lines it keeps, no other.
#[test]
fn an_outline_reads_only_the_blocks_that_may_define() {
    use hintlens_syntax::{Frontend, Lines};
    let src = r#"namespace app {
int plain(int x) {
  int y = helper(x);
  return y * factor;
}

int local_types(int x) {
  struct Point { int px; };
  enum class Mode { Fast, Slow };
  auto pick = [](Mode m) { return m == Mode::Fast; };
#define LOCAL_LIMIT 3
  return Point{x}.px + LOCAL_LIMIT + pick(Mode::Slow);
}
}

TEST_CASE("plain sums") {
  SECTION("twice") { REQUIRE(app::plain(2) == 4); }
}
"#;
    let index = Cpp.extract(src.as_bytes());
    let (outline, _) = Cpp.outline_reusing(src.as_bytes(), None, &Lines::none());
    assert_eq!(outline.outlined(), index.outlined());
    let local: Vec<&str> = outline.definitions.iter().map(|d| d.local_name.as_str()).collect();
    for defined in ["app.plain", "app.local_types", "app.Point.px", "app.Mode.Fast", "LOCAL_LIMIT"] {
        assert!(local.contains(&defined), "{defined} in {local:?}");
    }
    assert_eq!(outline, index.kept(&Lines::none()), "keeping no line, no use is recorded");
    let names = |index: &hintlens_syntax::FileIndex| index.uses.iter().map(|u| u.name.clone()).collect::<Vec<_>>();

    // Keeping a line of `plain`'s body and one of the test's (what a change adds there), those
    // bodies are read, and their lines' uses are the index's.
    let kept = Lines::new([2, 16]);
    let (outline, _) = Cpp.outline_reusing(src.as_bytes(), None, &kept);
    assert_eq!(outline, index.kept(&kept));
    let outlined = names(&outline);
    for read in ["helper", "REQUIRE"] {
        assert!(outlined.contains(&read.into()), "{read} in {outlined:?}");
    }
    assert!(!outlined.contains(&"pick".into()), "uses off the kept lines are not recorded: {outlined:?}");
}

/// An outline passes over the expressions and types off its lines, as it does over bodies, but
/// not over one that binds a name beyond itself (a `requires` expression's parameters) or may
/// define (a lambda's own struct): kept to its lines, it is still the index.
#[test]
fn an_outline_passes_over_expressions_that_bind_and_define_nothing() {
    use hintlens_syntax::{Frontend, Lines};
    let src = r#"namespace app {
constexpr bool runs = check(requires (Task a) { a.run(); });
int twice = twice_of(1);
struct Holder {
  int (*make)() = [] { struct Local { int v; }; return Local{1}.v; };
  int size = compute(1, other(2)) + config.limit;
};
int use() { return a + size; }
}
"#;
    let index = Cpp.extract(src.as_bytes());
    let local: Vec<&str> = index.definitions.iter().map(|d| d.local_name.as_str()).collect();
    assert!(local.iter().any(|d| d.ends_with("Local")), "{local:?}");
    for kept in [Lines::none(), Lines::new([7]), Lines::new([2, 5]), Lines::new(0..9)] {
        let (outline, _) = Cpp.outline_reusing(src.as_bytes(), None, &kept);
        assert_eq!(outline, index.kept(&kept), "keeping {:?}", kept.iter().collect::<Vec<_>>());
    }
}
