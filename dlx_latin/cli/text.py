"""Text for the terminal: what came from a file is shown, never obeyed."""


def printable(text: str) -> str:
    """`text` on one line, with control characters (terminal escapes, newlines) shown as escapes.

    >>> printable("a\\x1b[2Jb\\n")
    'a\\\\x1b[2Jb\\\\n'
    """
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))


def plural(n: int, word: str, many: str | None = None) -> str:
    """`n word`, the word in the plural unless n is 1: plural(1, "clue") is "1 clue"."""
    return f"{n} {word if n == 1 else many or word + 's'}"
