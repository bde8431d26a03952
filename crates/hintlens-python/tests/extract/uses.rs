//! How a Python file refers to names: calls, attributes, keywords, types, decorators, bases.

check!(
    calls_with_receivers,
    r#"
run()
obj.method(1)
self.helper.process(x)
pkg.mod.func()
a.b.c()
factory()().go()
items[0].update()
"text".join(parts)
"#
);

check!(
    attributes_loaded_and_stored,
    r#"
value = config.timeout
config.retries = 3
config.nested.level += 1
del cache.entry
print(a.b.c)
(
    builder
    .with_name("x")
    .build()
)
(
    self
    .client
    .get(timeout=1)
)
"#
);

check!(
    keyword_arguments_name_the_callee,
    r#"
fetch(url, strict=True, retries=count)
client.session.get(path, timeout=limits.read)
make()(flag=1)
dict(**options)
"#
);

check!(
    type_annotations,
    r#"
def load(path: pathlib.Path, mode: Optional[str] = None) -> list[Record]:
    cache: dict[str, models.Entry] = {}
    return []

handler: Callable[[Event, int], Awaitable[None]]
alias: "Forward"
union: int | None
nested: typing.Optional[list[a.b.C]]
"#
);

check!(
    decorators,
    r#"
@foo
@foo.bar(x=1)
@pytest.mark.parametrize("n", [1, 2])
@buttons[0].clicked.connect
def handler(n):
    pass

@dataclass
class Config:
    @property
    def name(self):
        pass

    @name.setter
    def name(self, value):
        pass
"#
);

check!(
    base_classes,
    r#"
class A(Base, mod.Mixin, Generic[T], metaclass=Meta, **extra):
    pass

class B(namedtuple("B", "x y")):
    pass

class C:
    pass
"#
);

check!(
    f_string_interpolations_are_uses,
    r#"
message = f"Hello {user.name!r}, you have {count:>{width}} new {kind()}"
nested = f"{f'{inner}'} {{literal}}"
"#
);

check!(
    names_only_in_comments_or_strings_are_not_uses,
    r#"
# helper() is mentioned here, and so is Widget
def run():
    """Calls helper and Widget."""
    log("helper() Widget")
    return 'secret_name'  # secret_name again
"#
);

check!(
    assigned_names_are_not_uses,
    r#"
def work(items, other):
    total = 0
    for index, (key, value) in enumerate(items):
        total += value
    with open(path) as handle, lock:
        pass
    try:
        pass
    except (KeyError, ValueError) as error:
        raise Wrapped(error) from error
    evens = {n for n in items if n % 2 == 0}
    lookup = {k: v for k, v in other}
    if (found := search(items)) is not None:
        return found
    global counter
    nonlocal_name = lambda x, y=default: x + y
"#
);

check!(
    comprehension_and_lambda_reads,
    r#"
squares = [square(n) for n in numbers if n > limit]
pairs = ((a, b) for a in xs for b in ys)
key = lambda item: item.priority
"#
);

check!(
    match_statement_patterns,
    r#"
match command:
    case Point(x=0, y=yy) if yy > limit:
        pass
    case Color.RED | [first, *rest]:
        pass
    case {"action": action, **others}:
        pass
    case shapes.Circle(radius) as circle:
        pass
    case _:
        pass
"#
);
