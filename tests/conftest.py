"""Test set-up: the helpers' directory on the path, and a longer time limit for the slow checks."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # test helpers: oracles.py, cli.py, checker.py

SLOW_TIMEOUT = 1800  # seconds for a test marked slow without a limit of its own (the default is 120)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Slow checks get SLOW_TIMEOUT unless they set a limit themselves: a hang still fails by name."""
    for item in items:
        if item.get_closest_marker("slow") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(SLOW_TIMEOUT))
