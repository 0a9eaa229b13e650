"""Keep the checked tree's code out of claude-migrate's own processes, however they are started.

Python reads modules from places a checked repository can control before any code of ours
runs: `python -m` puts the working folder first on the import path, and a `PYTHONPATH` that
names the checkout (common in CI) puts it there for every start, so the tree's
`sitecustomize.py`, `re.py` or `contextlib.py` would run with the job's secrets.

`protect()` closes both doors for our entry points (the console script, `python -m
claude_migrate[.<module>]`), and does nothing in any other program:

- the import path loses every entry `PYTHONPATH` added that is the working folder, a path
  named on the command line, or a folder inside one of them (and `PYTHONPATH` loses them too,
  for our child processes); entries elsewhere (a team's rule package, a source checkout of
  this tool) stay, and so do the installation's own folders wherever they are;
- `python -m` without `-P`/`-I` starts over at once (same process id, `os.execv`) as a `-c`
  command that drops the working folder before importing anything, then runs the module as
  `-m` would.

Installed, this module's text also runs as a `.pth` start-up line (`PTH_NAME`, written by
`pth_text()`): `site` executes it while it reads site-packages, before `sitecustomize`, before
the console script's own imports and before `python -m` adds the working folder, so nothing of
the tree runs at all. It must therefore need nothing but `os` and `sys` (loaded before `site`
reads `.pth` files) and be silent and harmless in every other Python program of the
environment. When the `.pth` line did not run (`python -S`, a copy of the package on
`PYTHONPATH`), the package calls `protect()` as it is imported: later, so the interpreter's own
start-up imports may already have come from the tree, but nothing after them does.

What no installed code can prevent: a `PYTHONPATH` that names the checkout hands it the
interpreter's core start-up (its `encodings` package is imported before `site`), in every
Python process of the job, ours or not. Run the gate without it (see the README's CI section).
"""

import os
import sys

# The name of the start-up file in site-packages: digits sort before the names other
# distributions use (`_virtualenv.pth`, `__editable__...pth`, `distutils-precedence.pth`),
# whose import lines would otherwise import modules through the path first.
PTH_NAME = "00_claude_migrate_isolation.pth"
_SCRIPT_NAMES = ("claude-migrate",)
_PACKAGE = "claude_migrate"
# Interpreter options that take a value, and those after which the rest is the program's.
_VALUED = "WX"


def _split_command(argv: list[str]) -> tuple[list[str], str | None, str | None, list[str]]:
    """Return (interpreter options, module run by -m, script, program arguments) of a command.

    `argv` is `sys.orig_argv` without the interpreter. A `-c` command or standard input gives
    neither a module nor a script.
    """
    options: list[str] = []
    index = 0
    while index < len(argv):
        arg = argv[index]
        if arg == "--check-hash-based-pycs":
            options += argv[index : index + 2]
            index += 2
            continue
        if arg == "-" or not arg.startswith("-"):
            return options, None, (None if arg == "-" else arg), argv[index + 1 :]
        if arg.startswith("--"):
            return options, None, None, []  # --help, --version: nothing of ours runs
        for position in range(1, len(arg)):
            letter = arg[position]
            if letter not in "cm" + _VALUED:
                continue
            value = arg[position + 1 :]
            used = 1
            if not value:
                value = argv[index + 1] if index + 1 < len(argv) else ""
                used = 2
            if letter in _VALUED:
                options += argv[index : index + used]
                index += used
                break
            if position > 1:
                options.append(arg[:position])
            if letter == "c":
                return options, None, None, []
            return options, value, None, argv[index + used :]
        else:
            options.append(arg)
            index += 1
    return options, None, None, []


def _is_ours(module: str | None, script: str | None) -> bool:
    if module is not None:
        return module == _PACKAGE or module.startswith(_PACKAGE + ".")
    return script is not None and os.path.basename(script) in _SCRIPT_NAMES


def _roots(arguments: list[str]) -> list[str]:
    """Return the folders the run may read: the working folder and those of named paths."""
    roots = [os.path.realpath(os.getcwd())]
    for arg in arguments:
        candidate = arg.partition("=")[2] if arg.startswith("-") else arg
        if not candidate or candidate == "-" or "\0" in candidate:
            continue
        parts = candidate.replace("\\", "/").split("/")
        lexical = not os.path.isabs(candidate) and ".." not in parts
        try:
            if lexical and not os.path.islink(candidate):
                continue  # under the working folder
            real = os.path.realpath(candidate)
            if not os.path.isdir(real):
                real = os.path.dirname(real) if os.path.exists(real) else ""
        except (OSError, ValueError):
            continue
        if real and real not in roots:
            roots.append(real)
    return roots


def _real(entry: str) -> str:
    try:
        return os.path.realpath(entry or ".")
    except (OSError, ValueError):
        return ""


def _inside(real: str, roots: list[str]) -> bool:
    return any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in roots)


def _installed_folders() -> set[str]:
    """Return the folders the environment's `.pth` files put on the path (editable installs).

    Such a folder is the installation's own choice, even inside a checked tree (this tool's
    source checkout, installed in development mode and checked by itself).
    """
    # `site` is the module reading this very line; nothing else may be imported here (any
    # import would search the path before the tree's entries are gone).
    listing = getattr(sys.modules.get("site"), "getsitepackages", None)
    folders: list[str] = list(listing()) if callable(listing) else []
    # Run as a `.pth` line: the site folder `site` is reading (in a virtual environment,
    # `getsitepackages` may still name the base installation's while it does).
    reading = globals().get("_SITEDIR")
    if isinstance(reading, str):
        folders.append(reading)
    found: set[str] = set()
    for folder in folders:
        try:
            names = [name for name in os.listdir(folder) if name.endswith(".pth")]
        except OSError:
            continue
        for name in names:
            try:
                with open(os.path.join(folder, name), encoding="utf-8") as handle:
                    lines = handle.read(1 << 16).splitlines()
            except (OSError, UnicodeDecodeError):
                continue
            for line in lines:
                line = line.strip()
                if line and not line.startswith(("#", "import ", "import\t")):
                    found.add(_real(os.path.join(folder, line)))
    return found


def _bootstrap(module: str) -> str:
    """Return the `-c` command that runs `module` as `python -m` would, minus the cwd entry."""
    return (
        "import sys\n"
        "if sys.path and sys.path[0] == '': del sys.path[0]\n"
        "import runpy\n"
        f"runpy.run_module({module!r}, run_name='__main__', alter_sys=True)\n"
    )


def protect() -> None:
    """Keep the tree's modules off this process's import path if it is one of our commands."""
    if sys.flags.isolated or not hasattr(sys, "orig_argv"):
        return
    options, module, script, arguments = _split_command(list(sys.orig_argv[1:]))
    if not _is_ours(module, script):
        return
    variable = "" if sys.flags.ignore_environment else os.environ.get("PYTHONPATH", "")
    if variable:
        # Only what PYTHONPATH added: the installation's own folders may well sit in the
        # working folder (a project's `.venv`), and they are not the tree's to choose.
        roots = _roots(arguments)
        entries = variable.split(os.pathsep)
        installed = _installed_folders()
        hostile = {
            real
            for real in map(_real, entries)
            if not real or (_inside(real, roots) and real not in installed)
        }
        sys.path[:] = [entry for entry in sys.path if _real(entry) not in hostile]
        kept = [entry for entry in entries if entry and _real(entry) not in hostile]
        if kept:
            os.environ["PYTHONPATH"] = os.pathsep.join(kept)
        else:
            del os.environ["PYTHONPATH"]
    if module is None or getattr(sys.flags, "safe_path", False) or os.name != "posix":
        return
    # `python -m` is about to put the working folder first on the path: start over without it.
    command = [sys.executable, *options, "-c", _bootstrap(module), *arguments]
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    os.execv(sys.executable, command)


def pth_text() -> str:
    """Return the `.pth` start-up line that runs `protect()` from this module's own text."""
    with open(__file__, encoding="utf-8") as handle:
        source = handle.read()
    code = source + "\nprotect()\n"
    return (
        "import sys; exec(compile("
        f"{code!r}, 'claude-migrate isolation ({PTH_NAME})', 'exec'), "
        "{'__name__': 'claude_migrate_isolation', '__file__': None, "
        "'_SITEDIR': locals().get('sitedir')})\n"
    )


def isolated_command(module: str, arguments: list[str]) -> list[str]:
    """Return the command that runs `python -m module arguments` isolated from its folder.

    `-I`: neither the working folder nor `PYTHONPATH`, `PYTHONSTARTUP` or the user's site folder
    is read; the folder this package was imported from is appended to the path (never first)
    so the child finds the same installation.
    """
    home = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    boot = (
        "import sys\n"
        f"sys.path.append({home!r}) if {home!r} not in sys.path else None\n"
        "import runpy\n"
        f"runpy.run_module({module!r}, run_name='__main__', alter_sys=True)\n"
    )
    return [sys.executable, "-I", "-c", boot, *arguments]
