"""Conformance: does an implementation compute what a spec says, on inputs chosen to hurt?

``conforms(fn, spec)`` runs the implementation in float64 on generated input families and
compares with the spec evaluated by mpmath at exact rational inputs (the same inputs: every
generated value is a dyadic rational, exactly representable in float64).  Families: random,
near-constant, large mean, tiny variance near eps, batch of 2, and batch of 1 where the spec
allows it.  With running statistics, a training step from the initial buffers (0, 1) is
compared (outputs and updated buffers) and then the eval path with the buffers it produced.

>>> from symnorm.spec import layer_norm
>>> from symnorm.audit.examples import NumpyNorm
>>> spec = layer_norm(layout="N D", axes=1, sizes="N=2 D=4", eps="1e-5")
>>> res = conforms(NumpyNorm((1,), eps=1e-5), spec)
>>> res.agree, [f.family for f in res.rows][:3]
(True, ['random', 'near-constant', 'large mean'])
>>> conforms(NumpyNorm((1,), eps=1e-5, unbiased=True), spec).disagreeing()
['random', 'large mean', 'tiny variance', 'batch of 2', 'batch of 1']
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ..errors import SpecError, SymnormError
from ..family.apply import RunningState, forward, initial_state
from ..family.layout import parse_sizes
from ..spec import NormSpec
from .adapters import Target, as_target

__all__ = ["FAMILIES", "ConformResult", "FamilyResult", "conforms"]

FAMILIES = ("random", "near-constant", "large mean", "tiny variance", "batch of 2",
            "batch of 1")
#: Default agreement: max |impl - spec| / max(1, max |spec|).
TOL = 1e-7


@dataclass(frozen=True)
class FamilyResult:
    """One family in one mode: the worst error, or why the family was not run."""

    family: str
    mode: str
    shape: tuple[int, ...]
    max_abs_error: float = math.nan
    scaled_error: float = math.nan
    agree: bool | None = None
    what: str = "output"
    note: str = ""
    #: a disagreement the spec itself predicts (its one-pass variance cancelling in float64)
    expected: bool = False

    def as_dict(self) -> dict[str, Any]:
        def num(v: float) -> Any:
            return v if math.isfinite(v) else (None if math.isnan(v) else repr(v))
        return {"family": self.family, "mode": self.mode, "what": self.what,
                "shape": list(self.shape), "max_abs_error": num(self.max_abs_error),
                "scaled_error": num(self.scaled_error), "agree": self.agree,
                "expected": self.expected, "note": self.note}


@dataclass
class ConformResult:
    """Every family's result; ``agree`` is True only when every family that ran agreed."""

    target: str
    spec: NormSpec
    tol: float
    rows: list[FamilyResult] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def agree(self) -> bool:
        ran = [r for r in self.rows if r.agree is not None]
        return bool(ran) and all(r.agree or r.expected for r in ran)

    def disagreeing(self) -> list[str]:
        """Families (each once, in order) where some mode or buffer disagreed."""
        out: list[str] = []
        for r in self.rows:
            if r.agree is False and not r.expected and r.family not in out:
                out.append(r.family)
        return out

    def as_dict(self) -> dict[str, Any]:
        from .infer import spec_fields
        return {"target": self.target, "spec": spec_fields(self.spec), "tol": self.tol,
                "agree": self.agree, "disagreeing": self.disagreeing(),
                "rows": [r.as_dict() for r in self.rows], "seconds": round(self.seconds, 3)}

    def text(self) -> str:
        lines = [(f"target {self.target} against spec {self.spec.name} "
                  f"(tolerance {self.tol:g} of max(1, |y|))"),
                 (f"  {'family':14} {'mode':6} {'what':14} {'max |error|':>12} "
                  f"{'scaled':>10}  result")]
        for r in self.rows:
            res = ("agree" if r.agree else "differs (expected)" if r.expected else
                   "DISAGREE" if r.agree is False else "not run")
            lines.append(f"  {r.family:14} {r.mode:6} {r.what:14} {r.max_abs_error:12.3g} "
                         f"{r.scaled_error:10.3g}  {res}" + (f"  ({r.note})" if r.note else ""))
        bad = self.disagreeing()
        lines.append("conforms" if self.agree else
                     f"does NOT conform: {', '.join(bad)}" if bad else "nothing was run")
        return "\n".join(lines)


def _family_name(text: str) -> str:
    """The family named ``text``; ``large-mean`` and ``large_mean`` mean ``large mean``."""
    key = " ".join(text.replace("_", " ").replace("-", " ").split()).lower()
    for f in FAMILIES:
        if f.replace("-", " ") == key:
            return f
    raise SymnormError(f"unknown input family {text!r} (choose from "
                       f"{', '.join(f.replace(' ', '-') for f in FAMILIES)})")


def _dyadic(values: np.ndarray, bits: int) -> np.ndarray:
    """Round to multiples of 2**-bits: exact in float64 and as rationals."""
    return np.round(values * 2.0 ** bits) / 2.0 ** bits


def _family_input(name: str, shape: tuple[int, ...], spec: NormSpec,
                  rng: np.random.Generator) -> np.ndarray:
    if name == "near-constant":
        return 3.0 + rng.integers(-4, 5, shape) * 2.0 ** -40
    if name == "large mean":
        return 2.0 ** 20 + rng.integers(-64, 65, shape) / 64.0
    if name == "tiny variance":
        eps = float(spec.eps)
        s = 2.0 ** round(math.log2(math.sqrt(eps))) if eps > 0 else 2.0 ** -20
        return 0.5 + rng.integers(-2, 3, shape) * s
    return _dyadic(rng.uniform(-4, 4, shape), 8)


def _exact(x: np.ndarray) -> np.ndarray:
    out = np.empty(x.shape, dtype=object)
    for idx, v in np.ndenumerate(x):
        out[idx] = Fraction(float(v))
    return out


def _sizes_for(spec: NormSpec, sizes: Any) -> NormSpec:
    pairs = dict(parse_sizes(sizes, spec.layout)) if sizes is not None else {}
    full = {}
    for a, n in spec.sizes:
        n = pairs.get(a) or n
        if n is None:
            n = 2 * spec.groups if a == spec.channel_axis and spec.groups else 3
        full[a] = n
    return spec.with_(sizes=full)


def conforms(fn: Any, spec: NormSpec, *, sizes: Any = None, train: bool | None = None,
             buffers: Mapping[str, Any] | None = None, families: tuple[str, ...] = FAMILIES,
             seed: int = 0, tol: float = TOL, dps: int = 30, random_params: bool = True,
             progress: Callable[[str], None] | None = None) -> ConformResult:
    """Compare ``fn`` with ``spec`` on the input families; see the module docstring.

    ``sizes`` fills or overrides the spec's sizes (symbolic sizes default to 3).
    ``random_params`` sets the exposed weight/bias to random dyadic values for the audit
    (restored afterwards), so the affine part is tested, not just its identity.
    """
    start = time.perf_counter()
    families = tuple(_family_name(f) for f in families)
    if not (isinstance(tol, (int, float)) and math.isfinite(tol) and tol > 0):
        raise SymnormError(f"tol must be a positive number (got {tol!r})")
    spec = _sizes_for(spec, sizes)
    target = as_target(fn, train=train, buffers=buffers)
    result = ConformResult(target.name, spec, tol)
    snap = target.snapshot()
    rng = np.random.default_rng(seed)
    try:
        params = _set_params(target, spec, rng) if random_params else target.params()
        for fam in families:
            if progress is not None:
                progress(fam)
            result.rows.extend(_family(target, spec, fam, params, rng, tol, dps, train))
    finally:
        target.restore(snap)
    result.seconds = time.perf_counter() - start
    return result


def _set_params(t: Target, spec: NormSpec, rng: np.random.Generator) -> dict[str, np.ndarray]:
    params = t.params()
    for k, v in params.items():
        lo, hi = (0.5, 1.5) if k == "weight" else (-1.0, 1.0)
        t.set_param(k, _dyadic(rng.uniform(lo, hi, v.shape), 6))
    return t.params()


def _family(t: Target, spec: NormSpec, fam: str, params: dict[str, np.ndarray],
            rng: np.random.Generator, tol: float, dps: int,
            train: bool | None = None) -> list[FamilyResult]:
    b = spec.batch_axis
    sizes = dict(spec.sizes)
    if fam in ("batch of 2", "batch of 1"):
        if b is None:
            return [FamilyResult(fam, "-", (), note="the spec has no batch axis")]
        sizes[b] = 2 if fam == "batch of 2" else 1
    try:
        fspec = spec.with_(sizes=sizes)
    except SpecError as exc:
        return [FamilyResult(fam, "-", (), note=f"not legal for this spec: {exc}")]
    shape = tuple(int(sizes[a]) for a in spec.layout)  # type: ignore[arg-type]
    x = _family_input(fam, shape, spec, rng)
    xe = _exact(x)
    gain = _exact(params["weight"].reshape(fspec.affine_shape)) if (
        "weight" in params and fspec.affine and params["weight"].size == np.prod(
            fspec.affine_shape)) else None
    bias = _exact(params["bias"].reshape(fspec.affine_shape)) if (
        "bias" in params and fspec.affine and fspec.bias and gain is not None) else None
    expected = fam == "large mean" and spec.fast_variance
    note = ("the spec's one-pass variance cancels here in float64; exact reference"
            if expected else "")
    rows = []
    modes: list[bool | None]
    if train is not None:  # the caller chose one mode
        modes = [train]
    elif spec.running is not None and t.can_set_train():
        modes = [True, False]
    else:
        modes = [t.training()]
    state = initial_state(fspec, shape) if spec.running is not None else None
    for k, mode in enumerate(modes):
        if mode is not None and t.can_set_train():
            t.set_train(mode)
        if spec.running is not None and (mode is not False or k == 0):
            # a training step, or eval without one, starts from the initial buffers (0, 1)
            bufs = t.buffers()
            if "running_mean" not in bufs:
                return [FamilyResult(fam, "train", shape, agree=False,
                                     note="the spec has running statistics; the "
                                          "implementation exposes none")]
            t.set_buffer("running_mean", np.zeros(bufs["running_mean"].shape))
            t.set_buffer("running_var", np.ones(bufs["running_var"].shape))
        label = {True: "train", False: "eval", None: "-"}[mode]
        try:
            ref = forward(fspec, xe, train=mode is not False, gain=gain, bias=bias,
                          state=state, backend="mpmath", dps=dps)
        except SpecError as exc:
            rows.append(FamilyResult(fam, label, shape, note=f"not legal for this spec: {exc}"))
            continue
        y = t(x)
        rows.append(_compare(fam, label, shape, y, ref.y, tol, "output", note, expected))
        if spec.running is not None and mode is not False and ref.state is not None:
            got = t.buffers()
            for key, want in (("running_mean", ref.state.mean), ("running_var", ref.state.var)):
                if key in got:
                    rows.append(_compare(fam, label, shape, got[key], want, tol, key, "",
                                         expected))
            state = RunningState(ref.state.mean, ref.state.var, ref.state.steps)
    return rows


def _compare(fam: str, mode: str, shape: tuple[int, ...], got: np.ndarray, want: np.ndarray,
             tol: float, what: str, note: str, expected: bool = False) -> FamilyResult:
    ref = np.array([float(v) for v in np.ravel(want)]).reshape(np.shape(want))
    got = np.asarray(got, float).reshape(ref.shape)
    diff = np.abs(got - ref)
    err = float(np.max(diff)) if np.all(np.isfinite(got)) else math.inf
    scaled = err / max(1.0, float(np.max(np.abs(ref))))
    agree = bool(scaled <= tol)
    return FamilyResult(fam, mode, shape, err, scaled, agree, what, note,
                        expected and not agree)
