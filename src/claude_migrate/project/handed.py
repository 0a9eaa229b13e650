"""Whether a module-level name's object is ever handed on, read from the text of the run's files.

A write `args.model = "gpt-4o"` in one file can change the object another file binds to
`settings = Settings()` only when the object reaches the code that writes it: when that code
spells a name the object is bound to (`settings.model = ...`, `chat.settings.model = ...`), or
when the object is handed on somewhere (`configure(settings)`, `s = settings`, `return settings`,
`getattr(chat, "settings")`), after which any name may hold it. `held_apart` answers the second
question for one name over one file: every use of the name reads or sets an attribute of what it
names (`settings.model`, `settings.model = m`, `settings.dump()`), binds it (`settings = ...`),
imports it under its own name, or declares it `global`. Anything else, or a file the tokenizer
cannot read, counts as handing it on.

A file that neither defines the object (`home`) nor imports the name (`from app.config import
settings`, or `*`) cannot reach it by the bare name: its `settings` is its own (a parameter, a
local, a global of its own), so only its attribute reads (`foo(config.settings)`) and strings
count there.

Tokens, not bytes: a comment or a docstring that says "settings" hands nothing on, a string that
is the name alone (`getattr(module, "settings")`, `__all__`) does. Identifiers are compared in the
NFKC form Python reads them as (https://docs.python.org/3/reference/lexical_analysis.html#identifiers).
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator

from claude_migrate.core.source import nfkc

# Tokens that end a logical line or shape indentation: what stands before a statement's first token.
_STARTS = (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING)
_SKIPPED = (tokenize.NL, tokenize.COMMENT)
# A string's prefix and quotes, around its text.
_QUOTED = re.compile(r"(?is)^([rbuf]*)('''|\"\"\"|'|\")(.*)\2$")
# Statements whose every name binds or declares rather than hands an object on.
_DECLARING = ("global", "nonlocal")


def held_apart(text: str, name: str, home: bool = True) -> bool:
    """Return whether every use of `name` in a module's text reads or sets an attribute of the
    object it names, binds the name, imports it under its own name or declares it global.

    `home`: whether the module may define the object. Elsewhere the bare name is the object
    only where the module imports it (`_imports`); otherwise only `x.name` and strings count.
    """
    if name not in nfkc(text):
        return True
    try:
        tokens = [token for token in _tokens(text) if token.type not in _SKIPPED]
    except (tokenize.TokenError, SyntaxError, ValueError):
        return False
    bare = home or _imports(tokens, name)
    first = None  # the first token of the logical line
    for index, token in enumerate(tokens):
        before = tokens[index - 1] if index else None
        if _starts(before):
            first = token.string
        if token.type == tokenize.STRING and _names(token.string, name):
            return False
        if token.type == tokenize.NAME and _same(token.string, name):
            if not bare and (before is None or before.string != "."):
                continue  # the module's own name: a parameter, a local or a global of its own
            after = tokens[index + 1 : index + 3]
            if not _kept_use(before, after, first):
                return False
    return True


def _imports(tokens: list[tokenize.TokenInfo], name: str) -> bool:
    """Return whether an import statement may bind `name` in the module: a logical line holding
    `import` that spells it (`from app.config import settings`, `import x as settings`, also
    after `if TYPE_CHECKING:` on the same line), or a star import."""
    importing = spelled = False
    for token in tokens:
        if token.type == tokenize.NEWLINE or token.string == ";":
            if importing and spelled:
                return True
            importing = spelled = False
        elif token.type == tokenize.NAME and token.string == "import":
            importing = True
        elif token.string == "*" or (token.type == tokenize.NAME and _same(token.string, name)):
            spelled = True
    return importing and spelled


def _tokens(text: str) -> Iterator[tokenize.TokenInfo]:
    return tokenize.generate_tokens(io.StringIO(text).readline)


def _same(spelled: str, name: str) -> bool:
    return spelled == name or (not spelled.isascii() and nfkc(spelled) == name)


def _names(literal: str, name: str) -> bool:
    """Return whether a string token may name `name`: its text is the name (`"settings"`), or an
    f-string's text spells it as a word (Python before 3.12 gives an f-string as one token)."""
    match = _QUOTED.match(literal)
    if match is None:
        return name in literal
    prefix, body = match.group(1).lower(), match.group(3)
    if "f" in prefix:
        return re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", nfkc(body)) is not None
    return body.strip() == name


def _kept_use(
    before: tokenize.TokenInfo | None, after: list[tokenize.TokenInfo], first: str | None
) -> bool:
    """Return whether one use of the name keeps its object where it is."""
    following = after[0].string if after else ""
    if following == "." and len(after) > 1 and after[1].type == tokenize.NAME:
        # `settings.model`, `settings.model = m`, `settings.dump()`: an attribute of the
        # object, not the object itself. A dunder (`settings.__dict__`, `__setattr__`) reaches
        # every field by a computed name.
        return not after[1].string.startswith("__")
    if first in ("import", "from"):
        # `from app.chat import settings`: bound under its own name here (`as s` renames it).
        return following != "as" or (before is not None and before.string == "as")
    if first in _DECLARING:
        return True
    # `settings = Settings()` (or annotated): the name is bound, nothing is handed on.
    return _starts(before) and following in ("=", ":")


def _starts(before: tokenize.TokenInfo | None) -> bool:
    """Return whether a token begins a statement (after a line's end, indentation or `;`)."""
    return before is None or before.type in _STARTS or before.string == ";"
