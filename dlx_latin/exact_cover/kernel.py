"""The boundary with the C kernel: a problem as the kernel reads it, and one search over it.

Everything that runs searches -- the problem, the parallel and checkpointed counts, the estimator, random
solutions -- goes through `kernel_search`; nothing else imports `_kernel`.  The arrays are a small
picklable value, so worker processes get a problem without its Python objects.
"""

from __future__ import annotations

import hashlib
import operator
from array import array
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from dlx_latin.errors import UserInputError
from dlx_latin.exact_cover import _kernel

Progress = Callable[[int, float], object]  # called with (nodes so far, estimated fraction done)
Search = _kernel.Search  # one resumable run: count, next_batch, degree, share_memo, stop, sanity

MEMO_BYTES = 64 << 20  # the default memory of the count memo (the kernel knows how many entries fit)
MAX_MEMO_SLOTS: int = _kernel.MAX_MEMO_SLOTS  # the most entries a memo may be asked for
_COUNT_CAP = (1 << 128) - 1


class KernelArrays(NamedTuple):
    """What the kernel searches: items numbered 1..n (primary first), each option's entries from
    `starts[k]` to `starts[k+1]` in `items` (item numbers) and `colors` (0: none), primary bounds, and
    optionally a flag per primary item for Knuth's sharp preference (MRV takes an item that is not sharp
    only when it is forced or no sharp item is left)."""

    n_primary: int
    n_secondary: int
    starts: array
    items: array
    colors: array
    lower: array
    upper: array
    sharp: array | None = None

    def digest(self) -> str:
        """A SHA-256 of exactly what the kernel searches (names checkpoints and shared memos); the sharp
        flags are part of it when given, since they shape the tree that paths name."""
        h = hashlib.sha256()
        for part in self:
            if part is None:
                continue
            h.update(repr(part).encode() if isinstance(part, int) else bytes(part))
            h.update(b"|")
        return h.hexdigest()


def int32(values: Iterable[int]) -> array:
    """A buffer of C ints for the kernel (numpy stays out of the import path of the command line)."""
    return array("i", values)


def memo_request(memo: bool | int | None) -> dict[str, int]:
    """The kernel's memo arguments: none, a number of entries, or (True) as many as fit in MEMO_BYTES."""
    if memo is False or memo is None:
        return {}
    if memo is True:
        return {"memo_bytes": MEMO_BYTES}
    try:
        slots = operator.index(memo)
    except TypeError:
        raise UserInputError(f"the memo size must be True, False or a count, not {memo!r}") from None
    if not 0 <= slots <= MAX_MEMO_SLOTS:
        raise UserInputError(f"the memo size must be between 0 and {MAX_MEMO_SLOTS} entries, not {slots}")
    return {"memo_slots": slots}


def kernel_search(
    arrays: KernelArrays,
    limit: int | None = None,
    path: Sequence[int] = (),
    memo: bool | int = False,
    seed: int | None = None,
    memo_start: int | None = None,
) -> Search:
    """A kernel search over a problem given by its arrays, below `path` (branch indices; see
    `parallel.split`), stopping after `limit` solutions (None: no limit).

    `memo` (True, or a number of entries) gives a count with a bounded memo of finished subtrees; it is used
    only when counting every solution of a problem without colors (and with bounds at most 255).  `seed`
    shuffles the branching order (the items' ties and every item's options), for random solutions.
    `memo_start`: nodes visited before the memo is made (the kernel's default spares small problems; tests
    give 0 to exercise it on them).
    """
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be non-negative, not {limit}")
    cap = 0 if limit is None else min(limit, _COUNT_CAP)  # 0: no limit, for the kernel
    *problem, sharp = arrays
    extra = {} if sharp is None else {"sharp": sharp}
    return _kernel.Search(
        *problem, cap >> 64, cap & (2**64 - 1), int32(path), **memo_request(memo), seed=seed, **extra
    )
