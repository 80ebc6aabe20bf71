"""The README's Python examples run as written, and its first lines are the two set-up commands."""

import re
from pathlib import Path

README = (Path(__file__).parent.parent / "README.md").read_text()


def test_first_lines_are_the_two_setup_commands():
    block = README.split("```")[1].strip().splitlines()
    assert block == [
        "pip install . && dlx-latin xc count examples/queens8.dlx",
        "pip install -e '.[test,dask]' && pytest",
    ]


def test_python_examples_run():
    blocks = re.findall(r"```python\n(.*?)```", README, flags=re.S)
    assert blocks
    for block in blocks:
        namespace = {"__name__": "readme"}
        exec(compile(block, "README.md", "exec"), namespace)
