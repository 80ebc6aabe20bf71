"""The one error of the symmetry layer, in a module of its own so that every counting method can raise it."""

from dlx_latin.errors import UserInputError


class SymmetryTooLargeError(UserInputError):
    """A count up to symmetry that this method cannot do in reasonable time and memory."""
