"""Latin boards: multisets, partial Latin boards, their completions and Palomo's puzzle notions."""

from typing import Any

from dlx_latin.latin.completion import (
    NotUniqueError,
    completions,
    count_completions,
    estimate_completions,
    is_completable,
    is_latin_puzzle,
    reduce_to_exact_cover,
)
from dlx_latin.latin.multiset import InvalidMultisetError, Multiset
from dlx_latin.latin.partial import InvalidCluesError, PartialBoard

__all__ = [
    "InvalidCluesError",
    "InvalidMultisetError",
    "Multiset",
    "NotUniqueError",
    "PartialBoard",
    "PuzzleBatch",
    "completions",
    "count_completions",
    "estimate_completions",
    "is_completable",
    "is_critical",
    "is_latin_puzzle",
    "reduce_to_exact_cover",
    "removable_clues",
]


def __getattr__(name: str) -> Any:
    """`PuzzleBatch` (and criticality, which asks it) loads on first use: it brings the process pools that
    most commands never start."""
    if name in ("PuzzleBatch", "is_critical", "removable_clues"):
        from dlx_latin.latin import batch

        return getattr(batch, name)
    raise AttributeError(f"module 'dlx_latin.latin' has no attribute {name!r}")
