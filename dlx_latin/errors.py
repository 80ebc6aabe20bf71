"""The base of every "the input is wrong" exception: the CLI turns it into one line on stderr and exit 1.

Each module defines its own specific exceptions (InvalidProblemError, DLXFormatError, InvalidBoardError, ...)
as subclasses, so a caller may catch the specific one or all of them at once.
"""


class UserInputError(ValueError):
    """Bad input: a malformed file, an impossible board, an unknown label, a wrong multiset size, ..."""

    exit_code = 1


class OptionConflictError(UserInputError):
    """Options that do not go with what was given (a usage error: exit 2, as click's own)."""

    exit_code = 2


class InputFileError(UserInputError):
    """A file that cannot be read at all (missing, unreadable, not text)."""
