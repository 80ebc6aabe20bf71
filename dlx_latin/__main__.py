"""`python -m dlx_latin` runs the command line."""

from dlx_latin.cli import main

main()
