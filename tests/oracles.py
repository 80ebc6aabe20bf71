"""Independent oracles: brute-force enumerators for small problems."""

from collections.abc import Hashable, Sequence

from dlx_latin.exact_cover import Colored, ExactCoverProblem


def brute_force_solutions(problem: ExactCoverProblem) -> set[tuple[int, ...]]:
    """Every solution by trying every subset of options: an independent oracle for small problems."""
    primary = set(problem.primary)
    found = set()
    n = len(problem.options)
    # as in Knuth's programs, an option with no primary item is never part of a solution
    usable = [k for k in range(n) if primary.intersection(problem.option_items(k))]
    for mask in range(1 << len(usable)):
        chosen = [k for b, k in enumerate(usable) if mask >> b & 1]
        if _is_solution(problem, chosen, primary):
            found.add(tuple(chosen))
    return found


def _is_solution(problem: ExactCoverProblem, chosen: Sequence[int], primary: set) -> bool:
    covered: dict[Hashable, list] = {}
    for k in chosen:
        for e in problem.options[k]:
            item, color = (e.item, e.color) if isinstance(e, Colored) else (e, None)
            covered.setdefault(item, []).append(color)
    for item in primary:
        u, v = problem.bound(item)
        if not u <= len(covered.get(item, ())) <= v:
            return False
    for item in problem.secondary:
        colors = covered.get(item, [])
        if len(colors) > 1 and (None in colors or len(set(colors)) > 1):
            return False
    return True


def solutions_with_sane_links(problem: ExactCoverProblem) -> list[tuple[int, ...]]:
    """Every solution, one at a time, checking the kernel's links and lengths (its sanity()) after each
    one and at the end, when the search has undone every move."""
    search = problem.search()
    found = []
    while not search.done:
        found.extend(tuple(sorted(s)) for s in search.next_batch(1))
        search.sanity()
    return found
