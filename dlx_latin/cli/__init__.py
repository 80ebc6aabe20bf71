"""The `dlx-latin` command line."""

import click

from dlx_latin import __version__
from dlx_latin.exact_cover import _kernel


@click.group()
@click.version_option(__version__, prog_name="dlx-latin")
def main() -> None:
    """Count, enumerate and solve Latin boards and exact-cover problems."""


@main.command()
def kernel() -> None:
    """Print the C kernel's version."""
    click.echo(_kernel.version())
