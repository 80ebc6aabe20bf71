"""An independent checker of Latin boards: every asterism holds exactly the multiset (Def. 3.4)."""

from collections import Counter


def is_latin_board(board, multiset_labels, labelling) -> bool:
    """True when each asterism of `board` holds exactly `multiset_labels` (a list with repeats)."""
    if len(labelling) != board.n_points or any(label is None for label in labelling):
        return False
    want = Counter(multiset_labels)
    return all(Counter(labelling[p] for p in asterism) == want for asterism in board.asterisms)
