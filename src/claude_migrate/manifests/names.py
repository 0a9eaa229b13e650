"""Package names as the packaging specifications compare them."""

from __future__ import annotations

import re

_SEPARATORS = re.compile(r"[-_.]+")


def canonical_name(name: str) -> str:
    """Return a package name as PEP 503 normalises it (`Foo_Bar.baz` -> `foo-bar-baz`).

    The rule is the specification's own: https://peps.python.org/pep-0503/#normalized-names
    """
    return _SEPARATORS.sub("-", name).lower()
