"""The exceptions that mean "the input is wrong": the CLI turns them into one line on stderr and exit 1."""

from dlx_latin.boards import InvalidBoardError
from dlx_latin.distributed import SchedulerError
from dlx_latin.exact_cover import InvalidProblemError
from dlx_latin.formats.dlx import DLXFormatError
from dlx_latin.formats.grid import GridStringError
from dlx_latin.formats.puzzle import PuzzleFormatError
from dlx_latin.latin import InvalidCluesError, InvalidMultisetError


class InputFileError(ValueError):
    """A file that cannot be read at all (missing, unreadable, not text)."""


UserInputError = (
    InvalidProblemError,
    DLXFormatError,
    InputFileError,
    SchedulerError,
    InvalidBoardError,
    InvalidMultisetError,
    InvalidCluesError,
    PuzzleFormatError,
    GridStringError,
)
