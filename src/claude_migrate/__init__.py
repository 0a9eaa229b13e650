"""claude-migrate: a migration linter and codemod for Python codebases that call Claude."""

__version__ = "0.1.0"
