"""The limits a check runs under, in one place for the checker and every command's options.

``dps`` below 30 is refused: the numeric engine counts agreement at 30 digits
(``AGREE_DIGITS`` in ``symnorm/engines/numclaim.py``).
"""

from __future__ import annotations

__all__ = ["DEFAULT_TIMEOUT", "MAX_DPS", "MAX_TIMEOUT", "MIN_DPS", "wall_guard"]

MIN_DPS, MAX_DPS = 30, 1000
MAX_TIMEOUT = 3600.0  # seconds per claim
#: The default limit per claim: over 10x the slowest claim of ``derivations/`` and of the
#: soundness corpora (docs/engines.md).  The engines' budget is 90% of it in CPU seconds
#: (``symnorm/engines/child.py::cpu_clock``), and the worker's wall clock stops a claim only at
#: :func:`wall_guard`, so that no verdict there depends on load.
DEFAULT_TIMEOUT = 60.0


def wall_guard(timeout: float) -> float:
    """The wall-clock seconds after which a claim's worker is stopped (``undecided``).

    Three times the CPU budget and 5 s more: on this 2-core machine at load 6 a worker gets
    about a third of a core, so the CPU budget, which does not depend on load, still decides
    first; the guard only ends a claim that stopped using the CPU (it never makes one hang).
    """
    return 3 * timeout + 5

