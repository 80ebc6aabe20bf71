"""An independent checker of Latin boards: every asterism holds exactly the multiset (Def. 3.4)."""

from collections import Counter


def is_latin_board(board, multiset_labels, labelling) -> bool:
    """True when each asterism of `board` holds exactly `multiset_labels` (a list with repeats)."""
    if len(labelling) != board.n_points or any(label is None for label in labelling):
        return False
    want = Counter(multiset_labels)
    return all(Counter(labelling[p] for p in asterism) == want for asterism in board.asterisms)


def brute_force_completions(pb) -> list[list]:
    """Every completion of a partial board: fill the empty points in order, backtracking as soon as an
    asterism holds a label more often than the multiset allows (no exact cover involved)."""
    board, want = pb.board, Counter(pb.multiset.as_list())
    labelling = pb.labelling()
    empty = [p for p in range(board.n_points) if labelling[p] is None]
    held = [
        Counter(labelling[p] for p in asterism if labelling[p] is not None) for asterism in board.asterisms
    ]
    out = []

    def fill(i: int) -> None:
        if i == len(empty):
            out.append(list(labelling))
            return
        p = empty[i]
        for label in pb.multiset.labels:
            through = board.point_asterisms[p]
            if all(held[a][label] < want[label] for a in through):
                for a in through:
                    held[a][label] += 1
                labelling[p] = label
                fill(i + 1)
                labelling[p] = None
                for a in through:
                    held[a][label] -= 1

    fill(0)
    return out
