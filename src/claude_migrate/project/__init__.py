"""The project phase: what modules tell each other, read with `ast` before any file is checked."""
