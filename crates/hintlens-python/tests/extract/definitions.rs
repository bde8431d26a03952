//! What a Python file defines: classes, functions, methods, parameters, fields, variables.

check!(
    class_with_bases_metaclass_and_methods,
    r#"
class Widget(Base, mixins.Sized, metaclass=Meta):
    def render(self, width: int) -> str:
        return ""

    async def fetch(self, url, *, strict: bool = False) -> bytes:
        pass

    @staticmethod
    def make():
        pass
"#
);

check!(
    module_functions_and_async,
    r#"
def fetch(url, *, strict: bool = False) -> str:
    pass

async def stream(
    source,
    chunk_size: int = 1024,
):
    pass

@decorator
@other.thing(flag=True)
def decorated():
    pass
"#
);

check!(
    parameters_of_every_shape,
    r#"
def f(a, b=1, /, c: int = 2, *args: str, d, e: "E" = None, **kwargs):
    pass

def g(*, only_keyword):
    pass

class C:
    @classmethod
    def build(cls, *parts):
        pass
"#
);

check!(
    nested_definitions_inside_test_functions,
    r#"
def test_callback():
    calls = []

    def fake(event, *rest):
        calls.append(event)

    class FakeClient:
        retries = 3

        def get(self, path):
            self.last = path

    total = 0
    for item in calls:
        total += item
"#
);

check!(
    class_attributes_and_dataclass_fields,
    r#"
@dataclass(frozen=True)
class Point:
    x: int
    y: int = 0
    label: Optional[str] = field(default=None)
    count = 0
    a, b = 1, 2

    class Meta:
        ordering = ["x"]
"#
);

check!(
    attributes_holding_a_bare_name,
    r#"
from plugins import eccli_command

pair = (eccli_command, eccli_command)

class TestEccliCommand(ModuleTest):
    module = eccli_command
    first, second = pair
    chained = other = eccli_command
    called = eccli_command.main

    def setUp(self):
        self.klass = Widget
        self.a, self.b = pair
"#
);

check!(
    self_fields_are_declared_once_per_class,
    r#"
class Session:
    timeout = 10

    def __init__(self, client, other):
        self.client = client
        self.retries: int = 3
        self.timeout = 5
        other.name = "not a field of Session"
        if client:
            self.token = client.token
        for _ in range(3):
            with lock:
                try:
                    self.token = None
                except Error:
                    self.failed = True
        self.first, self.second = 1, 2

    def reset(this):
        this.client = None
        this.state = "idle"

    @staticmethod
    def helper(obj):
        obj.static_not_field = 1

    def nested(self):
        def inner(x):
            x.inner_not_field = 2
"#
);

check!(
    module_variables_and_constants,
    r#"
__all__ = ["run", "MAX_SIZE"]
MAX_SIZE = 100
HTTP_2 = True
_private = 1
timeout: float = 2.5
declared: int
first, (second, *rest) = load()
[left, right] = pair
counter = 0
counter = 1
counter += 1
a = b = 3
d[key] = 1
obj.attr = 2
"#
);

check!(
    names_in_module_level_blocks,
    r#"
try:
    import json
    HAS_JSON = True
except ImportError:
    json = None
    HAS_JSON = False
else:
    backend = json
finally:
    done = True

if sys.version_info >= (3, 8):
    from typing import Literal
    compat = True
else:
    compat = False

with open("config") as config_file:
    settings = config_file.read()

for index in range(3):
    last = index

while running:
    tick = step()
"#
);

check!(
    locals_in_functions_are_not_definitions,
    r#"
def compute(values):
    result = 0
    total: int = 0
    for value in values:
        result = result + value
    with open("x") as handle:
        data = handle.read()
    squares = [n * n for n in values]
    if (size := len(values)) > 2:
        pass
    callback = lambda item, scale=2: item * scale
    return result
"#
);

check!(
    generic_syntax_and_type_aliases,
    r#"
class Box[T: Hashable](Generic[T]):
    def get[U](self, default: U) -> T | U:
        pass

type Pair[K] = tuple[K, K]
"#
);

check!(
    definition_order_parent_before_children,
    r#"
class Outer:
    class Inner:
        def method(self):
            self.value = 1

    def after(self):
        pass
"#
);

check!(
    conditional_redefinitions_each_declare_their_members,
    r#"
if PY2:
    class Compat:
        text = unicode

        def __init__(self):
            self.encoding = "latin-1"
else:
    class Compat:
        text = str

        def __init__(self):
            self.encoding = "utf-8"

    def helper():
        pass

helper = wraps(helper)
"#
);
