//! How each use's head is bound where it stands (`local`, `definition`, `import`, `receiver`,
//! or free): what DefUse needs to tell a test's own names from the code's.

check!(
    function_scopes_bind_their_names_everywhere_in_them,
    r#"
from pkg.plotting import plot_grid
import numpy as np


def test_grid(n):
    print(x)
    x = plot_grid(n, n)
    for i in range(n):
        with open(x) as ax:
            total += i
    squares = [j * j for j in range(n)]
    print(j, squares, ax, np.zeros(n))
    if (found := len(squares)) > 0:
        return found
    return lambda k, *rest: k + n + free_name


def later():
    return x
"#
);

check!(
    class_bodies_are_invisible_from_methods,
    r#"
class Config:
    size = 3
    doubled = size * 2

    def grow(self):
        return size + self.size


def size():
    return 1
"#
);

check!(
    global_and_nonlocal_names_are_the_outer_ones,
    r#"
from pkg import registry


def reset():
    global registry
    registry = {}
    return registry
"#
);

check!(
    tests_and_fixtures_request_fixtures_by_parameter_name,
    r#"
import pytest


@pytest.fixture
def server(tmp_path, caplog):
    return tmp_path


def helper(caplog):
    return caplog


class TestServer:
    def test_starts(self, server, caplog):
        assert helper(caplog) is not server

    @staticmethod
    def test_static(monkeypatch):
        pass
"#
);

check!(
    keyword_arguments_are_bound_by_their_callee,
    r#"
from pkg.plots import barplot


def helper(**kwargs):
    return kwargs


def test_calls(klass):
    barplot(errorbar="sd")
    klass(encoding="ascii")
    helper(errorbar=1)
    make()(key=2)
    unknown(value=3)
"#
);
