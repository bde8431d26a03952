//! The layouts that occur in SWE-bench Pro's `interface` field, each on a short excerpt copied
//! from a real row (instance id prefix in the test name's comment).

use super::*;

/// `name kind path parent` per entry, `-` for what the entry lacks.
fn read(text: &str) -> Vec<String> {
    parse_interface(text)
        .into_iter()
        .map(|e| {
            let or_dash = |v: &Option<String>| v.clone().unwrap_or_else(|| "-".into());
            format!("{} | {} | {} | {}", e.name, or_dash(&e.kind_text), or_dash(&e.path), or_dash(&e.parent))
        })
        .collect()
}

#[test]
fn no_new_interfaces_in_its_spellings() {
    for text in [
        "No new interfaces are introduced.",
        "No new interfaces are introduced",
        "“No new interfaces are introduced”.",
        "No new public interfaces are introduced.",
        "No new interface introduced.",
        "There are no new interfaces related to the PS and relevant tests.",
        "-",
        "N/A",
        "",
    ] {
        assert_eq!(read(text), Vec::<String>::new(), "{text:?}");
    }
}

#[test]
fn type_name_path_blocks() {
    // qutebrowser-f91ace96
    let text = "Type: Function\nName: hide_qt_warning\nPath: qutebrowser/utils/qtlog.py\nInput: pattern: str, logger: str = 'qt'\nOutput: context manager (Iterator[None])\nDescription: Temporarily suppresses Qt log warnings.\n\nType: Class\nName: QtWarningFilter\nPath: qutebrowser/utils/qtlog.py\nPublic API: logging.Filter subclass with constructor (pattern: str)\nDescription: Logging filter used to hide Qt warnings.";
    assert_eq!(
        read(text),
        [
            "hide_qt_warning | Function | qutebrowser/utils/qtlog.py | -",
            "QtWarningFilter | Class | qutebrowser/utils/qtlog.py | -",
        ]
    );
    let entry = &parse_interface(text)[0];
    assert_eq!(entry.input.as_deref(), Some("pattern: str, logger: str = 'qt'"));
    assert_eq!(entry.output.as_deref(), Some("context manager (Iterator[None])"));
    assert_eq!(entry.def_kind(), DefKind::Function);
}

#[test]
fn fields_in_any_order_and_blank_lines_between_them() {
    // qutebrowser-c580ebf0: `Pathfile:` last, no type.
    assert_eq!(
        read(
            "Name: widened_hostnames\nInput: hostname: str \nOutput: Iterable[str] \nDescription: Generates parent-domain variants.\nPathfile: qutebrowser/utils/urlutils.py"
        ),
        ["widened_hostnames | - | qutebrowser/utils/urlutils.py | -"]
    );
    // qutebrowser-f631cd44: every field its own paragraph, the description below its key.
    let text = "Type: Class\n\nName: VersionChange\n\nPath: qutebrowser/config/configfiles.py\n\nDescription:\n\nRepresents the type of version change.";
    assert_eq!(read(text), ["VersionChange | Class | qutebrowser/config/configfiles.py | -"]);
    assert_eq!(parse_interface(text)[0].description.as_deref(), Some("Represents the type of version change."));
}

#[test]
fn backticked_values_a_preamble_and_plural_keys() {
    // qutebrowser-96b99780
    let text = "The golden patch introduces the following new public interfaces:\n\nName: `parse_duration`\nType: function\nLocation: `qutebrowser/utils/utils.py`\nInputs: `duration: str`\nOutputs: `int`\nDescription: Parses a duration string.";
    assert_eq!(read(text), ["parse_duration | function | qutebrowser/utils/utils.py | -"]);
}

#[test]
fn an_inputs_outputs_heading() {
    // qutebrowser-fd6790fe: a command named with a dash, then functions.
    let text = "Name: tab-select\nType: Command\nFile: qutebrowser/browser/commands.py\nInputs/Outputs:\n\n  Input: optional 'index' (str), optional [count] (int)\n\n  Output: focuses the matching tab\nDescription: New user-facing command.\n\nName: tabs\nType: Function (completion provider)\nFile: qutebrowser/completion/models/miscmodels.py\nInputs/Outputs:\n  Input: info (optional; unused)\n  Output: completion model listing all open tabs";
    assert_eq!(
        read(text),
        [
            "tab-select | Command | qutebrowser/browser/commands.py | -",
            "tabs | Function (completion provider) | qutebrowser/completion/models/miscmodels.py | -",
        ]
    );
    let entries = parse_interface(text);
    assert_eq!(entries[1].input.as_deref(), Some("info (optional; unused)"));
    assert_eq!(entries[1].output.as_deref(), Some("completion model listing all open tabs"));
}

#[test]
fn a_file_entry_and_parameter_bullets() {
    // qutebrowser-0fc6d110: a file named by its path; bullets under Input are parameters.
    let text = "- Name: `qutebrowser/completion/models/filepathcategory.py`\nType: File\nLocation: `qutebrowser/completion/models/filepathcategory.py`\nOutput: Defines the `FilePathCategory` class.\n\n\n- Name: `FilePathCategory`\nType: Class\nLocation: `qutebrowser/completion/models/filepathcategory.py \nInput: Constructed via `FilePathCategory(name: str, parent: QObject = None)`.\n\n\n- Name: `set_pattern`\nType: Method\nLocation: `qutebrowser/completion/models/filepathcategory.py`\nInput:\n   - `val` <str> the user’s partially typed URL.\n   - name: the parameter that is no entry\nOutput: <None>";
    assert_eq!(
        read(text),
        [
            "filepathcategory | File | qutebrowser/completion/models/filepathcategory.py | -",
            "FilePathCategory | Class | qutebrowser/completion/models/filepathcategory.py | -",
            "set_pattern | Method | qutebrowser/completion/models/filepathcategory.py | -",
        ]
    );
    assert_eq!(parse_interface(text)[0].def_kind(), DefKind::File);
}

#[test]
fn prose_interfaces() {
    // qutebrowser-70248f25: a backticked name in a sentence; the return type and the
    // exception mentioned later are no entries.
    let text = "Introduce a new public function `parse_duration` in the file `qutebrowser/utils/utils.py`.  \n\nThis function takes one input parameter:\n\n- `duration: str` a duration string.\n\nIt returns:\n\n- `int` the total duration represented in milliseconds.\n\nIf the input is invalid, the function raises a `ValueError`.";
    assert_eq!(read(text), ["parse_duration | Function | qutebrowser/utils/utils.py | -"]);
    // qutebrowser-46e6839e
    assert_eq!(
        read(
            "In the qutebrowser/utils/utils.py file, a function named parse_version should be created to parse version strings."
        ),
        ["parse_version | Function | qutebrowser/utils/utils.py | -"]
    );
    // qutebrowser-0d2afd58: a signature in prose; the Input/Output lines name no entry.
    let text = "Create a function `qobj_repr(obj: Optional[QObject]) -> str` in the `qtutils` module.\n\nInput: `obj` - The QObject instance.\n\nOutput: `str` - A string.";
    assert_eq!(read(text), ["qobj_repr | Function | - | -"]);
    assert_eq!(parse_interface(text)[0].signature.as_deref(), Some("qobj_repr(obj: Optional[QObject]) -> str"));
    // ansible-984216f5: "The `x` method is introduced in `path`".
    assert_eq!(
        read("The `get_with_context` method is introduced in `lib/ansible/plugins/loader.py`. It returns a tuple."),
        ["get_with_context | Method | lib/ansible/plugins/loader.py | -"]
    );
    // NodeBB-18c45b44: a list of qualified names in prose; each is its simple name under its
    // object, and the same method of two objects is two entries.
    let text = "In the file `src/api/groups.js`, there are new functions exported on `groupsAPI`: \n\n- `groupsAPI.issueInvite` verifies that `caller` owns the group.\n\nIn the file `src/controllers/write/groups.js`, there are new controller methods: \n\n- `Groups.issueInvite` controller to handle issuing a group invite via API.";
    assert_eq!(
        read(text),
        [
            "issueInvite | Function | src/api/groups.js | groupsAPI",
            "issueInvite | Function | src/api/groups.js | Groups"
        ]
    );
}

#[test]
fn the_class_of_a_method() {
    // qutebrowser-f7753550: "(as method of KeyInfo)".
    assert_eq!(
        read(
            "Type: Function\n\nName: is_special\n\nPath: qutebrowser/keyinput/keyutils.py (as method of KeyInfo)\n\nInput: self"
        ),
        ["is_special | Function | qutebrowser/keyinput/keyutils.py | KeyInfo"]
    );
    // qutebrowser-ff1c025a: a qualified name with a trailing period, "| class Font".
    assert_eq!(
        read(
            "New public interface: \nName: Font.set_defaults. \nType: Class method (public).\n Location: qutebrowser/config/configtypes.py | class Font.\n Input: default_family: Optional[List[str]]"
        ),
        ["set_defaults | Class method (public). | qutebrowser/config/configtypes.py | Font"]
    );
    // qutebrowser-a84ecfb8: a kind as key; `Class:` after a complete entry opens another.
    assert_eq!(
        read(
            "Class method: `NoSuchCommandError.for_cmd`\nLocation: `qutebrowser/commands/cmdexc.py`\nInputs:\n- `cmd` (`str`): The command string.\nOutputs:\n- Returns a `NoSuchCommandError`.\nDescription: Provides a class method.\n\nClass: `EmptyCommandError`\nLocation: `qutebrowser/commands/cmdexc.py`"
        ),
        [
            "for_cmd | Class method | qutebrowser/commands/cmdexc.py | NoSuchCommandError",
            "EmptyCommandError | Class | qutebrowser/commands/cmdexc.py | -",
        ]
    );
    // qutebrowser-5cef49ff: `Class:` right after a method's name is its class; the file comes
    // from the preamble.
    assert_eq!(
        read(
            "The patch introduces a new interface in the file `qutebrowser/misc/guiprocess.py`:\n\n- Method: `was_sigterm`. The method determines whether a process terminated.\nClass: `ProcessOutcome` \nInput: `self` \nOutput: <bool>"
        ),
        ["was_sigterm | Method | qutebrowser/misc/guiprocess.py | ProcessOutcome"]
    );
}

#[test]
fn signatures_in_names_and_numbered_entries() {
    // qutebrowser-de4a1c1a
    let text = "Yes, A new public interface:\n\n1. Name: `qt_args(namespace: argparse.Namespace)`\n\nType: Public function\n\nLocation: `qutebrowser/config/qtargs.py`\n\n2. Name: `init_envvars`\n\nType: Public function\n\nLocation: `qutebrowser/config/qtargs.py`";
    assert_eq!(
        read(text),
        [
            "qt_args | Public function | qutebrowser/config/qtargs.py | -",
            "init_envvars | Public function | qutebrowser/config/qtargs.py | -",
        ]
    );
    assert_eq!(parse_interface(text)[0].signature.as_deref(), Some("qt_args(namespace: argparse.Namespace)"));
    // qutebrowser-44e64199: lower-case keys after a dash, the file in the preamble.
    assert_eq!(
        read(
            "The patch introduces the following new public methods in `qutebrowser/utils/version.py`:\n\n-Type: method \n-name: `from_pyqt_importlib` \n-input: (cls, pyqt_webengine_version: str) \n\n-Type: method \n-name: `from_qt` \n-input: (cls, qt_version)"
        ),
        [
            "from_pyqt_importlib | method | qutebrowser/utils/version.py | -",
            "from_qt | method | qutebrowser/utils/version.py | -",
        ]
    );
}

#[test]
fn entries_on_one_line() {
    // openlibrary-ba3abfb6
    assert_eq!(
        read(
            "The golden patch introduces the following new public interface: Function: `is_promise_item(rec: dict)` Location: `openlibrary/catalog/utils/__init__.py` Inputs: - `rec`: A dictionary. Outputs: - Returns `True`. Description: Determines whether a book record is a promise item."
        ),
        ["is_promise_item | Function | openlibrary/catalog/utils/__init__.py | -"]
    );
    // openlibrary-757fcf46
    assert_eq!(
        read(
            "The patch adds the following new interface: Function name: expand_record Location: openlibrary/catalog/utils/init.py Inputs: rec (dict): An edition record."
        ),
        ["expand_record | Function | openlibrary/catalog/utils/init.py | -"]
    );
}

#[test]
fn entity_bullets_under_a_module() {
    // qutebrowser-394bfaed
    let text = "Type: File\n\nName: qutebrowser.misc.elf\n\nPath: qutebrowser/misc/elf.py\n\nDescription: A new module.\n\nPublic Entities:\n\n- `ParseError(Exception)`: New exception raised on ELF parsing errors.\n\n- `Bitness(enum.Enum)`, `Endianness(enum.Enum)`: Enums for ELF file properties.\n\n- `get_rodata_header(f)`: A function that finds the `.rodata` section header.";
    assert_eq!(
        read(text),
        [
            "elf | File | qutebrowser/misc/elf.py | -",
            "ParseError | Class | - | -",
            "Bitness | Class | - | -",
            "Endianness | Class | - | -",
            "get_rodata_header | Function | - | -",
        ]
    );
}

#[test]
fn settings_keep_their_dotted_names() {
    // qutebrowser-ec2dcfce: a second `Type:` that describes the value opens no entry of its own.
    assert_eq!(
        read(
            "Type: Setting\nName: content.javascript.log_message.levels\nPath: qutebrowser/config/configdata.yml\nType: Dict[String, FlagList[debug|info|warning|error]], none_ok: True\nDescription: Defines which levels are shown."
        ),
        ["content.javascript.log_message.levels | Setting | qutebrowser/config/configdata.yml | -"]
    );
}

#[test]
fn go_and_markdown_layouts() {
    // teleport-3587cca7: declarations as markdown headings, under a heading naming the package.
    assert_eq!(
        read(
            "#### **vendor/github.com/hashicorp/golang-lru**\n\n##### `type Cache`\n\n* **Description**: A thread-safe LRU cache.\n\n##### `func New(size int) (*Cache, error)`\n\n* **Inputs**:\n\n  1. `size int` – maximum number of entries."
        ),
        [
            "Cache | - | vendor/github.com/hashicorp/golang-lru | -",
            "New | - | vendor/github.com/hashicorp/golang-lru | -"
        ]
    );
    // teleport-db892069: the name given as the type.
    assert_eq!(
        read(
            "Type: `SSOLoginFunc`\n\nPackage: `github.com/gravitational/teleport/lib/client`\n\nInputs:\n\n- `ctx context.Context`"
        ),
        ["SSOLoginFunc | - | github.com/gravitational/teleport/lib/client | -"]
    );
    // A Go method with its receiver.
    assert_eq!(
        read("Function: func (f *Forwarder) ServeHTTP(rw http.ResponseWriter, r *http.Request)"),
        ["ServeHTTP | Function | - | -"]
    );
    // flipt-8bd3604d, flipt-c188284f: Go's method expressions, pointer receiver or not.
    assert_eq!(
        read(
            "Name: `(*LeveledLogger).Error`\nType: Method\nLocation: `internal/server/audit/template/leveled_logger.go`\n\nName: `(ECR).Credential`\nType: method\nPath: `internal/oci/ecr/ecr.go`"
        ),
        [
            "Error | Method | internal/server/audit/template/leveled_logger.go | LeveledLogger",
            "Credential | method | internal/oci/ecr/ecr.go | ECR"
        ]
    );
    // protonmail-5f0745dd: keys without colons, values on the next line.
    assert_eq!(
        read(
            "1. Name\nValidatedBitcoinToken\n\nPath\npackages/components/containers/payments/Bitcoin.tsx\n\nInput\nN/A (type)\n\n2. Name\nBitcoinInfoMessage\n\nPath\npackages/components/containers/payments/BitcoinInfoMessage.tsx"
        ),
        [
            "ValidatedBitcoinToken | - | packages/components/containers/payments/Bitcoin.tsx | -",
            "BitcoinInfoMessage | - | packages/components/containers/payments/BitcoinInfoMessage.tsx | -",
        ]
    );
}

#[test]
fn markdown_escapes_and_rare_keys() {
    // qutebrowser-322834d0: `check\_qt\_available`, `Patch:` for the path.
    assert_eq!(
        read(
            "Type: Function\n\nPatch: qutebrowser/misc/earlyinit.py\n\nName: check\\_qt\\_available\n\nInput: info: SelectionInfo"
        ),
        ["check_qt_available | Function | qutebrowser/misc/earlyinit.py | -"]
    );
    // teleport-c1b1c6a1: "Name of public interface:", "Pathfile:".
    assert_eq!(
        read(
            "1. Name of public interface: UnpackChecker\nInput: ctx context.Context\nDescripcion: Returns whether the session is unpacked.\nPathfile: lib/events/auditlog.go"
        ),
        ["UnpackChecker | - | lib/events/auditlog.go | -"]
    );
}

#[test]
fn kinds_map_to_definition_kinds() {
    let kind = |t: &str| InterfaceEntry { kind_text: Some(t.into()), ..InterfaceEntry::default() }.def_kind();
    assert_eq!(kind("Class method (public)."), DefKind::Method);
    assert_eq!(kind("Class (Exception)"), DefKind::Class);
    assert_eq!(kind("New File "), DefKind::File);
    assert_eq!(kind("Enum"), DefKind::Enum);
    assert_eq!(kind("Constant"), DefKind::Constant);
    assert_eq!(kind("Function (completion provider)"), DefKind::Function);
    assert_eq!(kind("Method (constructor)"), DefKind::Constructor);
    // qutebrowser-7b603dd6: "module" qualifies the function.
    assert_eq!(kind("Function (module-level)"), DefKind::Function);
    assert_eq!(kind("Module"), DefKind::File);
    assert_eq!(InterfaceEntry::default().def_kind(), DefKind::Function);
}

#[test]
fn the_content_of_a_new_file_names_nothing() {
    // flipt-524f2773: a YAML fixture's content, whose `name:` lines are no entries.
    let text = "Type: Struct\n\nName: `Segments`\n\nPath: internal/ext/common.go\n\nType: File\nPath: internal/ext/testdata/import_rule_multiple_segments.yml\nContent: \n\"\"\"\nflags:\n\n  - key: flag1\n\n    name: flag1\n\n    type: \"VARIANT_FLAG_TYPE\"\n\"\"\"\n\nType: Function\n\nName: `MarshalYAML`\n\nPath: `internal/ext/common.go`";
    assert_eq!(
        read(text),
        [
            "Segments | Struct | internal/ext/common.go | -",
            "import_rule_multiple_segments | File | internal/ext/testdata/import_rule_multiple_segments.yml | -",
            "MarshalYAML | Function | internal/ext/common.go | -",
        ]
    );
    // Unfenced, the content runs to the next entry's key.
    assert_eq!(
        read(
            "Type: File\nPath: config/app.yml\nContent:\n  name: app\n  type: web\nType: Function\nName: Load\nPath: config/load.go"
        ),
        ["app | File | config/app.yml | -", "Load | Function | config/load.go | -"]
    );
}

#[test]
fn methods_listed_under_a_class() {
    // tutanota-1e516e98: `Static Methods:` and `Methods:` lists inside the class's Inputs/Outputs.
    let text = "Name: PriceAndConfigProvider\nType: Class\nFile: src/subscription/PriceUtils.ts\nInputs/Outputs:\n\n Constructor:\n\n    Input: (private) — use the static factory below to create instances\n\n  Static Methods:\n\n    - getInitializedInstance(registrationDataId: string | null, serviceExecutor?: IServiceExecutor)\n\n      Output: Promise<PriceAndConfigProvider>\n  Methods:\n\n    - getSubscriptionPrice(paymentInterval: PaymentInterval, subscription: SubscriptionType)\n\n      Output: number\n\n    - getRawPricingData()\n\n      Output: UpgradePriceServiceReturn\n\nName: UpgradePriceType\nType: Enum\nFile: src/subscription/PriceUtils.ts";
    let names: Vec<String> = read(text);
    assert_eq!(
        names,
        [
            "PriceAndConfigProvider | Class | src/subscription/PriceUtils.ts | -",
            "getInitializedInstance | Method | src/subscription/PriceUtils.ts | PriceAndConfigProvider",
            "getSubscriptionPrice | Method | src/subscription/PriceUtils.ts | PriceAndConfigProvider",
            "getRawPricingData | Method | src/subscription/PriceUtils.ts | PriceAndConfigProvider",
            "UpgradePriceType | Enum | src/subscription/PriceUtils.ts | -",
        ]
    );
    let entries = parse_interface(text);
    assert_eq!(entries[2].output.as_deref(), Some("number"));
}

#[test]
fn a_name_is_the_identifier_alone() {
    // A description after the name, a package-qualified Go name.
    assert_eq!(
        read(
            "Name: ShareURL - returns the public URL of a share\nType: Function\nPath: server/public/public_endpoints.go\n\nName: `audit.Sink`\nType: Interface\nPath: internal/server/audit/audit.go"
        ),
        [
            "ShareURL | Function | server/public/public_endpoints.go | -",
            "Sink | Interface | internal/server/audit/audit.go | audit",
        ]
    );
}

#[test]
fn fields_listed_under_a_struct() {
    // vuls-83bcca6e, flipt-e50808c0: each field a member of its struct, whatever its layout.
    assert_eq!(
        read(
            "Type: `Struct`  \n\nName: `ListenPort`  \n\nPath: `models/packages.go` \n\nFields:  \n\n- Address string `json:\"address\"`: The network address.  \n\n- `PortScanSuccessOn []string` `json:\"portScanSuccessOn\"`: Addresses where the port is open.  \n\nDescription: A structured endpoint.\n\n---\n\nType: `Function`  \n\nName: `HasPortScanSuccessOn`  \n\nPath: `models/packages.go`  \n\nReceiver: `Package`"
        ),
        [
            "ListenPort | `Struct` | models/packages.go | -",
            "Address | Field | models/packages.go | ListenPort",
            "PortScanSuccessOn | Field | models/packages.go | ListenPort",
            "HasPortScanSuccessOn | `Function` | models/packages.go | Package",
        ]
    );
}
