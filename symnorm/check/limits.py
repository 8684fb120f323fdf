"""The limits a check runs under, in one place for the checker and every command's options.

``dps`` below 30 is refused: the numeric engine counts agreement at 30 digits
(``AGREE_DIGITS`` in ``symnorm/engines/numclaim.py``).
"""

from __future__ import annotations

__all__ = ["DEFAULT_TIMEOUT", "MAX_DPS", "MAX_TIMEOUT", "MIN_DPS"]

MIN_DPS, MAX_DPS = 30, 1000
MAX_TIMEOUT = 3600.0  # seconds per claim
#: The default limit per claim: over 10x the slowest claim of ``derivations/`` and of the
#: soundness corpora (docs/engines.md).  The engines' budget is 90% of it in CPU seconds
#: (``symnorm/engines/child.py::cpu_clock``), and the worker's wall clock stops a claim 1 s
#: after it, as a guard, so that no verdict there depends on load.
DEFAULT_TIMEOUT = 60.0
