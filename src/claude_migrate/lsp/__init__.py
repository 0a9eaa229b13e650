"""The language server: claude-migrate's findings and fixes in an editor, over stdio."""
