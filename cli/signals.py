"""SIGINT and SIGTERM as exceptions in the main thread, so that a stopped command unwinds (outputs
discarded, workers stopped) and exits 130 or 143."""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

import click

from .common import EXIT_INTERRUPTED, EXIT_TERMINATED, PROG


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the main thread is, so that it unwinds (outputs discarded, workers
    stopped) exactly as a Ctrl-C does."""


class _Stop:
    """SIGINT and SIGTERM as exceptions in the main thread, raised again every REPEAT seconds
    until the command has unwound.

    Raising once is not enough: Python swallows an exception raised inside a garbage-collector
    callback, a __del__ or a weakref callback (printing "Exception ignored"), and Hypothesis runs
    a gc callback during its tests, so an unlucky Ctrl-C would be lost and the run would go on.
    """

    REPEAT = 0.4  # seconds; a few repeats fit in the 2 s a stop may take

    def __init__(self) -> None:
        self.signum: int | None = None
        self.done = threading.Event()
        self.repeater: threading.Thread | None = None

    def handle(self, signum: int, frame: FrameType | None) -> None:
        if self.done.is_set():
            return  # already unwound and on the way out: nothing more to stop
        if self.signum is None:
            self.signum = signum
            self.repeater = threading.Thread(target=self._repeat, name="535-check-stop", daemon=True)
            self.repeater.start()
        raise Terminated() if self.signum == signal.SIGTERM else KeyboardInterrupt()

    def _repeat(self) -> None:
        while not self.done.wait(self.REPEAT):
            # Through the process's signal mask, so it waits while a clean-up step holds signals
            # back (stop_signals_held) instead of cutting that step in half.
            signal.pthread_kill(threading.main_thread().ident or 0, self.signum or signal.SIGINT)


_stop = _Stop()


@contextmanager
def signals_unwind() -> Iterator[None]:
    # Only the main thread may set handlers (a test runner may call us from another thread).
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    global _stop
    _stop = _Stop()
    previous = {sig: signal.signal(sig, _stop.handle) for sig in (signal.SIGINT, signal.SIGTERM)}
    hook = sys.unraisablehook

    def quiet_stop(unraisable: Any) -> None:
        # A stop swallowed by a gc callback is raised again (see _Stop): not worth a traceback.
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            hook(unraisable)

    sys.unraisablehook = quiet_stop
    try:
        yield
    finally:
        _stop.done.set()
        if _stop.repeater is not None:
            # A repeat already on its way must land on our handler (which now ignores it), not
            # on the default one restored below: that would raise in some __del__ on the way out
            # and print "Exception ignored".
            _stop.repeater.join(2 * _Stop.REPEAT)
        else:
            sys.unraisablehook = hook
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def interrupted(exc: BaseException | None) -> int:
    _stop.done.set()
    if isinstance(exc, Terminated) or _stop.signum == signal.SIGTERM:
        click.echo(f"{PROG}: terminated", err=True)
        return EXIT_TERMINATED
    click.echo(f"{PROG}: interrupted", err=True)
    return EXIT_INTERRUPTED
