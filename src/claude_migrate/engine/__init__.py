"""Running the checks: one file, many files in worker processes, the cache, fixing, suppression."""
