//! Imports in every form: plain, dotted, aliased, from, relative, wildcard, future, nested.

check!(
    plain_and_aliased_imports,
    r#"
import os
import a.b.c
import numpy as np, xml.etree as et
"#
);

check!(
    from_imports,
    r#"
from a.b import c, d as e
from pkg import (
    first,
    second as other,
)
from m import *
from __future__ import annotations
"#
);

check!(
    relative_imports,
    r#"
from .sib import x
from . import y
from ..parent.mod import z as zed
from ... import *
"#
);

check!(
    imports_inside_functions_and_try_blocks,
    r#"
try:
    import ujson as json
except ImportError:
    import json

def lazy():
    from heavy.module import Thing
    return Thing()

if TYPE_CHECKING:
    from typing import Protocol
"#
);
