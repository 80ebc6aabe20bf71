"""Text for the terminal: what came from a file is shown, never obeyed."""


def printable(text: str) -> str:
    """`text` on one line, with control characters (terminal escapes, newlines) shown as escapes.

    >>> printable("a\\x1b[2Jb\\n")
    'a\\\\x1b[2Jb\\\\n'
    """
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))
