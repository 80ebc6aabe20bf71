"""SQLite catalogs of canonical solutions and puzzles (filled by the catalog issue)."""
