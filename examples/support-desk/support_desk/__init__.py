"""support-desk: answers customer tickets with Claude."""
