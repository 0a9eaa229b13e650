"""claude-migrate: a migration linter and codemod for Python codebases that call Claude."""

from __future__ import annotations

from claude_migrate.isolation import protect as _protect

# Before anything else of ours is imported; a no-op when the start-up line already ran, or when
# the package is imported by another program (see isolation.py).
_protect()

__version__ = "0.1.0"


def project_url() -> str | None:
    """Return the project's home page as the installed package's metadata declares it, if any.

    `[project.urls]` in pyproject.toml is the one place it is set; reports that link to the
    project (SARIF's `informationUri`) read it from there and leave the link out when there is
    none, rather than invent one.
    """
    from importlib import metadata

    try:
        urls = metadata.metadata("claude-migrate").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return None
    for entry in urls:
        label, _, url = str(entry).partition(",")
        if label.strip().lower() in ("homepage", "home", "source", "repository") and url.strip():
            return url.strip()
    return None
