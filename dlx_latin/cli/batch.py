"""`solve BOARD --batch FILE` and `check BOARD --batch FILE`: a collection of puzzles, one grid string per
line, answered in input order at C speed (`dlx_latin.latin.batch.PuzzleBatch`)."""

from __future__ import annotations

import json

import click

from dlx_latin.cli.progress import echo, progress_bar
from dlx_latin.cli.text import printable
from dlx_latin.files import byte_blocks, text_lines
from dlx_latin.latin.batch import Answer, BadLine, PuzzleBatch
from dlx_latin.latin.partial import PartialBoard

BAD_MARK = "!"  # the output line of a line that is not a puzzle of the board, so line k still answers line k


def run_batch(
    pb: PartialBoard,
    source: str,
    *,
    check: bool = False,
    unique: bool = False,
    cap: int = 2,
    jobs: int = 1,
    progress: bool | None = None,
    as_json: bool = False,
    critical: bool = False,
    rate: bool = False,
    keep_blank: bool = False,
) -> int:
    """Answer every puzzle line of `source` ('-': standard input) on `pb`'s board -- its solution (solve) or
    facts (check) -- one output line per puzzle, in input order; a bad line is one error line on stderr
    naming its number and, in its place on stdout, BAD_MARK (or a JSON line with its "error"), and the run
    goes on.  Blank and '#' lines print nothing, or an empty line with `keep_blank` (text output).  The exit
    code: 1 if any line was bad, else 0."""
    if pb.clues:
        raise click.UsageError("--batch takes a BOARD: the puzzles are the file's lines")
    batch = PuzzleBatch(pb.board, pb.multiset)
    plain = not as_json and not critical and not rate and not keep_blank and batch.text_tables is not None
    keep_blank = keep_blank and not as_json  # JSON lines are numbered
    with progress_bar(progress, "puzzles") as bar:
        if plain:
            return _write_blocks(
                batch, source, "facts" if check else "unique" if unique else "solution", cap, jobs, bar
            )
        bad = 0
        held: list[str] = []  # results written a block at a time: one write per line would cost more

        def flush() -> None:
            if held:
                echo("\n".join(held), bar)
                held.clear()

        read = [0]  # input lines read so far: the blank lines at the end, with keep_blank

        def counted(lines):
            for line in lines:
                read[0] += 1
                yield line

        lines = counted(text_lines(source, "collection of puzzles", undecodable=True))
        answered = 0  # the input line the last output line answered
        for done, (line, answer) in enumerate(batch.solve_many(lines, cap, jobs), start=1):
            if keep_blank:
                held.extend([""] * (line - answered - 1))
                answered = line
            if isinstance(answer, BadLine):
                bad += 1
                flush()
                _report(answer)
                held.append(json.dumps({"line": line, "error": answer.message}) if as_json else BAD_MARK)
                continue
            if check:
                record = _facts(batch, line, answer, critical, rate)
                held.append(json.dumps(record) if as_json else _fact_text(record))
            else:
                held.append(_solution(line, answer, unique, as_json))
            if done % 1024 == 0:
                flush()
                if bar is not None:
                    bar(done, 0.0)
        if keep_blank:
            held.extend([""] * (read[0] - answered))
        flush()
    return 1 if bad else 0


def _write_blocks(batch: PuzzleBatch, source: str, style: str, cap: int, jobs: int, bar) -> int:
    """The plain-text answers of a collection, a block of lines at a time (`PuzzleBatch.write_many`: no
    Python per line); the exit code as run_batch's."""
    bad = done = 0
    name = "standard input" if source == "-" else source
    blocks = byte_blocks(source, batch.block_bytes(jobs))
    for pieces, answered in batch.write_many(blocks, cap, style, jobs, name=name):
        for piece in pieces:
            if isinstance(piece, str):
                echo(piece[:-1], bar)  # echo ends the line
            elif isinstance(piece[1], BadLine):
                bad += 1
                _report(piece[1])
                echo(BAD_MARK, bar)
            elif style == "facts":
                echo(_fact_text(_facts(batch, *piece, False, False)), bar)
            else:
                echo(_solution(*piece, style == "unique", False), bar)
        done += answered
        if bar is not None:
            bar(done, 0.0)
    return 1 if bad else 0


def _report(bad: BadLine) -> None:
    """A bad line's one error line on stderr; the run goes on."""
    click.echo(f"dlx-latin: error: line {bad.line}: {printable(bad.message)}", err=True)


def _solution(line: int, answer: Answer, unique: bool, as_json: bool) -> str:
    """One output line of `solve --batch`: the solution's grid string, '-' when there is none, '?' when
    there are several and --unique was asked (else the first one); or the same as a JSON line."""
    several = unique and answer.solutions > 1
    shown = None if several else answer.solution_text
    if as_json:
        record = {"line": line, "solutions": answer.solutions, "unique": answer.solutions == 1}
        return json.dumps({**record, "solution": shown})
    return shown if shown is not None else "?" if several else "-"


def _facts(batch: PuzzleBatch, line: int, answer: Answer, critical: bool, rate: bool) -> dict:
    """What `check` says of one puzzle of a collection (the costly facts only when asked)."""
    record: dict = {
        "line": line,
        "solutions": answer.solutions,
        "unique": answer.solutions == 1,
        "completable": answer.solutions > 0,
    }
    if critical:
        record["critical"] = batch.is_critical(answer.clues) if answer.solutions == 1 else None
    if rate:
        from dlx_latin.puzzles.proof import verdict

        proof = verdict(PartialBoard(batch.board, batch.multiset, answer.clues))
        record.update(fair=proof.fair, rating=proof.rating, score=proof.score)
    return record


def _fact_text(record: dict) -> str:
    """One line of facts: solutions (up to the cap), then the verdicts asked for."""
    n = record["solutions"]
    words = [f"{n}", "unique" if n == 1 else "none" if n == 0 else "several"]
    if record.get("critical") is not None:
        words.append("critical" if record["critical"] else "not-critical")
    if "fair" in record:
        words.append(f"fair:{record['rating'].replace(' ', '-')}" if record["fair"] else "not-fair")
    return " ".join(words)
