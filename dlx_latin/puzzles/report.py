"""Palomo's tests of one puzzle in one report: partial Latin, completable, solutions, unique, critical,
removable clues and, for a Latin puzzle, fair, rating and score (what `dlx-latin check` prints)."""

from __future__ import annotations

from dlx_latin.latin import PartialBoard, count_completions, removable_clues

CAP = 1000  # solutions counted up to this many


def check_report(pb: PartialBoard, cap: int = CAP) -> dict:
    """The report as a dict; facts that need a unique completion are None without one."""
    partial_latin = pb.is_partial_latin()
    solutions = count_completions(pb, limit=cap) if partial_latin else 0
    removable = removable_clues(pb) if solutions == 1 else None
    report = {
        "partial_latin": partial_latin,
        "completable": solutions > 0,
        "solutions": solutions,
        "unique": solutions == 1,
        "critical": None if removable is None else not removable,
        "removable_clues": removable,
        "fair": None,
        "rating": None,
        "score": None,
    }
    if solutions == 1:
        from dlx_latin.puzzles.proof import verdict

        proof = verdict(pb)
        report.update(fair=proof.fair, rating=proof.rating, score=proof.score)
    return report
