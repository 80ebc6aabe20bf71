"""Latin boards: multisets, partial Latin boards, their completions and Palomo's puzzle notions."""

from dlx_latin.latin.completion import (
    NotUniqueError,
    completions,
    count_completions,
    estimate_completions,
    is_completable,
    is_critical,
    is_latin_puzzle,
    reduce_to_exact_cover,
    removable_clues,
)
from dlx_latin.latin.multiset import InvalidMultisetError, Multiset
from dlx_latin.latin.partial import InvalidCluesError, PartialBoard

__all__ = [
    "InvalidCluesError",
    "InvalidMultisetError",
    "Multiset",
    "NotUniqueError",
    "PartialBoard",
    "completions",
    "count_completions",
    "estimate_completions",
    "is_completable",
    "is_critical",
    "is_latin_puzzle",
    "reduce_to_exact_cover",
    "removable_clues",
]
