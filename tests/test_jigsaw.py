"""Jigsaw Sudoku: covers (A172477), jigsaw Latin squares (A172478) and border fillings (A173104)."""

import hashlib
import itertools
import json
import random
import warnings
from collections import Counter

import pytest
from cli import run_cli

from dlx_latin.boards import BoardWarning, board_from_spec
from dlx_latin.exact_cover.checkpoint import checkpoint_key, record_check
from dlx_latin.jigsaw.borders import border_fillings, border_formula, derangements
from dlx_latin.jigsaw.counts import cover_board, cover_count, cover_key, jigsaw_count, per_cover_counts
from dlx_latin.jigsaw.dissections import (
    JigsawOrderError,
    canonical_cover,
    count_covers,
    covers,
    covers_up_to_symmetry,
    square_transforms,
    tiles,
)
from dlx_latin.jigsaw.impossible import impossible_core, impossible_cover, impossible_covers
from dlx_latin.latin import PartialBoard, count_completions


def connected(cells, n):
    cells = set(cells)
    start = next(iter(cells))
    seen, stack = {start}, [start]
    while stack:
        c = stack.pop()
        r, k = divmod(c, n)
        for d in (
            c - n if r else None,
            c + n if r < n - 1 else None,
            c - 1 if k else None,
            c + 1 if k < n - 1 else None,
        ):
            if d in cells and d not in seen:
                seen.add(d)
                stack.append(d)
    return seen == cells


def test_covers_match_a172477():
    assert [count_covers(n) for n in range(1, 8)] == [1, 2, 10, 117, 4006, 451206, 158753814]


def test_frontier_and_exact_cover_counts_agree():
    for n in range(1, 7):
        assert count_covers(n, "frontier") == count_covers(n, "exact-cover")


@pytest.mark.slow
def test_covers_of_order_8():
    assert count_covers(8) == 187497290034  # A172477(8), about 5 minutes


def test_frontier_refuses_order_9():
    with pytest.raises(JigsawOrderError, match="up to 8"):
        count_covers(9)


def test_listed_covers_are_dissections():
    for n in range(2, 6):
        listed = list(covers(n))
        assert len(listed) == len(set(listed)) == count_covers(n)
        for regions in listed:
            groups = {}
            for c, letter in enumerate(regions):
                groups.setdefault(letter, []).append(c)
            assert len(groups) == n and all(len(g) == n and connected(g, n) for g in groups.values())


def test_tiles_are_all_connected_placements():
    """Against brute force for n = 4: every connected 4-cell set whose complement parts fit."""
    from dlx_latin.jigsaw.dissections import parts_fit

    n = 4
    brute = sorted(
        t for t in itertools.combinations(range(16), 4) if connected(t, n) and parts_fit(n, frozenset(t))
    )
    assert tiles(n) == brute


def test_orbits_add_up():
    for n in range(2, 6):
        orbits = covers_up_to_symmetry(n)
        assert sum(orbits.values()) == count_covers(n)
        assert all(size in (1, 2, 4, 8) for size in orbits.values())


def test_jigsaw_latin_squares_match_a172478():
    assert [jigsaw_count(n) for n in range(1, 7)] == [1, 4, 72, 13872, 11762160, 234312972480]
    assert jigsaw_count(5, jobs=2) == 11762160


def test_the_walk_meets_every_cover_and_every_orbit():
    """The orbits the parts of the walk count hold every cover once (A172477), one cover per orbit."""
    from dlx_latin.jigsaw.counts import cover_parts, walk

    for n in range(1, 7):
        walked = [walk(n, p) for _, p in cover_parts(n)]
        assert sum(w[1] for w in walked) == count_covers(n)
        assert sum(w[2] for w in walked) == (len(covers_up_to_symmetry(n)) if n < 6 else 56734)


@pytest.mark.parametrize("n", [4, 5])
def test_each_part_counts_the_least_covers_starting_with_its_tiles(n):
    """Part by part, the walk (which ends a branch as soon as a symmetry makes its tiles lesser) counts
    exactly the canonical covers whose first tiles are the part's, with their orbits and squares."""
    from dlx_latin.jigsaw.counts import cover_parts, walk

    expected: dict[tuple[int, ...], list[int]] = {}
    prefixes = {prefix for _, prefix in cover_parts(n)}
    for regions, orbit in covers_up_to_symmetry(n).items():
        laid = tuple(sum(1 << c for c, x in enumerate(regions) if x == g) for g in dict.fromkeys(regions))
        prefix = next(laid[:k] for k in range(n + 1) if laid[:k] in prefixes)
        totals = expected.setdefault(prefix, [0, 0, 0])
        for i, value in enumerate((orbit * cover_count(regions), orbit, 1)):
            totals[i] += value
    for prefix in prefixes:
        assert list(walk(n, prefix)) == expected.get(prefix, [0, 0, 0]), prefix
    assert sum(1 for prefix in prefixes if prefix not in expected) > 0  # parts with no least cover at all


def test_placement_counts_against_the_engine():
    """Each cover's squares by label placements equal the generic engine's count: every cover of order 4,
    80 random covers of orders 5 and 6, and 3 of order 7."""
    rng = random.Random(7)
    chosen = list(covers(4)) + rng.sample(list(covers(5)), 40)
    chosen += list(itertools.islice(itertools.islice(covers(6), 0, None, 4001), 40))
    chosen += list(itertools.islice(itertools.islice(covers(7), 0, None, 200_000), 3))
    for regions in chosen:
        assert cover_count(regions) == count_completions(cover_board(regions)), regions


def test_placement_counts_with_whole_rows_as_regions():
    """Four whole rows leave 1,680 placements, past MEMO_FOUR_FROM: the count that remembers states with
    four placements left agrees with the engine using the cover's symmetries."""
    from symmetry.pruned import count_by_orbits

    regions = "aaaaaaabbbbbbbcccccccdddddddeeeeefgeefffggfffgggg"
    assert cover_count(regions) == count_by_orbits(cover_board(regions)) == 151_639_326_720


def _image(regions: str, rows: list[int], columns: list[int], transpose: bool, names: str) -> str:
    """The cover with its rows and columns permuted, maybe transposed, its regions renamed."""
    n = len(rows)
    grid = [[regions[rows[i] * n + columns[j]] for j in range(n)] for i in range(n)]
    if transpose:
        grid = [list(line) for line in zip(*grid, strict=True)]
    rename = dict(zip(sorted(set(regions)), names, strict=True))
    return "".join(rename[x] for line in grid for x in line)


def test_covers_sharing_a_key_have_equally_many_squares():
    """The walk's memo is exact: every cover of order 5 and 2,000 of order 6 grouped by key, each group
    with one count; an image by permuting rows and columns, transposing and renaming has the cover's count
    and, when no two rows nor two columns tie, its key."""
    rng = random.Random(3)
    chosen = list(covers(5)) + rng.sample(list(covers(6)), 2000)
    groups: dict[int, set[str]] = {}
    for regions in chosen:
        groups.setdefault(cover_key(regions), set()).add(regions)
    shared = [g for g in groups.values() if len(g) > 1]
    assert sum(map(len, shared)) > 1000  # the memo has work to do
    for group in shared:
        assert len({cover_count(regions) for regions in group}) == 1, group
    regions = chosen[-1]
    for _ in range(20):
        rows, columns = rng.sample(range(6), 6), rng.sample(range(6), 6)
        transpose, names = rng.random() < 0.5, "".join(rng.sample("uvwxyz", 6))
        assert cover_count(_image(regions, rows, columns, transpose, names)) == cover_count(regions)
        same = _image(regions, list(range(6)), list(range(6)), transpose, names)
        assert cover_key(same) == cover_key(regions)
    with pytest.raises(ValueError, match="up to order 7, not 8"):
        cover_key("a" * 8 + "b" * 8 + "c" * 8 + "d" * 8 + "e" * 8 + "f" * 8 + "g" * 8 + "h" * 8)


def test_placement_counts_refuse_bad_covers():
    from dlx_latin.jigsaw.counts import cover_parts

    with pytest.raises(ValueError, match="has 16 cells, not 15"):
        cover_count("a" * 15)
    with pytest.raises(ValueError, match="region 0 has 5 cells"):
        cover_count("aaaaabbbccccdddd")
    with pytest.raises(ValueError, match="outside 0..3"):
        cover_count("aaabbbcccddddeee")
    with pytest.raises(ValueError, match="order 9 outside"):
        cover_count("a" * 81)
    with pytest.raises(JigsawOrderError, match="up to order 8"):
        cover_parts(9)
    assert cover_count("aaabacbbccdbcddd") == 0


def test_per_cover_counts_against_plain_counts():
    """Weighted orbit counts equal the plain count summed over every cover (n = 4)."""
    plain = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BoardWarning)
        for regions in covers(4):
            plain += count_completions(PartialBoard(board_from_spec(f"jigsaw:{regions}")))
    assert plain == sum(orbit * count for _, orbit, count in per_cover_counts(4)) == 13872


def brute_borders(n):
    border = [c for c in range(n * n) if c < n or c >= n * (n - 1) or c % n in (0, n - 1)]
    total = 0
    for labels in itertools.product(range(n), repeat=len(border)):
        at = dict(zip(border, labels, strict=True))
        lines = [[at[c] for c in border if c // n == r] for r in range(n)]
        lines += [[at[c] for c in border if c % n == k] for k in range(n)]
        total += all(len(line) == len(set(line)) for line in lines)
    return total


def test_border_fillings_match_a173104():
    assert [border_fillings(n) for n in range(1, 8)] == [1, 2, 12, 624, 110880, 58769280, 67704940800]
    assert [brute_borders(n) for n in range(1, 4)] == [1, 2, 12]


def test_border_formula_agrees_with_search():
    assert [border_formula(n) for n in range(1, 8)] == [border_fillings(n) for n in range(1, 8)]
    assert border_formula(10) == 3581833707481042944000  # A173104(10)
    assert border_formula(14) == 273823820339488809857168046768783360000
    assert [derangements(n) for n in range(9)] == [1, 0, 1, 2, 9, 44, 265, 1854, 14833]


def test_cli():
    assert run_cli("jigsaw", "covers", "5", "--count").stdout.strip() == "4006"
    assert run_cli("jigsaw", "count", "4").stdout.strip() == "13872"
    assert run_cli("jigsaw", "borders", "6").stdout.strip() == "58769280"
    assert run_cli("jigsaw", "borders", "6", "--method", "search").stdout.strip() == "58769280"
    assert run_cli("jigsaw", "covers", "7", "--count").stdout.strip() == "158753814"
    assert run_cli("jigsaw", "covers", "5", "--count", "--method", "exact-cover").stdout.strip() == "4006"
    assert run_cli("jigsaw", "count", "5", "--jobs", "2").stdout.strip() == "11762160"
    listed = run_cli("jigsaw", "covers", "3").stdout.split()
    assert len(listed) == 10 and "abcabcabc" in listed
    assert run_cli("count", f"jigsaw:{listed[0]}").returncode == 0
    bad = run_cli("jigsaw", "covers", "12")
    assert bad.returncode == 2 and "12 is not in the range" in bad.stderr


def test_impossible_covers_against_every_cover():
    for n in (4, 5):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", BoardWarning)
            plain = sum(
                count_completions(PartialBoard(board_from_spec(f"jigsaw:{regions}")), limit=1) == 0
                for regions in covers(n)
            )
        assert sum(impossible_covers(n).values()) == plain
    assert impossible_covers(4) == {"aaabacbbccdbcddd": 8}  # the one 4x4 cover without a jigsaw Latin square
    assert impossible_covers(3) == {}


def brute_smallest(regions, squares):
    """Fewest clues determining one of the Latin squares that fit the cover, by trying every clue set."""
    n2 = len(regions)
    fits = [s for s in squares if all(len({s[c] for c in range(n2) if regions[c] == r}) == 4 for r in "abcd")]
    if not fits:
        return None
    for k in range(n2 + 1):
        for cells in itertools.combinations(range(n2), k):
            seen = Counter(tuple(s[c] for c in cells) for s in fits)
            if 1 in seen.values():
                return k


def test_smallest_critical_sets_against_brute_force():
    from dlx_latin.jigsaw.critical import distribution

    rows = list(itertools.permutations(range(4)))
    squares = [
        sum(rs, ())
        for rs in itertools.product(rows, repeat=4)
        if all(len({r[k] for r in rs}) == 4 for k in range(4))
    ]
    assert len(squares) == 576
    brute = Counter(brute_smallest(regions, squares) for regions in covers(4))
    assert distribution(4) == brute == Counter({3: 100, 4: 9, None: 8})
    assert distribution(3, jobs=2) == Counter({2: 10})


def test_covers_the_quick_scan_leaves_get_the_same_minima(monkeypatch):
    """The second pass (the long scan, or with no budget hitting sets alone) agrees with the quick scan: on
    every cover of order 4, and on 30 covers of order 5 (seeded)."""
    from dlx_latin.jigsaw import critical

    assert critical.distribution(5) == Counter({4: 3740, 5: 200, 6: 2, None: 64})
    sample = random.Random(6).sample(sorted(covers_up_to_symmetry(5)), 30)
    scanned = critical.scanned_minima(sample)
    assert not any(isinstance(m, critical.Left) for m in scanned)
    by_scan = [None if m is None else m[0] for m in scanned]
    monkeypatch.setattr(critical, "scanned_minima", lambda covers: [critical.Left(None)] * len(covers))
    assert critical.distribution(4) == Counter({3: 100, 4: 9, None: 8})
    monkeypatch.setattr(critical, "LONG_BUDGET", 0)
    assert critical.distribution(4) == Counter({3: 100, 4: 9, None: 8})
    assert [None if m is None else m[0] for m in map(critical.cover_minimum, sample)] == by_scan


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_strip_like_cover_of_order_6_needs_8_clues():
    """Four whole rows as regions: 156,672 Latin squares up to relabelling, 3,456 symmetries."""
    from dlx_latin.jigsaw.critical import cover_minimum

    regions = "aaaaaabbbbbbccccccddddddeeefffeeefff"
    clues, puzzle = cover_minimum(regions)  # about 35 s
    assert clues == len(puzzle) == 8 and count_completions(cover_board(regions).with_clues(puzzle)) == 1


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_smallest_critical_sets_of_order_6():
    from dlx_latin.jigsaw.critical import distribution

    found = distribution(6, jobs=2)  # about 10 minutes on 2 cores
    assert found == Counter({5: 392380, 6: 39824, 7: 1772, 8: 72, 9: 2, None: 17156})
    assert sum(found.values()) == 451206  # A172477


def test_cli_smallest_critical_sets():
    assert run_cli("jigsaw", "scs", "4").stdout.split("\n")[:4] == ["clues covers", "3 100", "4 9", "none 8"]
    lines = [json.loads(line) for line in run_cli("jigsaw", "scs", "3", "--json").stdout.splitlines()]
    assert sum(r["orbit_size"] for r in lines) == 10 and {r["clues"] for r in lines} == {2}
    empty = cover_board(lines[0]["regions"])
    clues = {p: v for p, v in enumerate(sum(lines[0]["puzzle"]["clues"], [])) if v is not None}
    assert len(clues) == 2 and count_completions(empty.with_clues(clues)) == 1
    assert run_cli("jigsaw", "scs", "1").returncode == 2


def test_smallest_critical_sets_resume_from_a_checkpoint(tmp_path):
    """Each cover's minimum is recorded as found; a rerun reads the recorded ones (a record rewritten with a
    valid checksum shows through) and finds the rest, a torn last line ignored."""
    ck = tmp_path / "scs.ck"
    full = run_cli("jigsaw", "scs", "4", "--checkpoint", str(ck), "--jobs", "2")
    assert full.stdout.split("\n")[:4] == ["clues covers", "3 100", "4 9", "none 8"]
    records = [json.loads(line) for line in ck.read_text().splitlines()]
    assert len(records) == 22 and {r["scs"] for r in records} == {4}
    # the four horizontal strips need 4 clues and have 2 images; say 5 instead, re-signed with a plain hash
    # (what a forger without the key can do): the record is not trusted, its cover is searched again
    strips = next(r for r in records if r["regions"] == "aaaabbbbccccdddd")
    assert strips["clues"] == 4 and len(strips["puzzle"]) == 4
    forged = {k: v for k, v in strips.items() if k != "check"} | {"clues": 5, "puzzle": [[0, 1]] * 5}
    others = [json.dumps(r) for r in records if r is not strips][:9]
    plain = hashlib.sha256(json.dumps(forged, sort_keys=True).encode()).hexdigest()[:16]
    assert record_check(strips, checkpoint_key(ck)) == strips["check"] != plain
    ck.write_text("\n".join([json.dumps(forged | {"check": plain}), *others]) + '\n{"scs": 4')
    again = run_cli("jigsaw", "scs", "4", "--checkpoint", str(ck))
    assert again.stdout.split("\n")[:4] == ["clues covers", "3 100", "4 9", "none 8"]
    assert len(ck.read_text().splitlines()) == 1 + 9 + 1 + 13  # the torn line ended; the forged cover redone
    assert run_cli("jigsaw", "scs", "4", "--checkpoint", str(tmp_path)).returncode != 0


def test_constructed_impossible_covers_are_covers():
    for n in range(4, 15):
        regions = impossible_cover(n)
        groups = {}
        for c, letter in enumerate(regions):
            groups.setdefault(letter, []).append(c)
        assert len(regions) == n * n and len(groups) == n
        assert all(len(g) == n and connected(g, n) for g in groups.values())


def test_constructed_impossible_covers_admit_no_latin_square():
    """Whole covers by the solver for n = 4..6; for n = 6..9 already the asterisms the proof uses."""
    assert [cover_count(impossible_cover(n), limit=1) for n in (4, 5, 6)] == [0, 0, 0]
    for n in range(6, 10):
        core = impossible_core(n)
        assert len(core.asterisms) == 7 and count_completions(PartialBoard(core), limit=1) == 0
    assert impossible_cover(4) in impossible_covers(4)


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_constructed_impossible_cover_of_order_7_whole():
    assert cover_count(impossible_cover(7), limit=1) == 0  # about 5 minutes


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_impossible_covers_of_order_6():
    found = impossible_covers(6, jobs=2)  # about 6 minutes on 2 cores
    assert (sum(found.values()), len(found)) == (17156, 2146)
    assert canonical_cover(impossible_cover(6), square_transforms(6)) in found


def test_cli_construct():
    out = run_cli("jigsaw", "impossible", "7", "--construct").stdout.strip()
    assert out == impossible_cover(7)
    bad = run_cli("jigsaw", "impossible", "3", "--construct")
    assert bad.returncode == 1 and "order 3" in bad.stderr


def test_jigsaw_count_resumes_from_its_checkpoint(tmp_path, monkeypatch):
    from dlx_latin.exact_cover.checkpoint import WholeCounts
    from dlx_latin.jigsaw import counts

    parts = len(counts.cover_parts(5))
    checkpoint = str(tmp_path / "jigsaw5.ck")

    class Interrupted(Exception):
        pass

    def interrupt_after_three(done, fraction):
        if done == 3:
            raise Interrupted

    with pytest.raises(Interrupted):
        jigsaw_count(5, checkpoint=checkpoint, progress=interrupt_after_three)
    assert len(WholeCounts(checkpoint).done) == 3
    counted = []
    whole = counts.part_count
    monkeypatch.setattr(counts, "part_count", lambda n, part: counted.append(part) or whole(n, part))
    assert jigsaw_count(5, checkpoint=checkpoint) == 11_762_160  # A172478
    assert len(counted) == parts - 3  # only the parts not recorded
    monkeypatch.setattr(counts, "part_count", whole)  # processes pickle it by name
    assert jigsaw_count(5, jobs=2, checkpoint=str(tmp_path / "fresh.ck")) == 11_762_160
    assert len(WholeCounts(tmp_path / "fresh.ck").done) == parts


def test_jigsaw_count_on_a_dask_cluster():
    distributed = pytest.importorskip("distributed")  # the dask extra (the README's test command installs it)

    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, host="127.0.0.1"
    ) as cluster:
        out = run_cli("jigsaw", "count", "5", "--scheduler", cluster.scheduler_address, "--json")
        assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"count": 11_762_160}
    assert run_cli("jigsaw", "count", "4", "--per-cover", "--checkpoint", "x.ck").returncode == 2
