"""One Python file on LibCST: Claude calls, argument values, scopes, positions, edits."""
