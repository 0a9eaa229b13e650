"""Plain types and small helpers every stage uses: findings, errors, paths, file kinds."""
