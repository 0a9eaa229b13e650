"""A requirement as written in a dependency file (`Pin`) and what could not be read (`Problem`).

Plain data: every reader produces it, while deciding what a constraint admits (`requirement`,
which needs `packaging`'s parser) is loaded only when a constraint is actually judged.
"""

from __future__ import annotations

from dataclasses import dataclass

from claude_migrate.manifests.names import canonical_name

PEP440 = "pep440"
POETRY = "poetry"
LOCKED = "locked"  # a lock file's resolved version: reported, never edited


@dataclass(frozen=True)
class Pin:
    """One package's constraint as written in a dependency file."""

    name: str  # as written
    start: int  # offsets of the whole requirement in the file's text (position, fingerprint)
    end: int
    spec: str  # the constraint as written ("" for a bare name; the version for LOCKED)
    syntax: str  # PEP440, POETRY or LOCKED
    spec_start: int | None  # where `spec` starts in the file's text; None: not editable in place
    where: str = ""  # the table or section it came from, for messages
    # The command that writes this file when a tool generated it (`uv pip compile ...`): the
    # requirement is then raised in that command's input, never edited here.
    generated: str | None = None
    hashed: bool = False  # the file pins hashes (`--hash=`): an edited version would not install
    # Where `spec` ends in the file's text, when its text there is not `spec` verbatim (a
    # requirement continued on the next line with `\`); None: at `spec_start + len(spec)`.
    spec_end: int | None = None
    # For a TOML string not written verbatim (escapes: `"anthropic\u003e=0.20"`), the value's
    # text before and after `spec`: the span from `spec_start` to `spec_end` is the whole
    # string, and a fix writes it anew (`toml_string`) with the raised constraint in it.
    rewrite: tuple[str, str] | None = None

    @property
    def spec_span(self) -> tuple[int, int] | None:
        """Return the offsets of the constraint in the file's text (None: not editable)."""
        if self.spec_start is None:
            return None
        end = self.spec_end if self.spec_end is not None else self.spec_start + len(self.spec)
        return self.spec_start, end

    @property
    def key(self) -> str:
        return canonical_name(self.name)


@dataclass(frozen=True)
class Problem:
    """A part of a dependency file that cannot be read (a CM001 for its line)."""

    offset: int | None  # where it starts in the text, when known
    message: str
    line: int | None = None  # 1-based, when only the line is known


def toml_string(text: str) -> str:
    """Return `text` as a TOML basic string: `"` and `\\` escaped, and every control character
    but tab as `\\uXXXX` (https://toml.io/en/v1.0.0#string)."""
    out = []
    for char in text:
        if char in ('"', "\\"):
            out.append("\\" + char)
        elif (ord(char) < 0x20 and char != "\t") or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'
