"""The worked example as one result model: exact objects, proofs, numeric evidence, companion.

:func:`derive` computes everything ``symnorm derive`` prints; the command's text and JSON
printers only read the :class:`Derivation` it returns.

>>> res = derive(any_d=False)
>>> res.jacobian_floats[0][0]
0.2399383587275701
>>> res.companion_floats
[-0.9950371902099893, 0.9950371902099893]
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sympy

from .engines.exact import MAX_CONCRETE_D, Check, EigenSpace, ExactEngine
from .engines.numeric import CrossCheck, batch_pair, cross_check
from .errors import LimitError, SpecError, SymnormError
from .spec import NormSpec, as_rational
from .spec import layer_norm as layer_norm_spec

__all__ = [
    "PAPER_EPS",
    "PAPER_X",
    "SYMBOLIC_PROOF_MAX_D",
    "Derivation",
    "default_point",
    "derive",
    "random_point",
]

PAPER_X = (1, 2, 4)
PAPER_EPS = sympy.Rational(1, 10)
PAPER_BATCH_EPS = sympy.Rational(1, 100)
#: Largest d at which derive also proves the identities for symbolic x (about 1 s at d = 24).
SYMBOLIC_PROOF_MAX_D = 24


@dataclass
class Derivation:
    """Everything the worked example shows, computed once."""

    spec: NormSpec
    x: tuple[sympy.Rational, ...]
    engine: ExactEngine
    checks_point: list[Check]
    checks_symbolic: list[Check] | None
    eigen: list[EigenSpace]
    numeric: CrossCheck
    companion: list[dict[str, Any]]
    any_d: list[dict[str, str]] | None
    any_d_note: str
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def jacobian_exact(self) -> sympy.Matrix:
        return self.engine.jacobian()

    def jacobian_strings(self) -> list[list[str]]:
        """Exact entries as text (SymPy's form up to d = 16, ``a + b*sqrt(m)`` beyond)."""
        if self.engine.d <= 16:
            return [[str(e) for e in row] for row in self.jacobian_exact.tolist()]
        return [[self.engine.surd_str(e) for e in row] for row in self.engine.jacobian_surd]

    @property
    def jacobian_floats(self) -> list[list[float]]:
        """J in float64, rounded from the closed form evaluated at ``dps`` digits."""
        return self.numeric.jacobian_floats()

    @property
    def companion_floats(self) -> list[float]:
        return [c["float64"] for c in self.companion]


def default_point(d: int) -> tuple[int, ...]:
    """The paper's point (1, 2, 4) at d = 3; in general ``1 + k(k+1)/2``: 1, 2, 4, 7, 11, ..."""
    return tuple(1 + k * (k + 1) // 2 for k in range(d))


def random_point(d: int, seed: int) -> tuple[sympy.Rational, ...]:
    """A reproducible non-constant rational point: numerators in [-20, 20], denominators 1..9."""
    rng = random.Random(seed)
    while True:
        x = tuple(sympy.Rational(rng.randint(-20, 20), rng.randint(1, 9)) for _ in range(d))
        if len(set(x)) > 1:
            return x


def _paper_document() -> Path | None:
    path = Path(__file__).resolve().parent / "data" / "paper.md"
    return path if path.is_file() else None


def _any_d(spec: NormSpec, dps: int, detail: Callable[[str], None] | None = None
           ) -> tuple[list[dict[str, str]] | None, str]:
    if not (spec.center and spec.eps_inside and spec.var_denominator == "N"):
        return None, ("the built-in paper document covers LayerNorm with eps inside the root "
                      "and denominator d; not run for this variant")
    try:
        from .check.run import check_document
    except ImportError:
        return None, "the claim checker (symnorm.check.run) is not available"
    doc = _paper_document()
    if doc is None:
        return None, "the built-in paper document (symnorm/data/paper.md) is missing"
    try:
        result = check_document(doc, dps=max(dps, 30),
                                progress=_ClaimsDone(detail) if detail else None)
    except SymnormError as exc:  # report the checker's failure, never a made-up verdict
        return None, f"the claim checker failed: {exc}"
    rows = [{"label": v.label, "status": v.status, "scope": v.scope, "engine": v.engine,
             "statement": v.statement} for v in result.verdicts]
    return rows, f"claims of {doc.name} (symnorm check), every eps >= 0 unless stated"


class _ClaimsDone:
    """A check progress callback that reports "k of n claims" as a step's detail."""

    def __init__(self, detail: Callable[[str], None]) -> None:
        self.detail, self.total, self.done = detail, 0, 0

    def plan(self, labels: list[str]) -> None:
        self.total += len(labels)
        self.detail(f"0 of {self.total} claims")

    def __call__(self, verdict: Any) -> None:
        self.done += 1
        self.detail(f"{self.done} of {self.total} claims")


def derive_steps(d: int | None = None, x: Sequence[Any] | None = None, *,
                 any_d: bool = True, symbolic: bool | None = None) -> int:
    """How many steps :func:`derive` reports to its ``progress`` callback."""
    d = d if d is not None else (len(x) if x is not None else len(PAPER_X))
    return 5 + int(symbolic if symbolic is not None else d <= SYMBOLIC_PROOF_MAX_D) \
        + int(any_d)


def derive(d: int | None = None, x: Sequence[Any] | None = None, eps: Any = PAPER_EPS, *,
           dps: int = 50, center: bool = True, batch_eps: Any = PAPER_BATCH_EPS,
           batch_b: Any = 2, any_d: bool = True, symbolic: bool | None = None,
           progress: Callable[..., None] | None = None) -> Derivation:
    """Compute the worked example (defaults: the paper's x = (1, 2, 4), eps = 1/10).

    ``progress(step)`` is called as each step starts and ``progress(step, detail)`` within
    a long one (``symnorm derive`` draws it on a terminal; see :func:`derive_steps`)."""
    timings: dict[str, float] = {}

    def step(name: str):
        if progress is not None:
            progress(name)
        return (lambda detail: progress(name, detail)) if progress is not None else None
    if d is None:
        d = len(x) if x is not None else len(PAPER_X)
    if isinstance(d, bool) or not isinstance(d, int) or d < 2:
        raise SpecError(f"d must be an integer >= 2 (got {d!r})")
    if d > MAX_CONCRETE_D:
        raise LimitError(f"d must be at most {MAX_CONCRETE_D} (got {d})")
    if x is None:
        x = default_point(d)
    if len(x) != d:
        raise SpecError(f"x has {len(x)} entries but d is {d} (give exactly d numbers)")
    if center:
        spec = layer_norm_spec(d, eps)
    else:
        from .spec import rms_norm as rms_norm_spec
        spec = rms_norm_spec(d, eps)
    xq = tuple(as_rational(xi, f"x[{i + 1}]") for i, xi in enumerate(x))
    t = time.perf_counter()
    step("differentiating")
    engine = ExactEngine(spec, xq)
    timings["differentiate"] = time.perf_counter() - t
    t = time.perf_counter()
    checks_point = engine.verify(progress=step("proving the identities at x"))
    timings["prove_at_point"] = time.perf_counter() - t
    checks_symbolic = None
    if symbolic is None:
        symbolic = d <= SYMBOLIC_PROOF_MAX_D
    if symbolic:
        t = time.perf_counter()
        checks_symbolic = ExactEngine(spec).verify(
            progress=step("proving them for symbolic x"))
        timings["prove_symbolic_x"] = time.perf_counter() - t
    t = time.perf_counter()
    step("eigen-decomposition")
    eigen = engine.eigen()
    timings["eigen"] = time.perf_counter() - t
    step("mpmath cross-check")
    numeric = cross_check(spec, xq, dps=dps)
    timings["cross_check"] = numeric.seconds
    step("BatchNorm companion")
    companion = [batch_pair(b, batch_eps, dps=dps)
                 for b in (as_rational(batch_b, "b"), -as_rational(batch_b, "b"))]
    rows, note = None, "skipped (--no-any-d)"
    if any_d:
        t = time.perf_counter()
        rows, note = _any_d(spec, dps, step("claim checker, every d"))
        timings["any_d"] = time.perf_counter() - t
    return Derivation(spec, xq, engine, checks_point, checks_symbolic, eigen, numeric,
                      companion, rows, note, timings)
