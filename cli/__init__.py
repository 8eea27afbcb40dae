"""five35.cli: the `535-check` command line (a thin shell over the library)."""

from .main import main

__all__ = ["main"]
