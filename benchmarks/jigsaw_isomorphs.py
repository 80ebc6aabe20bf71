"""How many canonical covers of one part of `jigsaw count 7` have the count of another (a memo's reach).

    python benchmarks/jigsaw_isomorphs.py [TILE_HEX ...] [--rounds R] [--check] [--nauty]

Permuting rows, permuting columns, transposing and renaming regions keep a cover's number of jigsaw Latin
squares.  A key that sorts rows and columns by colours refined R times (each row by the regions it meets,
their cells in it and the colours of those cells' columns; each column alike; each region by the colours
of its rows and columns) and then names regions by first appearance is the same for two covers only when
one is such an image of the other: a count memo keyed by it is exact.  The script lists the part's covers
(those holding the given tiles, bitsets in hex; default the heaviest part found, `bf 103e40`), keeps the
least of each orbit under the square's 8 symmetries (as the walk does), and prints how many distinct keys
they have after each round; --check counts the squares of the first CHECKED covers and checks that covers
sharing a key have equal counts; --nauty gives the classes under those maps (the best any key can do).
"""

from __future__ import annotations

import sys
import time
from collections import Counter, defaultdict

N = 7
CHECKED = 20_000  # covers whose keys are checked against their counts (--check)


def part_covers(prefix: list[int]) -> list[str]:
    """The least region string of each orbit among the covers holding the `prefix` tiles."""
    from dlx_latin.exact_cover import ExactCoverProblem
    from dlx_latin.jigsaw.dissections import canonical_cover, region_string, square_transforms, tiles

    laid = [tuple(c for c in range(N * N) if t >> c & 1) for t in prefix]
    covered = {c for tile in laid for c in tile}
    options = [t for t in tiles(N) if not covered.intersection(t)]
    problem = ExactCoverProblem([c for c in range(N * N) if c not in covered], [list(t) for t in options])
    transforms = square_transforms(N)
    out = []
    for solution in problem.solutions():
        regions = region_string(N, laid + [options[k] for k in solution])
        if canonical_cover(regions, transforms) == regions:
            out.append(regions)
    return out


def _ranks(values: list) -> list[int]:
    order = {v: k for k, v in enumerate(sorted(set(values)))}
    return [order[v] for v in values]


def _line_colours(lines: list[list[str]], crossing: list[int], colour: dict[str, int]) -> list[tuple]:
    """Each line's colour: the regions it meets, with their cells on it and those cells' crossing lines'
    colours."""
    out = []
    for line in lines:
        met = defaultdict(list)
        for b, g in enumerate(line):
            met[g].append(crossing[b])
        out.append(tuple(sorted((colour[g], len(v), tuple(sorted(v))) for g, v in met.items())))
    return out


def key(regions: str, rounds: int) -> str:
    """The cover with rows and columns sorted by refined colours, regions renamed; the lesser of it and
    its transpose's."""
    best = None
    square = [[regions[i * N + j] for j in range(N)] for i in range(N)]
    for grid in (square, [list(col) for col in zip(*square, strict=True)]):
        columns = [list(col) for col in zip(*grid, strict=True)]
        names = sorted({x for row in grid for x in row})
        rows, cols, colour = [0] * N, [0] * N, dict.fromkeys(names, 0)
        for _ in range(rounds):
            shapes = {}
            for g in names:
                cells = [(i, j) for i in range(N) for j in range(N) if grid[i][j] == g]
                shapes[g] = (
                    tuple(sorted(Counter(rows[i] for i, _ in cells).items())),
                    tuple(sorted(Counter(cols[j] for _, j in cells).items())),
                    tuple(sorted(Counter(i for i, _ in cells).values())),
                    tuple(sorted(Counter(j for _, j in cells).values())),
                )
            rows, cols = (
                _ranks(_line_colours(grid, cols, colour)),
                _ranks(_line_colours(columns, rows, colour)),
            )
            colour = dict(zip(names, _ranks([shapes[g] for g in names]), strict=True))
        order_r = sorted(range(N), key=lambda i: rows[i])
        order_c = sorted(range(N), key=lambda j: cols[j])
        renamed: dict[str, str] = {}
        text = "".join(
            renamed.setdefault(grid[i][j], chr(97 + len(renamed))) for i in order_r for j in order_c
        )
        best = text if best is None or text < best else best
    assert best is not None
    return best


def nauty_classes(covers: list[str]) -> int:
    """The classes of the covers under row and column permutations, transposition and renaming."""
    import pynauty

    certificates = set()
    for regions in covers:
        names: dict[str, int] = {}
        adjacency = {v: [] for v in range(3 * N + N * N)}
        for c in range(N * N):
            i, j = divmod(c, N)
            adjacency[3 * N + c] = [i, N + j, 2 * N + names.setdefault(regions[c], len(names))]
        colouring = [set(range(2 * N)), set(range(2 * N, 3 * N)), set(range(3 * N, 3 * N + N * N))]
        graph = pynauty.Graph(3 * N + N * N, adjacency_dict=adjacency, vertex_coloring=colouring)
        certificates.add(pynauty.certificate(graph))
    return len(certificates)


def main() -> None:
    args = sys.argv[1:]
    rounds = 2
    if "--rounds" in args:
        at = args.index("--rounds")
        rounds = int(args[at + 1])
        del args[at : at + 2]
    prefix = [int(a, 16) for a in args if not a.startswith("--")] or [0xBF, 0x103E40]
    start = time.perf_counter()
    covers = part_covers(prefix)
    tiles = " ".join(f"{t:x}" for t in prefix)
    print(f"part {tiles}: {len(covers):,} orbits ({time.perf_counter() - start:.1f} s)")
    for r in range(1, rounds + 1):
        start = time.perf_counter()
        distinct = len({key(c, r) for c in covers})
        print(
            f"{r} round(s): {distinct:,} distinct keys, {1 - distinct / len(covers):.1%} of the counts "
            f"memoized ({time.perf_counter() - start:.1f} s)"
        )
    if "--check" in args:  # the memo is exact: covers of one key have equally many squares
        from dlx_latin.jigsaw.counts import cover_count

        groups = defaultdict(set)
        for c in covers[:CHECKED]:
            groups[key(c, rounds)].add(c)
        shared = [g for g in groups.values() if len(g) > 1]
        assert all(len({cover_count(c) for c in g}) == 1 for g in shared)
        print(f"check: {sum(map(len, shared)):,} covers in {len(shared):,} shared keys, equal counts in each")
    if "--nauty" in args:
        start = time.perf_counter()
        classes = nauty_classes(covers)
        print(
            f"nauty: {classes:,} classes, at most {1 - classes / len(covers):.1%} "
            f"({time.perf_counter() - start:.1f} s)"
        )


if __name__ == "__main__":
    main()
