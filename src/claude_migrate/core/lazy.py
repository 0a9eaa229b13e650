"""Import a heavy module on first use instead of at import time.

Most files of a real tree never mention Claude, and the prefilter decides them from their bytes
alone; importing LibCST (a third of a second on a 2-core machine, longer than checking the whole
standard library's text) only pays for files that are parsed. Every module the command line
imports on its way to the prefilter (the checks, the registry in `calls.py`, `scope.py`,
`symbols.py`, `values.py`, `edits.py`, the manifest readers) therefore binds LibCST with

    if TYPE_CHECKING:
        import libcst as cst
    else:
        cst = lazy_import("libcst")

uses `cst.` only inside functions, and writes its visitors as plain classes driven by
`walk.walk` (a `cst.CSTVisitor` base class would load LibCST at import).
tests/test_prefilter.py fails when a plain file's check imports LibCST.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy_import(name: str) -> ModuleType:
    """Return module `name`, executed only when one of its attributes is first looked up.

    The module object is the one in `sys.modules`, so a later ordinary `import name` returns the
    same object (loading it then if nobody has touched it yet).
    """
    module = sys.modules.get(name)
    if module is not None:
        return module
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module
