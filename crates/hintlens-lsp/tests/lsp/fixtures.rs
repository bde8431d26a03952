//! Fixtures several test modules share.

/// A Python task with a definition of every kind crossing code → test: a new keyword
/// parameter of an existing function, a new function, class, method, instance and class
/// attribute, and a new module; plus a new class nothing uses.
pub const PYTHON_API: &str = r#"
//- /pkg/__init__.py
//- base /pkg/api.py
def fetch(url):
    return url
//- work /pkg/api.py
def fetch(url, strict=False):
    return url


def normalize(url):
    return url.lower()


class Client:
    retries = 3

    def __init__(self):
        self.timeout = 10

    def get(self, url):
        return fetch(url)


class Unused:
    pass
//- work /pkg/extras.py
def helper():
    return 1
//- base /tests/test_api.py
from pkg.api import fetch


def test_fetch():
    assert fetch("x") == "x"
//- work /tests/test_api.py
from pkg.api import fetch, normalize, Client
from pkg import extras


def test_fetch():
    assert fetch("x", strict=True) == "x"


def test_client():
    c = Client()
    assert c.get("u") == "u"
    assert c.timeout == 10
    assert Client.retries == 3


def test_extras():
    assert normalize("X") == "x"
    assert extras.helper() == 1
"#;

/// Test → code: the tests define a plugin whose hook the new code calls.
pub const PYTHON_HOOK: &str = r#"
//- base /pkg/events.py
def dispatch(plugin, event):
    return None
//- work /pkg/events.py
def dispatch(plugin, event):
    return plugin.on_event(event)
//- work /tests/test_events.py
from pkg.events import dispatch


class RecordingPlugin:
    def on_event(self, event):
        return event


def test_dispatch():
    assert dispatch(RecordingPlugin(), 1) == 1
"#;

/// Java: a new enum constant and method of an existing enum, and a new class and method.
pub const JAVA: &str = r#"
//- base /src/main/java/com/x/Color.java
package com.x;

public enum Color {
    RED,
    GREEN
}
//- work /src/main/java/com/x/Color.java
package com.x;

public enum Color {
    RED,
    GREEN,
    BLUE;

    public String lower() {
        return name().toLowerCase();
    }
}
//- work /src/main/java/com/x/Palette.java
package com.x;

public class Palette {
    public static Color pick() {
        return Color.BLUE;
    }
}
//- work /src/test/java/com/x/PaletteTest.java
package com.x;

import org.junit.Test;

public class PaletteTest {
    @Test
    public void picksBlue() {
        assertEquals(Color.BLUE, Palette.pick());
        assertEquals("blue", Color.BLUE.lower());
    }
}
"#;
