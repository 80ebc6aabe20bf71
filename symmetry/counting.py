"""Latin boards up to symmetry: one canonical form per class under the board's automorphisms combined with
relabelling, with each class's size.

Every class meets the completions of the leaves of `symmetry.pruned.leaves` (the first asterisms filled by
orbit representatives), so only those completions are listed and put in canonical form by nauty
(`symmetry.nauty_form`): for the 6x6 Sudoku 1,144 grids stand for all 28,200,960.  The orbit sizes of the
classes add up to the plain count, which is checked.  Beyond LEVELS_BEYOND boards, boards of at most 64
points find their classes asterism by asterism instead (`symmetry.levels`), which is then faster; listing
more than MAX_BOARDS Latin boards is refused with a clear message.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from dlx_latin.exact_cover.kernel import Progress
from dlx_latin.exact_cover.settings import DEFAULT, CountSettings
from dlx_latin.latin import PartialBoard, completions
from dlx_latin.latin.completion import reduce_to_exact_cover
from dlx_latin.latin.multiset import Label
from symmetry.canonical import CanonicalForm
from symmetry.errors import SymmetryTooLargeError
from symmetry.nauty_form import NautyCanonizer
from symmetry.pruned import count_by_orbits, leaves

MAX_BOARDS = 500_000
MAX_LISTING_NODES = 200_000_000  # search nodes spent looking for those boards
LEVELS_BEYOND = 2_000  # more boards in the leaves: levels are faster (latin:6, 9,408 boards: 6.9 s -> 0.9 s)


def check_listable(pb: PartialBoard, parts: list, max_boards: int, advice: str) -> None:
    """Refuse (SymmetryTooLargeError, with `advice`) when the leaves hold more than `max_boards` boards, or
    when counting that many takes more than MAX_LISTING_NODES search nodes (listing them would too)."""
    listed = spent = 0  # boards and search nodes of the leaves counted so far
    for leaf in parts:
        if not leaf.partial.is_partial_latin():
            continue
        search = reduce_to_exact_cover(leaf.partial).problem.search(limit=max_boards + 1 - listed, memo=True)
        listed += search.count(max_nodes=MAX_LISTING_NODES + 1 - spent)
        spent += search.nodes
        if listed > max_boards:
            raise SymmetryTooLargeError(
                f"{pb.board.name} needs more than {max_boards} Latin boards listed to find its classes up to "
                f"symmetry; {advice}"
            )
        if not search.done:
            raise SymmetryTooLargeError(
                f"{pb.board.name} needs more than {MAX_LISTING_NODES:,} search nodes to list its Latin "
                f"boards and find their classes up to symmetry; {advice}"
            )


def canonical_classes(
    pb: PartialBoard, max_boards: int = MAX_BOARDS, progress: Progress | None = None
) -> Iterator[CanonicalForm]:
    """The canonical form of every class of Latin boards of an empty board, each once, as found;
    `progress(classes found, share of the leaves listed)` after each leaf.

    >>> from dlx_latin.boards import board_from_spec
    >>> sorted(f.orbit_size for f in canonical_classes(PartialBoard(board_from_spec("sudoku:2x2"))))
    [96, 192]
    """
    if pb.clues:
        raise SymmetryTooLargeError("classes up to symmetry need an empty board: clues break the symmetry")
    parts = leaves(pb)
    check_listable(pb, parts, max_boards, "this method lists at most that many")
    canon = NautyCanonizer(pb.board, pb.multiset)
    seen: set[tuple[Label | None, ...]] = set()
    for done, leaf in enumerate(parts, start=1):
        for labelling in completions(leaf.partial):
            form = canon.form(labelling)
            if form.labelling not in seen:
                seen.add(form.labelling)
                yield form
        if progress is not None:
            progress(len(seen), done / len(parts))


def all_classes(pb: PartialBoard, progress: Progress | None = None) -> Iterator[CanonicalForm]:
    """The canonical form of every class of Latin boards of an empty board, each once: listed from the
    symmetry leaves when they hold at most LEVELS_BEYOND Latin boards (or for boards of over 64 points, up to
    MAX_BOARDS), else found level by level (`symmetry.levels`; yielded once the last level is done).
    `progress(classes or boards so far, fraction done)` now and then.

    >>> from dlx_latin.boards import board_from_spec
    >>> [f.orbit_size for f in all_classes(PartialBoard(board_from_spec("hexagon:3")))]
    [13936573991099572420608000]
    """
    from symmetry.levels import MAX_POINTS, canonical_forms, expand, first_level

    by_levels = not pb.clues and pb.board.n_points <= MAX_POINTS
    try:
        listed = canonical_classes(pb, LEVELS_BEYOND if by_levels else MAX_BOARDS, progress)
        first = next(listed, None)  # the leaves are checked before the first form
    except SymmetryTooLargeError:
        if not by_levels:
            raise
        canon = NautyCanonizer(pb.board, pb.multiset)
        yield from canonical_forms(expand(first_level(pb), canon, progress=progress), canon)
        return
    if first is not None:
        yield first
        yield from listed


def classes_up_to_symmetry(
    pb: PartialBoard, checkpoint: str | None = None, progress: Progress | None = None
) -> dict[tuple[Label, ...], int]:
    """Canonical form -> orbit size of every class of Latin boards of an empty board under its automorphism
    group combined with the label group (`all_classes`); the orbit sizes are checked to add up to the plain
    count (its parts recorded in `checkpoint`, when given); `progress` is called by the listing, then by the
    count.

    >>> from dlx_latin.boards import board_from_spec
    >>> len(classes_up_to_symmetry(PartialBoard(board_from_spec("sudoku:2x2"))))  # essentially different
    2
    """
    found = {form.labelling: form.orbit_size for form in all_classes(pb, progress)}
    total = count_by_orbits(pb, checkpoint=checkpoint, progress=progress)
    if sum(found.values()) != total:
        raise AssertionError(f"orbit sizes add up to {sum(found.values())}, not to the count {total}")
    return found


def count_up_to_symmetry(
    pb: PartialBoard, settings: CountSettings = DEFAULT, terms_progress: Progress | None = None, **how: Any
) -> int:
    """The number of classes of Latin boards under automorphisms and relabelling: by Burnside's lemma when
    the automorphism group is small enough to run through its conjugacy classes (and the multiset allows it;
    the identity's term is the plain count, run with `settings` or its fields as keywords; `terms_progress`:
    see `count_by_burnside`), else by listing the classes (checked against the plain count); either way the
    settings' checkpoint records the parts of that plain count."""
    settings = settings.updated(**how)
    from symmetry.bands import BandsTooLargeError, count_by_bands, sudoku_shape
    from symmetry.burnside import BurnsideUnsupportedError, count_by_burnside, count_latin_square_classes
    from symmetry.canonical import MAX_ELEMENTS
    from symmetry.groups import automorphism_group

    n = _latin_order(pb)
    if n is not None and n >= 3:  # rows, columns, transposition: classes from cycle types
        return count_latin_square_classes(n, relabel=True, transpose=True, plain=count_by_structure(pb))
    shape = sudoku_shape(pb)
    if shape is not None:  # the group's classes from its structure, the identity's term by bands
        from dlx_latin.boards.squares import sudoku
        from symmetry.sudoku_group import sudoku_classes

        try:
            plain = count_by_bands(*shape)
        except BandsTooLargeError:
            pass  # far beyond: the listing below refuses it
        else:  # the group's classes act on the construction's point numbering: count on the construction
            model = PartialBoard(sudoku(*shape), pb.multiset)
            return count_by_burnside(model, sudoku_classes(*shape), settings, terms_progress, plain)
    group = automorphism_group(pb.board)
    if group.order() <= MAX_ELEMENTS:
        try:
            return count_by_burnside(pb, group, settings, terms_progress)
        except BurnsideUnsupportedError:
            pass
    return len(classes_up_to_symmetry(pb, settings.checkpoint, settings.progress))


def count_by_structure(pb: PartialBoard, settings: CountSettings = DEFAULT) -> int | None:
    """The number of Latin boards of an empty sudoku:RxC (by bands) or latin:n up to order 9 (in halves)
    with distinct labels, from the board's structure rather than a search, run as `settings` say (jobs,
    executor, checkpoint, progress); None for any other board."""
    from symmetry.bands import count_sudoku
    from symmetry.halves import MAX_ORDER, count_latin_squares

    if settings.progress is not None:  # the parts' share done, not search nodes
        settings = settings.updated(progress=_share_only(settings.progress))
    n = _latin_order(pb)
    if n is not None and 2 <= n <= MAX_ORDER:
        return count_latin_squares(n, settings)
    return count_sudoku(pb, settings)


def _share_only(progress: Progress) -> Progress:
    """A progress report of the fraction done alone (the parts done are no nodes)."""
    return lambda _done, fraction: progress(0, fraction)


def recorded_structure_count(pb: PartialBoard, settings: CountSettings = DEFAULT) -> int | None:
    """`count_by_structure`, read from or recorded in the checkpoint file of `count --checkpoint` when the
    settings give one (so a bad checkpoint is refused as for any count, and a rerun reads the result; the
    parts of a long count are recorded there too)."""
    if settings.checkpoint is None:
        return count_by_structure(pb, settings)
    from dlx_latin.exact_cover.checkpoint import WholeCounts

    recorded = WholeCounts(settings.checkpoint)
    from symmetry.recognise import certificate

    key = f"structure count of {certificate(pb.board)} with {pb.multiset.size} distinct labels"
    if key in recorded.done:
        return recorded.done[key]
    n = count_by_structure(pb, settings)
    if n is not None:
        recorded.add({key: n})
    return n


def _latin_order(pb: PartialBoard) -> int | None:
    """n when `pb` is an empty board with n distinct labels whose structure is latin:n's, whatever its name
    and point numbering (`symmetry.recognise`), else None."""
    from symmetry.recognise import recognised_empty

    found = recognised_empty(pb)
    return found[0].parameters[0] if found is not None and found[0].family == "latin" else None


def count_up_to_isotopy(pb: PartialBoard) -> int:
    """The isotopy classes of Latin squares (rows, columns and symbols permuted; A040082) of the empty
    latin:n, by Burnside's lemma over cycle types."""
    from symmetry.burnside import count_latin_square_classes

    n = _latin_order(pb)
    if n is None:
        raise SymmetryTooLargeError(
            f"isotopy classes are those of Latin squares: give an empty board whose structure is latin:n's "
            f"(rows and columns) with n distinct labels; {pb.board.name} is not one"
        )
    return count_latin_square_classes(n, relabel=True, transpose=False, plain=count_by_structure(pb))


def count_up_to_geometry(
    pb: PartialBoard, settings: CountSettings = DEFAULT, terms_progress: Progress | None = None, **how: Any
) -> int:
    """The number of classes of Latin boards under the board's rotations and reflections and relabelling
    (Latin polygons and polyhedra up to their symmetry), by Burnside's lemma (the settings' checkpoint
    records the parts of the plain count, the identity's term: the same file as `count BOARD
    --checkpoint`'s; settings and `terms_progress`: see `count_by_burnside`)."""
    settings = settings.updated(**how)
    from symmetry.burnside import count_by_burnside
    from symmetry.groups import geometric_group

    group = geometric_group(pb.board)
    if group is None:
        raise SymmetryTooLargeError(f"{pb.board.name} has no coordinates, so no rotations or reflections")
    return count_by_burnside(pb, group, settings, terms_progress, plain=count_by_structure(pb))
