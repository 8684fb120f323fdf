"""Work in a forked child process bounded by CPU time, with wall time only as a guard.

One helper for every engine that forks (cvc5, whose complete procedure for real arithmetic
does not always stop at its own limits; the exact re-verification of a counterexample).
The child is bounded by ``RLIMIT_CPU``: CPU time, which another process competing for the
cores does not consume, so the same job reaches the same point on an idle and on a loaded
machine.  The parent also stops waiting after a wall-clock guard (several times the CPU
budget) and kills the child then: that guard can only turn an answer into no answer, which
every caller reads as "cannot decide".  The child dies with its parent
(``PR_SET_PDEATHSIG`` on Linux): a claim's worker killed at the claim's limit leaves no
solver running.

>>> forked(lambda: iter([1, "two"]), 5.0)
[1, 'two']
"""

from __future__ import annotations

import math
import os
import pickle
import select
import signal
import struct
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["WALL_FACTOR", "cpu_clock", "die_with_parent", "forked", "wall_guard"]

#: the parent waits this many times the child's CPU budget (plus a second) before killing
#: it: a guard against a child that sleeps or cannot be scheduled, never the limit itself
WALL_FACTOR = 4.0


def cpu_clock() -> float:
    """Seconds of CPU this process and its finished children have used: the clock a
    claim's time budget runs on, so that a competing process does not shorten it.

    >>> cpu_clock() > 0
    True
    """
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def wall_guard(cpu_seconds: float) -> float:
    """The wall-clock seconds the parent waits for a child with ``cpu_seconds`` of CPU."""
    return cpu_seconds * WALL_FACTOR + 1.0


def die_with_parent(parent: int) -> None:
    """Ask Linux to SIGKILL this process when its parent dies; exit if it already has."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # pragma: no cover - no libc: the guard remains
            pass
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


def _bound_child(parent: int, cpu_seconds: float) -> None:  # pragma: no cover - the child
    """Make a forked child die with its parent and within its CPU budget."""
    die_with_parent(parent)
    try:
        import resource
        cpu = max(1, math.ceil(cpu_seconds))  # a forked child starts at 0 s of CPU
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    except (ImportError, ValueError, OSError):
        pass


def _send(w: int, item: Any) -> None:  # pragma: no cover - the child
    data = pickle.dumps(item)
    view = memoryview(struct.pack(">Q", len(data)) + data)
    while view:
        view = view[os.write(w, view):]


def _receive(r: int, end: float) -> bytes:
    buf = b""
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return buf
        ready, _, _ = select.select([r], [], [], left)
        if not ready:
            return buf
        chunk = os.read(r, 1 << 16)
        if not chunk:
            return buf
        buf += chunk


def _items(buf: bytes) -> list[Any]:
    out = []
    while len(buf) >= 8:
        (n,) = struct.unpack(">Q", buf[:8])
        if len(buf) < 8 + n:
            break
        out.append(pickle.loads(buf[8:8 + n]))  # noqa: S301 - our own child's data
        buf = buf[8 + n:]
    return out


def forked(job: Callable[[], Iterator[Any]], cpu_seconds: float,
           wall_seconds: float | None = None) -> list[Any]:
    """The values ``job()`` yields, computed in a forked child (each sent as soon as it is
    ready) with ``cpu_seconds`` of CPU time; the parent kills it after ``wall_seconds``
    (default :func:`wall_guard`).  What arrived before the child ended; an exception in the
    child ends the list there."""
    wall = wall_guard(cpu_seconds) if wall_seconds is None else wall_seconds
    r, w = os.pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(r)
        _bound_child(parent, cpu_seconds)
        try:
            for item in job():
                _send(w, item)
        except BaseException:  # noqa: BLE001 - the parent sees what arrived
            pass
        os._exit(0)
    os.close(w)
    try:
        buf = _receive(r, time.monotonic() + max(0.1, wall))
    finally:
        os.close(r)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
    return _items(buf)
