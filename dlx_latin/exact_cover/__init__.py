"""Generalized exact cover: the problem model and the C search kernel (Knuth's Algorithm C)."""

from dlx_latin.exact_cover.problem import Colored, ExactCoverProblem, InvalidProblemError

__all__ = ["Colored", "ExactCoverProblem", "InvalidProblemError"]
