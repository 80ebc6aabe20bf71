"""Label multisets: the k labels every asterism must hold (Palomo, Def. 3.4).  Labels are ints or strings."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from functools import cached_property

from dlx_latin.errors import UserInputError


class InvalidMultisetError(UserInputError):
    """A multiset that is malformed or does not fit the board."""


Label = Hashable


MAX_LABELS = 1 << 16  # the most labels a multiset may hold


@dataclass(frozen=True)
class Multiset:
    """A label multiset: distinct labels in a fixed order, with their multiplicities.

    >>> m = Multiset.parse("1^2,2^2,x")
    >>> m.labels, m.counts, m.size
    ((1, 2, 'x'), (2, 2, 1), 5)
    """

    labels: tuple[Label, ...]
    counts: tuple[int, ...]

    @classmethod
    def of(cls, labels: Iterable[Label]) -> Multiset:
        """The multiset of a list of labels, distinct labels in order of first appearance."""
        counter = Counter()
        order = []
        for label in labels:
            if isinstance(label, bool) or not isinstance(label, (int, str)):
                raise InvalidMultisetError(f"labels must be integers or strings, not {label!r}")
            if label == "" or label is None:
                raise InvalidMultisetError("a label may not be empty")
            if label not in counter:
                order.append(label)
            counter[label] += 1
        if not order:
            raise InvalidMultisetError("the multiset is empty")
        return cls(tuple(order), tuple(counter[label] for label in order))

    @classmethod
    def parse(cls, spec: str) -> Multiset:
        """A multiset from a comma list (`1,1,2,2`) where `label^m` repeats a label m times (`1^2,2^2`);
        at most MAX_LABELS labels in all (an asterism of any board within reach is far smaller)."""
        counts: Counter = Counter()
        for token in spec.split(","):
            token = token.strip()
            label, caret, times = token.partition("^")
            if not label:
                raise InvalidMultisetError(f"empty label in multiset {spec!r}")
            if caret and not re.fullmatch(r"\d{1,9}", times):
                raise InvalidMultisetError(f"bad repeat {token!r} in multiset {spec!r}: write label^count")
            counts[_label(label)] += int(times) if caret else 1
            if sum(counts.values()) > MAX_LABELS:
                raise InvalidMultisetError(f"the multiset {spec!r} has more than {MAX_LABELS} labels")
        return cls.of(label for label, c in counts.items() for _ in range(c))

    @classmethod
    def default(cls, k: int) -> Multiset:
        """1..k, the multiset used when none is given."""
        return cls(tuple(range(1, k + 1)), (1,) * k)

    @property
    def size(self) -> int:
        return sum(self.counts)

    @cached_property
    def count_of(self) -> dict[Label, int]:
        return dict(zip(self.labels, self.counts, strict=True))

    @cached_property
    def by_count(self) -> tuple[tuple[int, ...], ...]:
        """The label indices grouped by multiplicity, groups in increasing count: the label group permutes
        labels within a group only (two labels of different counts are never exchanged).

        >>> Multiset.parse("1^2,2,3^2,4").by_count
        ((1, 3), (0, 2))
        """
        groups: dict[int, list[int]] = {}
        for j, c in enumerate(self.counts):
            groups.setdefault(c, []).append(j)
        return tuple(tuple(groups[c]) for c in sorted(groups))

    @property
    def distinct(self) -> bool:
        """True when no label repeats."""
        return all(c == 1 for c in self.counts)

    def as_list(self) -> list[Label]:
        """The labels with repeats, in order."""
        return [label for label, c in zip(self.labels, self.counts, strict=True) for _ in range(c)]

    def __str__(self) -> str:
        return ",".join(
            str(label) if c == 1 else f"{label}^{c}"
            for label, c in zip(self.labels, self.counts, strict=True)
        )


def _label(text: str) -> Label:
    return int(text) if re.fullmatch(r"-?\d+", text) else text
