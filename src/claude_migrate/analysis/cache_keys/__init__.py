"""Response-cache keys in code (CM106): their vocabulary, how a digest flows into a key, and
how a key is rebuilt from the policy's template."""
