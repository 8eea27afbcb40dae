"""Progress that a CI log can show: a plain line every few seconds when stderr is not a terminal.

In a terminal the commands draw click's progress bar; in a pipe or a CI log a bar only leaves its
label behind (or one line at the very end), and a command that takes a minute looks hung. There,
`Ticker` prints `535-check COMMAND: DONE/TOTAL UNIT, N s` on stderr every INTERVAL seconds from a
thread, until the work is done. stdout is never touched, and -q silences it.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import TracebackType

import click

from .common import PROG, verbosity

#: Seconds between two progress lines.
INTERVAL = 5.0


def is_terminal() -> bool:
    return sys.stderr.isatty()


class Ticker:
    """`with Ticker("report", "games", total) as t: ... t.update(n)`. The status line may say what
    is being done now (`t.doing = "invariants.matches"`). Prints nothing in a terminal or with -q;
    `force` prints in a terminal too (for work without a bar of its own)."""

    def __init__(
        self,
        command: str,
        unit: str,
        total: int | None = None,
        *,
        force: bool = False,
        count: Callable[[], int] | None = None,
    ) -> None:
        self.command = command
        self.unit = unit
        self.total = total
        self.done = 0
        self.count = count  # read at each line, for work that counts itself (an engine's requests)
        self.doing = ""
        self.extra: Callable[[], str] | None = None
        self.enabled = verbosity() >= 0 and (force or not is_terminal())
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._start = time.monotonic()

    def update(self, n: int = 1) -> None:
        self.done += n

    def line(self) -> str:
        done = self.count() if self.count is not None else self.done
        count = f"{done:,}/{self.total:,}" if self.total is not None else f"{done:,}"
        parts = [f"{count} {self.unit}"]
        if self.extra is not None:
            parts.append(self.extra())
        parts.append(f"{time.monotonic() - self._start:.0f} s")
        if self.doing:
            parts.append(f"now {self.doing}")
        return f"{PROG} {self.command}: {', '.join(parts)}"

    def _run(self) -> None:
        while not self._stop.wait(INTERVAL):
            try:
                click.echo(self.line(), err=True)
            except (OSError, ValueError):
                return  # stderr went away (a closed pipe): progress is not worth an error

    def __enter__(self) -> Ticker:
        self._start = time.monotonic()
        if self.enabled:
            self._thread = threading.Thread(target=self._run, name=f"535-check-{self.command}", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        """No more lines from now on (work that ends before the block it is counted in)."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


@contextmanager
def progress(command: str, unit: str, total: int, label: str) -> Iterator[Callable[[int], None]]:
    """A progress callback (`advance(n)`): click's bar in a terminal, the Ticker's lines elsewhere."""
    if is_terminal() and verbosity() >= 0:
        with click.progressbar(length=total, label=label, file=sys.stderr, show_pos=True) as bar:
            yield bar.update
        return
    with Ticker(command, unit, total) as ticker:
        yield ticker.update
