//! SWE-bench Pro's human-written `interface` field, parsed into entries.
//!
//! The field is free text written by many hands. Most rows are blocks of `Key: value` lines
//! (`Name:`, `Type:`, `Path:`/`Location:`/`File:`, `Input:`/`Inputs:`, `Output:`/`Outputs:`,
//! `Description:`), in any order, numbered or bulleted, bold or not, sometimes all on one line;
//! some name the entry by its kind (`Function: tab_focus`, `Class method: Foo.for_cmd`); some
//! list entities as bullets (`` - `ParseError(Exception)`: … ``); a few are prose ("Create a
//! function `qobj_repr(obj) -> str` in the `qtutils` module"). "No new interfaces are
//! introduced" (in its spellings) is the empty interface.
//!
//! The parser reads what it can and never fails: a block without a name is dropped, text it
//! does not recognise continues the field before it.

use hintlens_syntax::DefKind;
use regex::Regex;
use serde::Serialize;
use std::sync::LazyLock;

/// One entry of an interface.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct InterfaceEntry {
    /// The simple name (`set_defaults` for `Font.set_defaults`; a module's last component for
    /// a file), or the name as written where it is no identifier (`tab-select`,
    /// `content.javascript.log_message.levels`).
    pub name: String,
    /// The enclosing class, when the entry says (`Font` in `Font.set_defaults`, `(as method of
    /// KeyInfo)`, `| class Font`).
    pub parent: Option<String>,
    /// The entry's `Type:` as written (`Function`, `Class method (public)`), or the kind its
    /// key named (`Function: x` → `Function`).
    pub kind_text: Option<String>,
    /// The first path-like token of `Path:`/`Location:`/`File:` (or of the name, for files).
    pub path: Option<String>,
    /// A signature the entry spells out (`qt_args(namespace: argparse.Namespace)`).
    pub signature: Option<String>,
    pub input: Option<String>,
    pub output: Option<String>,
    pub description: Option<String>,
}

impl InterfaceEntry {
    /// The definition kind the entry's type names; functions when it names none. Callable and
    /// type words win over "module", which also qualifies them ("Function (module-level)").
    pub fn def_kind(&self) -> DefKind {
        let t = self.kind_text.as_deref().unwrap_or_default().to_lowercase();
        let has = |w: &str| t.contains(w);
        if has("file") {
            DefKind::File
        } else if has("constructor") {
            DefKind::Constructor
        } else if has("method") {
            DefKind::Method
        } else if has("function") {
            DefKind::Function
        } else if has("interface") {
            DefKind::Interface
        } else if has("enum") {
            DefKind::Enum
        } else if has("class") || has("exception") || has("struct") || has("type") || has("record") {
            DefKind::Class
        } else if has("constant") || has("const") {
            DefKind::Constant
        } else if has("field") || has("attribute") || has("property") {
            DefKind::Field
        } else if has("variable") || has("setting") || has("option") {
            DefKind::Variable
        } else if has("module") {
            DefKind::File
        } else {
            DefKind::Function
        }
    }
}

/// What a `Key:` at the start of a line means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    Name,
    Type,
    Path,
    Input,
    Output,
    /// `Inputs/Outputs:`: a heading whose `Input:`/`Output:` lines follow.
    InOut,
    Description,
    Signature,
    /// `Class: X` after a method, `Receiver:`, `Parent class:`.
    Parent,
    /// A key that names the entry by its kind: `Function: tab_focus`.
    KindName(&'static str),
    /// `Content:` of a new file (a YAML fixture, say): text to skip, whose `name:` lines name
    /// nothing.
    Content,
    /// `Methods:` / `Static Methods:` under a class: a list of its methods, each an entry.
    Members,
    /// `Fields:` under a struct: a list of its fields, each an entry.
    Fields,
}

fn key(word: &str) -> Option<Key> {
    let w = word.trim().to_lowercase().replace(['_', '-'], " ");
    let w = w.split_whitespace().collect::<Vec<_>>().join(" ");
    if w.starts_with("name of") {
        // "Name of public interface:", "Name of public method:"
        return Some(Key::Name);
    }
    Some(match w.as_str() {
        "name" | "identifier" | "symbol" | "interface name" | "component name" | "new name" => Key::Name,
        "function name" | "new function name" => Key::KindName("Function"),
        "method name" => Key::KindName("Method"),
        "class name" => Key::KindName("Class"),
        "struct name" => Key::KindName("Struct"),
        "type" | "type of interface" | "kind" | "interface type" | "entity type" => Key::Type,
        "path" | "patch" | "location" | "file" | "file path" | "filepath" | "pathfile" | "path file" | "module"
        | "package" | "file name" | "filename" | "defined in" | "source file" => Key::Path,
        "input" | "inputs" | "input parameters" | "parameters" | "params" | "arguments" | "args" | "input(s)" => {
            Key::Input
        }
        "output" | "outputs" | "returns" | "return" | "return type" | "return value" | "output(s)" => Key::Output,
        "inputs/outputs" | "input/output" | "inputs / outputs" => Key::InOut,
        "description" | "purpose" | "summary" | "behavior" | "behaviour" | "descripcion" | "details" => {
            Key::Description
        }
        "signature" | "definition" | "declaration" => Key::Signature,
        "receiver" | "parent class" | "owner" | "parent" | "belongs to" => Key::Parent,
        "function" | "new function" | "public function" | "new public function" | "hook" | "new hook" => {
            Key::KindName("Function")
        }
        "method" | "new method" | "public method" | "new public method" => Key::KindName("Method"),
        "class method" => Key::KindName("Class method"),
        "static method" => Key::KindName("Static method"),
        "class" | "new class" | "public class" => Key::KindName("Class"),
        "struct" | "new struct" => Key::KindName("Struct"),
        "enum" | "new enum" => Key::KindName("Enum"),
        "constant" | "new constant" => Key::KindName("Constant"),
        "type alias" => Key::KindName("Type alias"),
        "constructor" => Key::KindName("Constructor"),
        "new file" | "new module" => Key::KindName("File"),
        "content" | "contents" | "file content" | "file contents" => Key::Content,
        "methods" | "static methods" | "public methods" | "class methods" | "instance methods" => Key::Members,
        "fields" | "struct fields" | "properties" | "attributes" => Key::Fields,
        "component" | "new component" => Key::KindName("Component"),
        _ => return None,
    })
}

static EMPTY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)^\W*(?:there\s+are\s+)?no\s+new\s+(?:public\s+)?interfaces?\b").unwrap());
static MARKER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\s*(?:#+\s*|[-*•+]\s*|\d+[.)]\s*)+").unwrap());
static KEY_LINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^([A-Za-z][A-Za-z _/()-]{0,40}?)\s*:\s*(.*)$").unwrap());
/// The structural keys that may share a line: `1. Type: Struct Name: X Path: y`.
static INLINE_KEY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\s(Name|Type|Path|Location|File|Inputs?|Outputs?|Description|Receiver|Package|Function name|Method name|Class name|Function|Method|Class|Struct)\s*:\s").unwrap()
});
static BULLET_ENTITIES: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^((?:`[^`]+`\s*,?\s*)+)\s*(?:\([^)]*\))?\s*[:—–-]\s+(.*)$").unwrap());
static BACKTICKED: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"`([^`]+)`").unwrap());
static PATH_TOKEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[A-Za-z0-9_@.\-]*(?:/[A-Za-z0-9_@.\-\[\]]+)+|[A-Za-z0-9_\-]+\.(?:py|pyi|java|go|ts|tsx|js|jsx|yml|yaml|json)\b").unwrap()
});
static IDENT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*").unwrap());
static METHOD_OF: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)(?:method of|class|in class|of class)\s+`?([A-Z][\w]*)`?").unwrap());
static PROSE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        // "a new public function `parse_duration`", "a function named parse_version"
        // "the following class as new interface: `FontFamilies`"
        r"(?i)\b(function|method|class|struct|interface|enum|hook|component|constant|type)\s+(?:named\s+|called\s+|as\s+(?:a\s+)?new\s+(?:public\s+)?interface:?\s*)?`([^`]+)`",
        r"|\b(function|method|class|struct|enum)\s+(?:named|called)\s+([A-Za-z_$][\w$.]*)",
        // "The `cache_lock` function", "the `get_with_context` method"
        r"|`([^`]+)`\s+(function|method|class|named tuple|struct|enum|hook)\b",
        // "Created Class LanguageMultipleMatchError", "The function WithAdminUser(ctx …)"
        r"|\b(?:created|new|added)\s+(function|method|class|struct|enum)\s+([A-Za-z_$][\w$.]*)",
        r"|\b(function|method)\s+([A-Za-z_$][\w$]*)\s*\(",
        // "… introduced with the patch named `NewDowngradedOSSAdminRole`"
        r"|\b()named\s+`([^`]+)`",
    ))
    .unwrap()
});
static LISTED_NAME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*[-*•]\s*`([A-Za-z_$][\w$.]*)(?:\(\))?`\s").unwrap());
/// A line that is nothing but a declaration: `- gauge`, ``1. `Posts.uploads.cleanOrphans()` ``,
/// ``##### `func New(size int) (*Cache, error)` ``, `SocketTopics.canRemoveTag`.
static BARE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:`([^`]+)`(?:\s*\([^)]*\))?|([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?))\s*:?$").unwrap()
});

/// Words that open a declaration before its name (`def x(`, `func (r *T) Name(`).
const LEADING_KEYWORDS: &[&str] =
    &["def", "async", "func", "function", "class", "public", "static", "export", "const", "new", "type", "interface"];

/// Parses an interface text into its entries, in the order written.
pub fn parse_interface(text: &str) -> Vec<InterfaceEntry> {
    let text = text.trim().trim_matches(['"', '“', '”']);
    if text.is_empty() || EMPTY.is_match(text) {
        return Vec::new();
    }
    let mut parser = Parser::default();
    for raw in text.lines() {
        for line in split_inline(raw) {
            parser.line(&line);
        }
    }
    parser.finish();
    let mut entries: Vec<InterfaceEntry> = parser.entries.into_iter().filter_map(clean).collect();
    for entry in &mut entries {
        if entry.path.is_none() {
            entry.path.clone_from(&parser.preamble_path);
        }
    }
    if entries.is_empty() {
        entries = prose(text);
    }
    entries
}

/// A line with several structural keys, split before each: `1. Type: Struct Name: X Path: y`.
/// Only a line that opens with a naming key (`Name:`, `Type:`, `Function:`), or that holds one
/// among others after some preamble ("…introduces: Function: `f` Location: `x.py` Inputs: …"),
/// is split: a description that happens to say "Output:" stays whole.
fn split_inline(line: &str) -> Vec<String> {
    let inner: Vec<(usize, &str)> =
        INLINE_KEY.captures_iter(line).filter_map(|c| Some((c.get(0)?.start() + 1, c.get(1)?.as_str()))).collect();
    let opens_with_name = KEY_LINE
        .captures(MARKER.replace(line, "").trim())
        .and_then(|c| key(&c[1]))
        .is_some_and(|k| matches!(k, Key::Name | Key::Type | Key::KindName(_)));
    let naming = inner
        .iter()
        .filter(|(_, k)| {
            !matches!(*k, "Path" | "Location" | "File" | "Package" | "Receiver")
                && !k.starts_with("Input")
                && !k.starts_with("Output")
                && *k != "Description"
        })
        .count();
    if inner.is_empty() || !(opens_with_name || (naming >= 1 && inner.len() >= 2)) {
        return vec![line.to_owned()];
    }
    let mut out = Vec::new();
    let mut start = 0;
    for (at, _) in inner {
        out.push(line[start..at].to_owned());
        start = at;
    }
    out.push(line[start..].to_owned());
    out
}

#[derive(Default)]
struct Parser {
    /// A file the text names before its first entry ("new methods in `x/version.py`:"),
    /// for entries that name none.
    preamble_path: Option<String>,
    entries: Vec<Draft>,
    current: Option<Draft>,
    /// The field continuation lines append to.
    field: Option<Key>,
    /// Inside a `Content:` block: the fence that closes it (`"""`, ```` ``` ````), or none
    /// when the block runs to the next key at the entry's own indentation.
    content: Option<Option<&'static str>>,
    /// Under a `Methods:` or `Fields:` heading: the type its listed members belong to, the
    /// heading's indentation, and the members' kind.
    members: Option<(String, usize, &'static str)>,
}

#[derive(Default)]
struct Draft {
    entry: InterfaceEntry,
    /// The raw name value, cleaned in [`clean`].
    raw_name: Option<String>,
    /// Indentation of the line that opened the entry.
    indent: usize,
    /// The kind came from the key that named the entry (`Function: x`), so a later `Type:`
    /// refines it rather than opening another entry.
    kind_from_key: bool,
}

impl Parser {
    fn line(&mut self, raw: &str) {
        let indent = raw.len() - raw.trim_start().len();
        if self.in_content(raw, indent) {
            return;
        }
        let listed = MARKER.is_match(raw);
        // Markdown: bold markers and escapes (`check\_qt\_available`).
        let line = MARKER
            .replace(raw, "")
            .replace("**", "")
            .replace("\\_", "_")
            .replace("\\*", "*")
            .replace("\\[", "[")
            .replace("\\]", "]");
        let line = line.trim();
        if line.is_empty() {
            return;
        }
        if let Some(c) = KEY_LINE.captures(line)
            && let Some(k) = key(&c[1])
        {
            let value = c[2].trim().to_owned();
            // `- name: str` indented under an entry's inputs is a parameter, not a new entry.
            let nested = self.current.as_ref().is_some_and(|d| indent > d.indent + 1)
                && matches!(self.field, Some(Key::Input | Key::Output | Key::InOut))
                && matches!(k, Key::Name | Key::Type);
            if !nested {
                return self.field(k, value, indent);
            }
        }
        // A key alone on its line, its value on the next: "Name\nValidatedBitcoinToken".
        if let Some(k) = key(line.trim_end_matches(':')) {
            return self.field(k, String::new(), indent);
        }
        // `- getInitializedInstance(registrationDataId: string)` under `Static Methods:`,
        // `` - `adds: list[SolrDocument]` — … `` under `Fields:`.
        if let Some((class, heading, kind)) = self.members.clone()
            && listed
            && indent >= heading
            && let Some(m) = IDENT.find(line.trim_start_matches('`')).filter(|m| m.start() == 0)
        {
            let line = line.trim_start_matches('`');
            let signature = line[m.end()..].trim_start().starts_with('(').then(|| line.to_owned());
            self.start(indent);
            let draft = self.current.as_mut().expect("just started");
            draft.raw_name = Some(m.as_str().to_owned());
            draft.entry.kind_text = Some(kind.to_owned());
            draft.entry.parent = Some(class);
            draft.entry.signature = signature;
            // The class's path, for the method's.
            draft.entry.path.clone_from(&self.entries.iter().rev().find_map(|d| d.entry.path.clone()));
            self.field = Some(Key::Signature);
            return;
        }
        let in_parameters = matches!(self.field, Some(Key::Input | Key::Output | Key::InOut));
        if let Some(c) = BARE.captures(line)
            && !in_parameters
            && (self.current.is_none() || (listed && self.current.as_ref().is_some_and(|d| indent <= d.indent)))
        {
            let name = c.get(1).or(c.get(2)).map_or("", |m| m.as_str());
            self.start(indent);
            self.current.as_mut().expect("just started").raw_name = Some(name.to_owned());
            self.field = Some(Key::Name);
            return;
        }
        if listed
            && !in_parameters
            && let Some(c) = BULLET_ENTITIES.captures(line)
        {
            let description = c[2].trim().to_owned();
            for name in BACKTICKED.captures_iter(&c[1]) {
                self.start(indent);
                let draft = self.current.as_mut().expect("just started");
                draft.raw_name = Some(name[1].to_owned());
                draft.entry.kind_text = Some(bullet_kind(&name[1], &description).to_owned());
                draft.entry.description = Some(description.clone());
                self.field = Some(Key::Description);
            }
            return;
        }
        self.continue_field(line);
    }

    /// Whether `raw` belongs to a `Content:` block, which is skipped: it ends at its closing
    /// fence, or without a fence at the next line no deeper than the block's key.
    fn in_content(&mut self, raw: &str, indent: usize) -> bool {
        let Some(fence) = self.content else { return false };
        let line = raw.trim();
        match fence {
            Some(fence) => {
                if line.contains(fence) {
                    self.content = None;
                }
                true
            }
            // The block's first line opens a fence: the block runs to its close.
            None if line.starts_with("\"\"\"") || line.starts_with("```") => {
                let fence = if line.starts_with("```") { "```" } else { "\"\"\"" };
                let closed = line.len() > 3 && line[3..].contains(fence);
                self.content = if closed { None } else { Some(Some(fence)) };
                true
            }
            None if line.is_empty() => true,
            None => {
                let key_at_entry = self.current.as_ref().is_none_or(|d| indent <= d.indent)
                    && KEY_LINE.captures(line).and_then(|c| key(&c[1])).is_some_and(|k| {
                        matches!(k, Key::Name | Key::Type | Key::Path | Key::KindName(_) | Key::Description)
                    });
                if key_at_entry {
                    self.content = None;
                    false
                } else {
                    true
                }
            }
        }
    }

    fn field(&mut self, k: Key, value: String, indent: usize) {
        if k == Key::Content {
            let fence = ["\"\"\"", "```"].into_iter().find(|f| value.starts_with(f));
            let closed = fence.is_some_and(|f| value[f.len()..].contains(f));
            self.content = Some(if closed { None } else { fence });
            // A block opened and closed on its key's line is over.
            if closed {
                self.content = None;
            }
            self.field = None;
            return;
        }
        if let Key::Members | Key::Fields = k {
            // The nearest entry that is a type: the class whose Inputs/Outputs list its methods.
            let is_type = |d: &&Draft| {
                let kind = d.entry.kind_text.as_deref().unwrap_or_default().to_lowercase();
                d.raw_name.as_deref().is_some_and(|n| !n.trim().is_empty())
                    && ["class", "struct", "interface", "type", "object"].iter().any(|t| kind.contains(t))
                    && !["method", "function", "constructor"].iter().any(|t| kind.contains(t))
            };
            let class = self.current.iter().chain(self.entries.iter().rev()).find(is_type);
            let kind = if k == Key::Fields { "Field" } else { "Method" };
            self.members = class.and_then(|d| d.raw_name.as_deref()).map(|n| (strip_ticks(n), indent, kind));
            self.field = None;
            return;
        }
        if !matches!(k, Key::Input | Key::Output | Key::InOut | Key::Description | Key::Signature) {
            self.members = None;
        }
        let has = |d: &Draft, k: Key| match k {
            Key::Name | Key::KindName(_) => d.raw_name.is_some(),
            // A file may be named by its path alone (`Type: File` / `Path: x.yml` / `Content:`).
            Key::Type => {
                d.entry.kind_text.is_some()
                    && (d.raw_name.is_some() || d.entry.path.is_some() && d.entry.def_kind() == DefKind::File)
                    && !d.kind_from_key
            }
            Key::Path => d.entry.path.is_some(),
            Key::Input => d.entry.input.is_some(),
            Key::Output => d.entry.output.is_some(),
            Key::Description => d.entry.description.is_some(),
            Key::Signature => d.entry.signature.is_some(),
            Key::Parent => d.entry.parent.is_some(),
            Key::InOut | Key::Content | Key::Members | Key::Fields => false,
        };
        // `Class: X` right after a method's name names its class, not a new entry.
        if let (Key::KindName("Class" | "Struct"), Some(d)) = (k, self.current.as_mut())
            && d.raw_name.is_some()
            && d.entry.parent.is_none()
            && d.entry.description.is_none()
            && d.entry.input.is_none()
            && d.entry.kind_text.as_deref().is_some_and(|t| t.to_lowercase().contains("method"))
        {
            d.entry.parent = Some(strip_ticks(&value));
            return;
        }
        if self.current.as_ref().is_none_or(|d| has(d, k)) {
            self.start(indent);
        }
        let d = self.current.as_mut().expect("started above");
        self.field = Some(k);
        match k {
            Key::Name => d.raw_name = Some(value),
            Key::KindName(kind) => {
                d.raw_name = Some(value);
                if d.entry.kind_text.is_none() {
                    d.entry.kind_text = Some(kind.to_owned());
                    d.kind_from_key = true;
                }
            }
            Key::Type => {
                d.entry.kind_text = Some(value);
                d.kind_from_key = false;
            }
            Key::Path => d.entry.path = Some(value),
            Key::Input | Key::InOut => {
                if !value.is_empty() {
                    d.entry.input = Some(value);
                }
            }
            Key::Output => d.entry.output = Some(value),
            Key::Description => d.entry.description = Some(value),
            Key::Signature => d.entry.signature = Some(value),
            Key::Parent => d.entry.parent = Some(strip_ticks(&value)),
            Key::Content | Key::Members | Key::Fields => {}
        }
    }

    fn continue_field(&mut self, line: &str) {
        let Some(d) = self.current.as_mut() else {
            if self.preamble_path.is_none() {
                self.preamble_path = PATH_TOKEN.find(line).map(|m| m.as_str().to_owned()).filter(|p| p.contains('.'));
            }
            return;
        };
        // A key whose value is on the following line.
        let empty = |v: &Option<String>| v.as_deref().is_none_or(str::is_empty);
        match self.field {
            Some(Key::Name | Key::KindName(_)) if empty(&d.raw_name) => return d.raw_name = Some(line.to_owned()),
            Some(Key::Type) if empty(&d.entry.kind_text) => return d.entry.kind_text = Some(line.to_owned()),
            Some(Key::Path) if empty(&d.entry.path) => return d.entry.path = Some(line.to_owned()),
            Some(Key::Parent) if empty(&d.entry.parent) => return d.entry.parent = Some(strip_ticks(line)),
            _ => {}
        }
        let target = match self.field {
            Some(Key::Input | Key::InOut) => &mut d.entry.input,
            Some(Key::Output) => &mut d.entry.output,
            Some(Key::Description) => &mut d.entry.description,
            Some(Key::Signature) => &mut d.entry.signature,
            _ => return,
        };
        match target {
            Some(text) if !text.is_empty() => {
                text.push('\n');
                text.push_str(line);
            }
            _ => *target = Some(line.to_owned()),
        }
    }

    fn start(&mut self, indent: usize) {
        if let Some(d) = self.current.take() {
            self.entries.push(d);
        }
        self.current = Some(Draft { indent, ..Draft::default() });
        self.field = None;
    }

    fn finish(&mut self) {
        if let Some(d) = self.current.take() {
            self.entries.push(d);
        }
    }
}

/// The kind a bullet's wording gives its entity.
fn bullet_kind(name: &str, description: &str) -> &'static str {
    let d = description.to_lowercase();
    if d.contains("exception") || d.contains("class") || d.contains("enum") || d.contains("dataclass") {
        "Class"
    } else if d.contains("method") {
        "Method"
    } else if name.contains('(') || d.contains("function") {
        "Function"
    } else {
        "Class"
    }
}

fn strip_ticks(s: &str) -> String {
    s.trim().trim_matches(['`', '\'', '"', '*']).trim_end_matches(['.', ':', ',']).trim().to_owned()
}

/// Turns a draft into an entry: a name cleaned to an identifier (or kept as written), the
/// signature and parent it carries, a path token.
fn clean(draft: Draft) -> Option<InterfaceEntry> {
    let mut entry = draft.entry;
    // `Type: \`SSOLoginFunc\``: a type that is a name names the entry.
    let raw = match draft.raw_name.filter(|n| !n.trim().is_empty()) {
        Some(raw) => raw,
        // A file named by its path alone.
        None if entry.def_kind() == DefKind::File && entry.path.is_some() => entry.path.clone()?,
        None => {
            let kind = entry.kind_text.take()?;
            if !kind.trim().starts_with('`') {
                return None;
            }
            kind
        }
    };
    let raw = raw.trim();
    if raw.is_empty() {
        return None;
    }
    if let Some(path) = &entry.path {
        if entry.parent.is_none()
            && let Some(c) = METHOD_OF.captures(path)
        {
            entry.parent = Some(c[1].to_owned());
        }
        entry.path = PATH_TOKEN.find(path).map(|m| m.as_str().trim_end_matches('.').to_owned());
    }
    // A value like "`was_sigterm`. The method determines…": the backticked part is the name.
    let head = match BACKTICKED.captures(raw) {
        Some(c) if raw.starts_with('`') || !raw.contains('(') => c[1].to_owned(),
        _ => strip_ticks(raw),
    };
    let is_file = entry.def_kind() == DefKind::File
        || (head.contains('/') && PATH_TOKEN.find(&head).is_some_and(|m| m.as_str().len() + 2 >= head.len()));
    if is_file {
        let path = PATH_TOKEN.find(&head).map(|m| m.as_str().to_owned());
        if entry.path.is_none() {
            entry.path.clone_from(&path);
        }
        entry.name = module_stem(path.as_deref().unwrap_or(&head));
        entry.kind_text.get_or_insert_with(|| "File".to_owned());
        return Some(entry);
    }
    let (name, signature) = declaration_name(&head);
    if name.is_empty() {
        return None;
    }
    if let Some(signature) = signature {
        entry.signature.get_or_insert(signature);
    }
    // `Font.set_defaults`: the simple name, under its class.
    match name.rsplit_once('.') {
        Some((parent, simple)) if IDENT.find(&name).is_some_and(|m| m.as_str() == name) && !is_setting(&entry) => {
            entry.parent.get_or_insert_with(|| parent.rsplit('.').next().unwrap_or(parent).to_owned());
            entry.name = simple.to_owned();
        }
        _ => entry.name = name,
    }
    Some(entry)
}

/// The module a file entry names: `filepathcategory` for `…/filepathcategory.py`, `elf` for
/// `qutebrowser.misc.elf`.
fn module_stem(file: &str) -> String {
    let last = file.rsplit('/').next().unwrap_or(file);
    let stem = SOURCE_EXTENSIONS.iter().find_map(|e| last.strip_suffix(e)).unwrap_or(last);
    stem.rsplit('.').next().unwrap_or(stem).to_owned()
}

const SOURCE_EXTENSIONS: &[&str] =
    &[".py", ".pyi", ".java", ".go", ".ts", ".tsx", ".js", ".jsx", ".yml", ".yaml", ".json"];

/// Configuration settings are named by dotted paths that are no qualified names.
fn is_setting(entry: &InterfaceEntry) -> bool {
    entry.kind_text.as_deref().is_some_and(|t| {
        let t = t.to_lowercase();
        t.contains("setting") || t.contains("option") || t.contains("config")
    })
}

/// The name a declaration-like text declares, and the text itself when it is a signature:
/// `qt_args(namespace: argparse.Namespace)` → `qt_args`; `func (f *Forwarder) ServeHTTP(rw)` →
/// `ServeHTTP`; `tab-select` stays `tab-select`.
fn declaration_name(text: &str) -> (String, Option<String>) {
    let mut rest = text.trim();
    loop {
        let word = rest.split(|c: char| c.is_whitespace()).next().unwrap_or_default();
        if LEADING_KEYWORDS.contains(&word) && rest.len() > word.len() {
            rest = rest[word.len()..].trim_start();
        } else {
            break;
        }
    }
    // A Go receiver: `(f *Forwarder) ServeHTTP(…)`; or Go's method expression, which names the
    // method under its type: `(*LeveledLogger).Error` is `LeveledLogger.Error`.
    if rest.starts_with('(')
        && let Some(close) = rest.find(')')
    {
        let after = &rest[close + 1..];
        if let Some(method) = after.strip_prefix('.') {
            let receiver = rest[1..close].trim().trim_start_matches('*').trim();
            if IDENT.find(receiver).is_some_and(|m| m.as_str() == receiver) {
                return declaration_name(&format!("{receiver}.{method}"));
            }
        }
        rest = after.trim_start();
    }
    let signature = rest.contains('(').then(|| rest.to_owned());
    match IDENT.find(rest) {
        Some(m)
            if m.start() == 0
                && (signature.is_some() || m.end() == rest.len() || !rest[m.end()..].starts_with('-')) =>
        {
            (m.as_str().to_owned(), signature)
        }
        _ => (rest.split_whitespace().next().unwrap_or_default().to_owned(), None),
    }
}

/// The prose fallback: "a new public function `parse_duration` in the file `x.py`".
fn prose(text: &str) -> Vec<InterfaceEntry> {
    let path =
        PATH_TOKEN.find_iter(text).map(|m| m.as_str().trim_end_matches('.').to_owned()).find(|p| p.contains('.'));
    let mut out: Vec<InterfaceEntry> = Vec::new();
    // "- `groupsAPI.issueInvite` verifies that…": a list of names, each described in prose.
    let listed =
        text.lines().filter_map(|l| LISTED_NAME.captures(l)).map(|c| ("function", c.get(1).map_or("", |m| m.as_str())));
    let said = PROSE.captures_iter(text).filter_map(|c| {
        // Each alternative captures a kind and a name; the third names first.
        let group = |i: usize| c.get(i).map(|m| m.as_str());
        match (group(5), group(6)) {
            (Some(name), Some(kind)) => Some((kind, name)),
            _ => [(1, 2), (3, 4), (7, 8), (9, 10), (11, 12)]
                .into_iter()
                .find_map(|(k, n)| Some((group(k).unwrap_or_default(), group(n)?))),
        }
    });
    let said: Vec<(&str, &str)> = said.collect();
    let found = if said.is_empty() { listed.collect() } else { said };
    for (kind, raw) in found {
        let kind = if kind.is_empty() { "function" } else { kind };
        let (name, signature) = declaration_name(raw);
        if name.is_empty() || name.contains('/') {
            continue;
        }
        // `groupsAPI.issueInvite`: the simple name, under its object, as in a structured entry.
        let (parent, name) = match name.rsplit_once('.') {
            Some((parent, simple)) if IDENT.find(&name).is_some_and(|m| m.as_str() == name) => {
                (Some(parent.rsplit('.').next().unwrap_or(parent).to_owned()), simple.to_owned())
            }
            _ => (None, name),
        };
        if out.iter().any(|e| e.name == name && e.parent == parent) {
            continue;
        }
        let mut kind = kind.to_lowercase();
        kind[..1].make_ascii_uppercase();
        out.push(InterfaceEntry {
            name,
            kind_text: Some(kind),
            path: path.clone(),
            parent,
            signature,
            ..InterfaceEntry::default()
        });
    }
    out
}

#[cfg(test)]
mod tests;
