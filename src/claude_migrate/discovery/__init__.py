"""Which files a run looks at: paths, folders, excludes, ignore files, git, shards."""
