"""The Dask executor: units run as tasks on a Dask distributed cluster (the optional extra
`five35[dask]`, imported only when an executor is built). A scheduler address is probed by hand
before distributed connects, so that a port that never answers is refused within a bound."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Callable, Generator, Iterable
from typing import Any

from .units import ClosedOnExit, ExecutorUnavailable, R, Unit, WorkerDied, unit_name, unit_result

#: Seconds to wait for a Dask scheduler to answer (and to have a worker) before giving up.
CONNECT_TIMEOUT = 10.0
#: Seconds a tcp:// scheduler has to accept a connection and greet (a Dask scheduler sends its
#: handshake at once); a port that accepts and stays silent is not a scheduler. distributed's own
#: connect then waits for ever, so this is asked first, by hand.
PROBE_TIMEOUT = 3.0
DASK_HINT = "pip install 'five35[dask]'"


class DaskExecutor(ClosedOnExit):
    """Units run as tasks on a Dask distributed cluster, through `distributed.Client(address)`.

    Functions and arguments travel with cloudpickle, so a worker needs five35 (the same version)
    installed, and a function defined at module level; results come back in the units' order.
    `close()` (or leaving a `with` block) closes the client; the cluster goes on running."""

    def __init__(self, scheduler: str, *, timeout: float | None = None) -> None:
        self.scheduler = scheduler
        self._owned = False
        timeout = CONNECT_TIMEOUT if timeout is None else timeout
        if not scheduler.strip():
            raise ExecutorUnavailable("scheduler", "expected a Dask scheduler address, got an empty string")
        try:
            from distributed import Client
        except ImportError:
            raise ExecutorUnavailable("kind", f"dask is not installed ({DASK_HINT})") from None
        _probe(scheduler, min(timeout, PROBE_TIMEOUT))
        try:
            # set_as_default=False: this client must not become the one dask.compute() elsewhere in
            # the process picks up silently.
            # Any: distributed's Client is only partly annotated.
            self.client: Any = Client(scheduler, timeout=timeout, set_as_default=False)  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError, ValueError, TypeError) as exc:
            reason = " ".join(str(exc).split()) or type(exc).__name__
            raise ExecutorUnavailable(
                "scheduler", f"cannot reach a Dask scheduler at {scheduler} within {timeout:g} s ({reason})"
            ) from None
        self._owned = True
        try:
            self.client.wait_for_workers(1, timeout=timeout)
        except (OSError, TimeoutError) as exc:
            self.close()
            raise ExecutorUnavailable(
                "scheduler", f"the Dask scheduler at {scheduler} has no worker after {timeout:g} s"
            ) from exc

    @property
    def workers(self) -> int:
        """The cluster's worker threads, as the scheduler counts them now (at least 1)."""
        info = self.client.scheduler_info(n_workers=-1)
        return max(1, sum(int(w.get("nthreads", 1)) for w in info.get("workers", {}).values()))

    def close(self) -> None:
        if self._owned:
            with contextlib.suppress(Exception):
                self.client.close(timeout=2)
            self._owned = False

    def map(self, fn: Callable[..., R], *iterables: Iterable[Any]) -> Generator[R, None, None]:
        units = list(zip(*iterables, strict=True))
        return self._gather(fn, units)

    def _gather(self, fn: Callable[..., R], units: list[tuple[Any, ...]]) -> Generator[R, None, None]:
        if not units:
            return
        from distributed import KilledWorker

        # pure=False: every unit its own task. Units are pure, but hashing their arguments (rulesets,
        # specs) to find equal ones costs more than running the rare duplicate twice.
        columns = [list(column) for column in zip(*units, strict=True)]
        futures = self.client.map(Unit(fn, 0), *columns, pure=False)
        finished = False
        try:
            for i, future in enumerate(futures):
                try:
                    value = future.result()
                except KilledWorker:
                    raise WorkerDied(
                        f"a Dask worker died each time it ran unit {i + 1} of {len(units)}: "
                        f"{unit_name(fn, units[i])} (its task was run again the scheduler's allowed "
                        "number of times)"
                    ) from None
                yield unit_result(value)
            finished = True
        finally:
            if not finished:
                # Drops what is queued on the cluster, not only what we wait for; a unit already
                # running finishes on its worker (Dask cannot stop a thread) and is thrown away.
                with contextlib.suppress(Exception):
                    self.client.cancel(futures, force=True)
            for future in futures:
                with contextlib.suppress(Exception):
                    future.release()


def _probe(address: str, timeout: float) -> None:
    """ExecutorUnavailable("scheduler") when `address` is no scheduler address, or a tcp:// one at
    which nothing answers within `timeout` seconds: refused, unreachable, or accepting the
    connection and saying nothing. Other schemes (tls://, ucx://, ...) are left to distributed."""
    from distributed.comm.addressing import parse_address, parse_host_port

    def unavailable(why: str) -> ExecutorUnavailable:
        return ExecutorUnavailable("scheduler", f"cannot reach a Dask scheduler at {address} ({why})")

    try:
        scheme, location = parse_address(address, strict=False)
        if scheme != "tcp":
            return
        host, port = parse_host_port(location)
    except (ValueError, TypeError) as exc:
        raise ExecutorUnavailable(
            "scheduler", f"{address!r} is not a Dask scheduler address, e.g. tcp://10.0.0.5:8786 ({exc})"
        ) from None
    if not 0 < port < 65536:
        raise ExecutorUnavailable("scheduler", f"{address!r}: port {port} is not from 1 to 65535")
    deadline = time.monotonic() + timeout
    try:
        with socket.create_connection((host or "127.0.0.1", port), timeout=timeout) as connection:
            connection.settimeout(max(0.05, deadline - time.monotonic()))
            greeting = connection.recv(1)
    except TimeoutError:
        raise unavailable(f"no answer within {timeout:g} s") from None
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise unavailable(" ".join(reason.split()).lower()) from None
    if not greeting:
        raise unavailable("it closed the connection without a word: not a Dask scheduler") from None
