"""File formats: Knuth's DLX text format (and later puzzle and board files)."""
