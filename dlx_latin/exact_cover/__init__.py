"""Generalized exact cover: the problem model and the C search kernel (Knuth's Algorithms C and M)."""

from dlx_latin.exact_cover.problem import (
    Colored,
    ExactCoverProblem,
    InvalidProblemError,
    NoSolutionFoundError,
)
from dlx_latin.exact_cover.settings import CountSettings

__all__ = ["Colored", "CountSettings", "ExactCoverProblem", "InvalidProblemError", "NoSolutionFoundError"]
