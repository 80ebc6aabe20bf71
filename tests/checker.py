"""An independent checker of Latin boards: every asterism holds exactly the multiset (Def. 3.4)."""

from collections import Counter


def is_latin_board(board, multiset_labels, labelling) -> bool:
    """True when each asterism of `board` holds exactly `multiset_labels` (a list with repeats)."""
    if len(labelling) != board.n_points or any(label is None for label in labelling):
        return False
    want = Counter(multiset_labels)
    return all(Counter(labelling[p] for p in asterism) == want for asterism in board.asterisms)


def brute_force_completions(pb) -> list[list]:
    """Every completion of a partial board by trying every labelling of its empty points (small boards)."""
    import itertools

    board, labels = pb.board, pb.multiset.labels
    empty = [p for p in range(board.n_points) if p not in pb.clues]
    out = []
    for choice in itertools.product(labels, repeat=len(empty)):
        labelling = pb.labelling()
        for p, label in zip(empty, choice, strict=True):
            labelling[p] = label
        if is_latin_board(board, pb.multiset.as_list(), labelling):
            out.append(labelling)
    return out
