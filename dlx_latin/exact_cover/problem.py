"""The generalized exact-cover problem: primary items, secondary items with colors, options.

A solution is a set of options that covers every primary item exactly once and every secondary item at most
once -- or several times, when all the options that hold it give it the same color (Knuth, TAOCP 7.2.2.1,
Algorithm C).  A primary item may instead carry bounds [u, v]: it must then lie in at least u and at most v
chosen options (Algorithm M), and each combination of options is still found exactly once.  As in Knuth's
programs, an option with no primary item is never part of a solution.
Solutions are reported as sorted tuples of option indices.
"""

from __future__ import annotations

import operator
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from dlx_latin.errors import UserInputError
from dlx_latin.exact_cover.kernel import KernelArrays, Search, int32, kernel_search
from dlx_latin.exact_cover.settings import DEFAULT, CountSettings

BATCH_SIZE = 1024


class InvalidProblemError(UserInputError):
    """An exact-cover problem that cannot be built: the message names the culprit."""


class NoSolutionFoundError(UserInputError):
    """Randomized searches for one solution ran out of their node budgets before finding one."""


class Colored(NamedTuple):
    """A secondary item inside an option, with the color the option gives it."""

    item: Hashable
    color: Hashable


Entry = Any  # an item name, or Colored(item, color)

RESTART_NODES = 1 << 18  # first node budget of a randomized search before it restarts


def _bound_pair(item: Hashable, bound: int | tuple[int, int]) -> tuple[int, int]:
    """(u, v) from v or (u, v), checked: 0 <= u <= v and v >= 1 (an item no option may cover is refused)."""
    try:
        u, v = (bound, bound) if not isinstance(bound, Iterable) else tuple(bound)
        u, v = operator.index(u), operator.index(v)
    except (TypeError, ValueError):
        raise InvalidProblemError(
            f"bounds of item {item!r} must be v or (u, v) integers, not {bound!r}"
        ) from None
    if v >= 2**31:
        raise InvalidProblemError(f"upper bound {v} of item {item!r} is too large")
    if u < 0 or v < 0:
        raise InvalidProblemError(f"bounds of item {item!r} are negative: {u}:{v}")
    if u > v:
        raise InvalidProblemError(f"lower bound {u} of item {item!r} exceeds its upper bound {v}")
    if v == 0:
        raise InvalidProblemError(f"upper bound of item {item!r} is zero")
    return u, v


class ExactCoverProblem:
    """An immutable exact-cover problem with optional secondary items and colors.

    Examples
    --------
    >>> p = ExactCoverProblem(["a", "b"], [["a"], ["b"], ["a", "b"]])
    >>> p.count()
    2
    >>> sorted(p.solutions())
    [(0, 1), (2,)]

    Bounds: choose between 1 and 3 of four copies of an option (4 + 6 + 4 ways).

    >>> ExactCoverProblem(["a"], [["a"]] * 4, bounds={"a": (1, 3)}).count()
    14

    `sharp`: primary items the search prefers (Knuth's sharp preference: an item not sharp is branched on
    only when it is forced or no sharp item is left); it changes the search's order, never a count.
    """

    def __init__(
        self,
        primary: Iterable[Hashable],
        options: Iterable[Iterable[Entry]],
        secondary: Iterable[Hashable] = (),
        bounds: Mapping[Hashable, int | tuple[int, int]] | None = None,
        sharp: Iterable[Hashable] = (),
    ) -> None:
        self.primary: tuple = tuple(primary)
        self.secondary: tuple = tuple(secondary)
        self.options: tuple[tuple[Entry, ...], ...] = tuple(tuple(o) for o in options)
        index: dict[Hashable, int] = {}
        for number, item in enumerate(self.primary + self.secondary, start=1):
            if item in index:
                raise InvalidProblemError(f"item {item!r} is declared twice")
            index[item] = number
        n1 = len(self.primary)
        self.bounds: dict[Hashable, tuple[int, int]] = {}
        lower = int32([1] * n1)
        upper = int32([1] * n1)
        for item, bound in (bounds or {}).items():
            u, v = _bound_pair(item, bound)
            number = index.get(item)
            if number is None:
                raise InvalidProblemError(f"bounds given for unknown item {item!r}")
            if number > n1:
                raise InvalidProblemError(
                    f"bounds given for secondary item {item!r}: only primary items have them"
                )
            if (u, v) != (1, 1):
                self.bounds[item] = (u, v)
            lower[number - 1], upper[number - 1] = u, v
        color_ids: dict[Hashable, int] = {}
        starts = int32([0] * (len(self.options) + 1))
        items: list[int] = []
        colors: list[int] = []
        for k, option in enumerate(self.options):
            if not option:
                raise InvalidProblemError(f"option {k} is empty")
            seen: set[int] = set()
            for entry in option:
                item, color = (entry.item, entry.color) if isinstance(entry, Colored) else (entry, None)
                number = index.get(item)
                if number is None:
                    raise InvalidProblemError(f"option {k} names unknown item {item!r}")
                if number in seen:
                    raise InvalidProblemError(f"option {k} names item {item!r} twice")
                seen.add(number)
                if color is not None and number <= n1:
                    raise InvalidProblemError(f"option {k} gives color {color!r} to primary item {item!r}")
                items.append(number)
                colors.append(0 if color is None else color_ids.setdefault(color, len(color_ids) + 1))
            starts[k + 1] = len(items)
        self.sharp = frozenset(sharp)
        for item in self.sharp:
            if index.get(item, n1 + 1) > n1:
                raise InvalidProblemError(f"sharp item {item!r} is not a primary item")
        self.kernel_arrays = KernelArrays(
            n1,
            len(self.secondary),
            starts,
            int32(items),
            int32(colors),
            lower,
            upper,
            int32(item in self.sharp for item in self.primary) if self.sharp else None,
        )

    @classmethod
    def from_matrix(cls, matrix: Any, n_primary: int | None = None) -> ExactCoverProblem:
        """A problem from a 2-D array: rows are options, columns items (named by column index).

        The first `n_primary` columns (all, by default) are primary.  A nonzero entry puts the item in the
        option; on a secondary column, a value v >= 2 also gives the item the color v.
        """
        import numpy as np  # only this constructor needs it

        m = np.asarray(matrix)
        if m.ndim != 2:
            raise InvalidProblemError(f"a matrix of options must be 2-D, not {m.ndim}-D")
        n_items = m.shape[1]
        n1 = n_items if n_primary is None else n_primary
        if not 0 <= n1 <= n_items:
            raise InvalidProblemError(f"n_primary={n_primary} is outside 0..{n_items}")
        if np.any(m < 0):
            raise InvalidProblemError("a matrix of options may not hold negative entries")
        if n1 and np.any(m[:, :n1] > 1):
            raise InvalidProblemError("colors (entries >= 2) are allowed on secondary columns only")
        options = []
        for row in m:
            cols = np.flatnonzero(row)
            options.append([int(c) if c < n1 or row[c] == 1 else Colored(int(c), int(row[c])) for c in cols])
        return cls(range(n1), options, range(n1, n_items))

    def search(self, limit: int | None = None, path: Sequence[int] = (), memo: bool | int = False) -> Search:
        """A fresh kernel search over this problem (or the subproblem named by `path`, see `split`),
        stopping after `limit` solutions (None: no limit), with a count memo if `memo` (see `count`)."""
        return kernel_search(self.kernel_arrays, limit, path, memo)

    def count(self, limit: int | None = None, settings: CountSettings = DEFAULT, **how: Any) -> int:
        """The exact number of solutions (at most `limit`), without materializing them.

        `settings` (or its fields as keywords: jobs, executor, progress, memo, checkpoint) say how to run:

        - `memo` remembers the counts of finished subtrees keyed by their exact remaining state (the covered
          items; with bounds, also the bounds left and the options set aside), in a table that grows up to a
          fixed size: True for the default (at most 64 MiB), an int for that many entries, False for the raw
          search that visits every node.  Problems with colors are counted without it.
        - With `checkpoint` (a file path) the count is split into subproblems whose counts are recorded in
          that file as they finish; the same call after an interruption resumes where it stopped.
        - With `jobs` > 1 or an `executor` (a `concurrent.futures.Executor`, e.g. a Dask client's
          `get_executor()`), the problem is split into subproblems counted in parallel; with `jobs` alone
          they run in `jobs` threads sharing one count memo.
        - `progress(nodes, fraction_done)` is called now and then.
        """
        return count_arrays(self.kernel_arrays, limit, settings.updated(**how))

    def random_solution(self, rng: Any, tries: int = 64) -> tuple[int, ...] | None:
        """A random solution (None when there is none): the first one found when branching in an order drawn
        from `rng` (a `random.Random`).  A search that runs long restarts in a new order with a doubled node
        budget (randomized searches have heavy tails); NoSolutionFoundError after `tries` of them."""
        for restart in range(tries):
            search = kernel_search(self.kernel_arrays, limit=1, seed=rng.getrandbits(64))
            found = search.next_batch(1, max_nodes=RESTART_NODES << min(restart, 20))
            if found or search.done:
                return tuple(sorted(found[0])) if found else None
        raise NoSolutionFoundError(f"no solution found in {tries} randomized searches")

    def solutions(self, limit: int | None = None) -> Iterator[tuple[int, ...]]:
        """Stream the solutions (at most `limit`), each a sorted tuple of option indices."""
        if limit == 0:
            return
        search = self.search(limit)
        while not search.done:
            for solution in search.next_batch(BATCH_SIZE):
                yield tuple(sorted(solution))

    def first_solution(self) -> tuple[int, ...] | None:
        """One solution, or None when there is none."""
        return next(self.solutions(limit=1), None)

    def is_unique(self) -> bool:
        """True when there is exactly one solution (the search stops at the second)."""
        return self.count(limit=2) == 1

    def bound(self, item: Hashable) -> tuple[int, int]:
        """The bounds (u, v) of a primary item: (1, 1) unless given otherwise."""
        return self.bounds.get(item, (1, 1))

    def option_items(self, k: int) -> list[Hashable]:
        """The items of option k, colors dropped."""
        return [e.item if isinstance(e, Colored) else e for e in self.options[k]]

    def __repr__(self) -> str:
        return (
            f"ExactCoverProblem({len(self.primary)} primary, {len(self.secondary)} secondary, "
            f"{len(self.options)} options)"
        )


def count_arrays(arrays: KernelArrays, limit: int | None = None, settings: CountSettings = DEFAULT) -> int:
    """The exact count of the problem given by its kernel arrays, run as `settings` say (see
    `ExactCoverProblem.count`): checkpointed, in parallel, or in this thread."""
    if settings.checkpoint is not None or settings.parallel:
        if limit is not None:
            raise ValueError("a limit cannot be combined with a checkpointed or parallel count")
        if settings.checkpoint is not None:
            from dlx_latin.exact_cover.checkpoint import count_with_checkpoint

            return count_with_checkpoint(arrays, settings)
        from dlx_latin.exact_cover.parallel import count_in_parallel

        return count_in_parallel(arrays, settings)
    if limit == 0:
        return 0
    return kernel_search(arrays, limit, memo=settings.memo).count(settings.progress)
