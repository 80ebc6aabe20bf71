"""Knuth's DLX text format, as read and written by his dlx1, dlx2 and dlx3 programs.

Lines starting with `|` are comments and blank lines are skipped.  The first other line names the items,
primary ones first, then `|`, then the secondary ones.  A primary item may be preceded by bounds, as in
dlx3: `u:v|name` (between u and v options) or `v|name` (exactly v).  Every later line is an option: item
names separated by spaces, a secondary item optionally followed by `:color`.  An option without a primary
item can never be chosen; like Knuth's programs we drop it with a warning.  Unlike his programs, names may
be longer than 8 characters.  Item and color names may not contain whitespace, `:` or `|`.
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable
from dataclasses import dataclass

from dlx_latin.errors import UserInputError
from dlx_latin.exact_cover import Colored, ExactCoverProblem, InvalidProblemError


class DLXFormatError(UserInputError):
    """A malformed DLX file; `line` is the 1-based line number of the culprit (0 for the file as a whole)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.reason = message


class DLXFormatWarning(UserWarning):
    """Something Knuth's programs accept with a warning, such as an option with no primary item."""


@dataclass(frozen=True)
class DLXProblem:
    """A problem read from a DLX file, with each option's text as written there (normalized spacing)."""

    problem: ExactCoverProblem
    option_lines: tuple[str, ...]

    def solution_lines(self, solution: tuple[int, ...]) -> list[str]:
        """The option lines of a solution."""
        return [self.option_lines[k] for k in solution]


def _check_name(name: str, line: int, what: str) -> None:
    if not name:
        raise DLXFormatError(line, f"empty {what} name")
    if ":" in name or "|" in name:
        raise DLXFormatError(line, f"{what} name {name!r} may not contain ':' or '|'")


def read_dlx(text: str, sharp: bool = False) -> DLXProblem:
    """Parse a problem in Knuth's DLX format; with `sharp`, primary items whose names begin with '#' are
    sharp (Knuth's sharp preference: see `ExactCoverProblem`).

    >>> d = read_dlx("| example\\na b | x\\na x:1\\nb x:1\\na b\\n")
    >>> d.problem.count(), d.option_lines
    (2, ('a x:1', 'b x:1', 'a b'))
    """
    primary: list[str] = []
    secondary: list[str] = []
    bounds: dict[str, tuple[int, int]] = {}
    declared: dict[str, bool] = {}  # name -> is primary
    options: list[list] = []
    option_lines: list[str] = []
    have_items = False
    for number, raw in enumerate(text.splitlines(), start=1):
        if raw.startswith("|") or not raw.strip():
            continue
        tokens = raw.split()
        if not have_items:
            have_items = True
            in_secondary = False
            for token in tokens:
                if token.startswith("|"):
                    if in_secondary:
                        raise DLXFormatError(number, "the item line has more than one '|'")
                    in_secondary = True
                    token = token[1:]
                    if not token:
                        continue
                spec, bar, name = token.rpartition("|")
                if bar:
                    if in_secondary:
                        raise DLXFormatError(
                            number, f"bounds on secondary item {name!r}: only primary items have them"
                        )
                    bounds[name] = _parse_bounds(spec, number)
                    token = name
                _check_name(token, number, "item")
                if token in declared:
                    raise DLXFormatError(number, f"item {token!r} is declared twice")
                declared[token] = not in_secondary
                (secondary if in_secondary else primary).append(token)
            if not primary:
                raise DLXFormatError(number, "the item line names no primary item")
            continue
        seen = set(tokens)
        if ":" in raw or "|" in raw or len(seen) < len(tokens) or not seen <= declared.keys():
            option = _option(tokens, declared, number)
        else:
            option = tokens  # plain names (most lines), checked a line at a time
        if not any(map(declared.get, tokens)):  # a colored token is no item name: secondary anyway
            warnings.warn(
                f"line {number}: option ignored (it has no primary item)", DLXFormatWarning, stacklevel=2
            )
            continue
        options.append(option)
        option_lines.append(" ".join(tokens))
    if not have_items:
        raise DLXFormatError(0, "no item line: the file holds no items")
    sharp_items = [name for name in primary if name.startswith("#")] if sharp else []
    return DLXProblem(
        ExactCoverProblem(primary, options, secondary, bounds, sharp_items), tuple(option_lines)
    )


def _option(tokens: list[str], declared: dict[str, bool], number: int) -> list:
    """An option line's items, each checked: declared, once, a color only on a secondary item."""
    option: list = []
    seen: set[str] = set()
    for token in tokens:
        name, colon, color = token.partition(":")
        _check_name(name, number, "item")
        if name not in declared:
            raise DLXFormatError(number, f"unknown item {name!r}")
        if name in seen:
            raise DLXFormatError(number, f"item {name!r} appears twice in this option")
        seen.add(name)
        if colon:
            if declared[name]:
                raise DLXFormatError(number, f"primary item {name!r} may not have a color")
            _check_name(color, number, "color")
            option.append(Colored(name, color))
        else:
            option.append(name)
    return option


def _parse_bounds(spec: str, line: int) -> tuple[int, int]:
    """`u:v` or `v` as (u, v), with the file's line number on any error."""
    low, colon, high = spec.rpartition(":")
    if not colon:
        low = high
    if not (low.isdigit() and high.isdigit()) or not low.isascii() or not high.isascii():
        raise DLXFormatError(line, f"bad bounds {spec!r}: write u:v| or v| with decimal integers")
    u, v = int(low), int(high)
    if u > v:
        raise DLXFormatError(line, f"lower bound {u} exceeds upper bound {v}")
    if v == 0:
        raise DLXFormatError(line, "upper bound is zero")
    if v >= 2**31:
        raise DLXFormatError(line, f"upper bound {v} is too large")
    return u, v


def _name(value: Hashable, what: str) -> str:
    text = str(value)
    if not text or any(c.isspace() for c in text) or ":" in text or "|" in text:
        raise InvalidProblemError(
            f"{what} {value!r} cannot be written in DLX format (empty, or holds whitespace, ':' or '|')"
        )
    return text


def _bounds_prefix(bound: tuple[int, int]) -> str:
    u, v = bound
    return "" if bound == (1, 1) else f"{v}|" if u == v else f"{u}:{v}|"


def write_dlx(problem: ExactCoverProblem, comment: str | None = None) -> str:
    """The problem in Knuth's DLX format; items and colors are written with str().

    >>> print(write_dlx(ExactCoverProblem(["a"], [["a", Colored("x", 1)]], ["x"])), end="")
    a | x
    a x:1
    """
    lines = [f"| {c}" for c in comment.splitlines()] if comment else []
    item_line = " ".join(_bounds_prefix(problem.bound(i)) + _name(i, "item") for i in problem.primary)
    if problem.secondary:
        item_line += " | " + " ".join(_name(i, "item") for i in problem.secondary)
    lines.append(item_line)
    for option in problem.options:
        lines.append(
            " ".join(
                f"{_name(e.item, 'item')}:{_name(e.color, 'color')}"
                if isinstance(e, Colored)
                else _name(e, "item")
                for e in option
            )
        )
    return "\n".join(lines) + "\n"
