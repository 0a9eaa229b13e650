"""Response-cache keys in code (CM106): how a digest flows into a key, and how a key is rebuilt
from the policy's template. Their vocabulary is `targets/cache_vocabulary.py` (the triage reads
it too)."""
