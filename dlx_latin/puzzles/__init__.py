"""Puzzles: attrition with proofs, fair puzzles and ratings."""
