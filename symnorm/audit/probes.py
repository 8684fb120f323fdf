"""The individual probes of spec inference: each runs a few calls and returns measurements.

Probes work in float64 on the implementation itself; they never read its source or its
documentation.  Each returns an :class:`Evidence` record: the value it established (or
:data:`UNKNOWN`), the probes run, the numbers measured and a confidence.  The decision
thresholds are written next to each probe; ``docs/audit.md`` explains them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["UNKNOWN", "Evidence", "Group", "nice_rational", "pattern"]


class _Unknown:
    """The value of a field the probes could not establish."""

    def __repr__(self) -> str:
        return "could not tell"

    def __bool__(self) -> bool:
        return False


UNKNOWN: Any = _Unknown()


@dataclass
class Evidence:
    """What one field's probes did and found."""

    field: str
    value: Any
    probes: list[str] = field(default_factory=list)
    measured: dict[str, Any] = field(default_factory=dict)
    confidence: str = "high"
    note: str = ""

    @property
    def known(self) -> bool:
        return self.value is not UNKNOWN

    def as_dict(self) -> dict[str, Any]:
        return {"field": self.field, "value": _plain(self.value), "probes": list(self.probes),
                "measured": {k: _plain(v) for k, v in self.measured.items()},
                "confidence": self.confidence if self.known else "could not tell",
                "note": self.note}


def _plain(v: Any) -> Any:
    if v is UNKNOWN:
        return "could not tell"
    if isinstance(v, (bool, int, str)) or v is None:
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else repr(v)
    if isinstance(v, (tuple, list)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    return str(v)


@dataclass(frozen=True)
class Group:
    """One statistic's index set in the tensor: a boolean mask and its element count."""

    mask: np.ndarray

    @property
    def n(self) -> int:
        return int(self.mask.sum())


def pattern(n: int) -> np.ndarray:
    """``n`` values with mean 0 and mean square 1 (biased variance exactly 1 up to rounding),
    all different, so no symmetry hides an axis."""
    u = np.arange(n, dtype=np.float64) ** 1.5
    u = u - u.mean()
    return u / math.sqrt(float(np.mean(u * u)))


def nice_rational(value: float, rtol: float = 1e-6) -> tuple[Fraction, str]:
    """An exact rational for a measured positive number: a one-digit decimal (``1e-5``) or a
    power of two (``2**-23``) when one lies within ``rtol``, else 6 significant digits."""
    if value <= 0 or not math.isfinite(value):
        return Fraction(0), "0"
    e10 = math.floor(math.log10(value))
    for e in (e10, e10 + 1):
        for k in range(1, 10):
            cand = Fraction(k) * Fraction(10) ** e
            if abs(float(cand) / value - 1) <= rtol:
                return cand, f"{k}e{e}"
    e2 = round(math.log2(value))
    cand2 = Fraction(2) ** e2
    if abs(float(cand2) / value - 1) <= rtol:
        return cand2, f"2**{e2}"
    text = f"{value:.6g}"
    return Fraction(text), text


def root_of(x_centered: np.ndarray, y: np.ndarray) -> float:
    """The divisor r in ``y = x_centered / r`` by least squares over the group."""
    num = float(np.sum(x_centered * x_centered))
    den = float(np.sum(x_centered * y))
    return num / den if den != 0 else math.inf


def choose(measured: float, hypotheses: dict[Any, float], *, accept: float,
           margin: float = 100.0) -> tuple[Any, float]:
    """The hypothesis nearest ``measured`` (relative distance) if it is within ``accept``
    and ``margin`` times nearer than every other; else :data:`UNKNOWN`.  Returns
    (choice, separation ratio)."""
    if not math.isfinite(measured):
        return UNKNOWN, 0.0
    dist = {k: abs(measured / v - 1) if v else abs(measured) for k, v in hypotheses.items()}
    best = min(dist, key=dist.__getitem__)
    others = [d for k, d in dist.items() if k != best]
    sep = min(others) / max(dist[best], 1e-16) if others else math.inf
    if dist[best] <= accept and sep >= margin:
        return best, sep
    return UNKNOWN, sep


Call = Callable[[np.ndarray], np.ndarray]
