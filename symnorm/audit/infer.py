"""Infer a layer spec from an implementation by probing it: ``infer(fn, layout, sizes)``.

Every field of the returned :class:`~symnorm.spec.NormSpec` comes from a probe on the
implementation (see ``docs/audit.md``): which outputs move when one input moves (reduced
axes, groups), whether adding a constant over a group changes anything (centering), how
the divisor grows with the spread (variance denominator), how it behaves when the variance
is near eps (eps value and placement), what changing the parameters does (affine), one
training step from known buffers (momentum, its convention, running-variance
denominator) and a large mean against a small spread (one-pass variance).  A field no probe
establishes is reported as "could not tell", and then ``.spec`` is None: a spec is only
returned when every field is established and the spec reproduces the implementation on
fresh inputs.

>>> import numpy as np
>>> def ln(x):
...     m = x.mean(-1, keepdims=True)
...     return (x - m) / np.sqrt(((x - m) ** 2).mean(-1, keepdims=True) + 1e-5)
>>> r = infer(ln, layout="N D", sizes="N=3 D=5")
>>> r.spec.name, r.spec.reduce, r.spec.eps, r.spec.eps_inside, r.spec.var_denominator
('layer_norm', ('D',), 1/100000, True, 'N')
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import SymnormError
from ..family.apply import RunningState, forward
from ..family.layout import parse_layout, parse_sizes
from ..spec import NormSpec, RunningStats
from .adapters import AuditError, Target, as_target
from .probes import Evidence

__all__ = ["InferResult", "infer", "spec_differences"]

FIELDS = ("name", "reduce", "groups", "channel_axis", "batch_axis", "center",
          "var_denominator", "eps", "eps_inside", "fast_variance", "affine", "bias",
          "gain_offset", "running")
_NO_BUFFERS = "the implementation exposes no running_mean/running_var buffers"


@dataclass
class InferResult:
    """The inferred spec (None unless every field is established) and the evidence."""

    target: str
    layout: tuple[str, ...]
    sizes: tuple[tuple[str, int | None], ...]
    spec: NormSpec | None
    evidence: dict[str, Evidence]
    calls: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    def unknown(self) -> list[str]:
        """Fields the probes could not establish."""
        return [k for k, e in self.evidence.items() if not e.known]

    def as_dict(self) -> dict[str, Any]:
        return {"target": self.target, "layout": list(self.layout),
                "sizes": {a: n for a, n in self.sizes},
                "spec": None if self.spec is None else spec_fields(self.spec),
                "evidence": {k: e.as_dict() for k, e in self.evidence.items()},
                "calls": self.calls, "seconds": round(self.seconds, 4),
                "failures": list(self.failures)}

    def text(self) -> str:
        """A plain-text summary, one line per field."""
        lines = [f"target {self.target}  layout {' '.join(self.layout)}  sizes "
                 + " ".join(f"{a}={n}" for a, n in self.sizes)]
        for k, e in self.evidence.items():
            val = "could not tell" if not e.known else _show(e.value)
            meas = ", ".join(f"{m}={_short(v)}" for m, v in e.measured.items())
            conf = e.confidence if e.known else "-"
            lines.append(f"  {k:16} {val:34} {conf:8} {meas}" + (f"  ({e.note})" if e.note
                                                                   else ""))
        if self.spec is None:
            why = "; ".join(self.failures) or "fields could not be established: " + \
                ", ".join(self.unknown())
            lines.append(f"no spec: {why}")
        else:
            lines.append(f"spec: {spec_repr(self.spec)}")
        lines.append(f"{self.calls} calls in {self.seconds:.2f} s")
        return "\n".join(lines)


def _show(v: Any) -> str:
    if isinstance(v, tuple) and all(isinstance(a, str) for a in v):
        return " ".join(v) if v else "(none)"
    if isinstance(v, tuple) and len(v) == 2:
        return f"{v[0]} groups of {v[1]}"
    if isinstance(v, RunningStats):
        return f"{v.convention} m={v.momentum} var/{v.var_denominator}"
    return str(v)


def _short(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def spec_fields(spec: NormSpec) -> dict[str, Any]:
    """The spec's fields as JSON-ready values."""
    out: dict[str, Any] = {}
    for k in ("name", "layout", "reduce", "sizes", "center", "var_denominator", "eps",
              "eps_inside", "groups", "channel_axis", "affine", "bias", "gain_offset",
              "batch_axis", "fast_variance"):
        v = getattr(spec, k)
        out[k] = (list(v) if isinstance(v, tuple) and k != "sizes" else
                  {a: n for a, n in v} if k == "sizes" else str(v) if k == "eps" else v)
    r = spec.running
    out["running"] = None if r is None else {"momentum": str(r.momentum),
                                             "convention": r.convention,
                                             "var_denominator": r.var_denominator}
    return out


def spec_repr(spec: NormSpec) -> str:
    """One line with every field."""
    f = spec_fields(spec)
    return ", ".join(f"{k}={v}" for k, v in f.items() if k not in ("layout", "sizes"))


def spec_differences(a: NormSpec, b: NormSpec, eps_rtol: float = 0.01) -> list[str]:
    """Fields in which two specs differ; eps counts as equal within ``eps_rtol`` relative.

    >>> from symnorm.spec import layer_norm
    >>> spec_differences(layer_norm(3, "1e-5"), layer_norm(3, "1.001e-5"))
    []
    >>> spec_differences(layer_norm(3, "1e-5"), layer_norm(3, "1e-5", eps_inside=False))
    ['eps_inside']
    """
    out = []
    for k in ("name", "layout", "reduce", "sizes", "center", "var_denominator", "eps_inside",
              "groups", "channel_axis", "affine", "bias", "gain_offset", "running",
              "batch_axis", "fast_variance"):
        if getattr(a, k) != getattr(b, k):
            out.append(k)
    ea, eb = a.eps, b.eps
    if (ea == 0) != (eb == 0) or (eb != 0 and abs(float(ea / eb) - 1) > eps_rtol):
        out.append("eps")
    return out


class _Prober:
    """State shared by the probes: the target, the tensor shape and a call counter."""

    def __init__(self, target: Target, layout: tuple[str, ...], shape: tuple[int, ...],
                 seed: int) -> None:
        self.t, self.layout, self.shape = target, layout, shape
        self.rng = np.random.default_rng(seed)
        self.calls = 0
        self.base_buffers = target.buffers()

    def __call__(self, x: np.ndarray) -> np.ndarray:
        # each structural probe starts from the same buffers, so updates never accumulate
        for k, v in self.base_buffers.items():
            self.t.set_buffer(k, v)
        self.calls += 1
        y = self.t(x)
        if y.shape != x.shape:
            raise AuditError(f"{self.t.name} returned shape {y.shape} for input {x.shape}")
        return y

    def random(self) -> np.ndarray:
        return self.rng.standard_normal(self.shape) + 0.5


def infer(fn: Any, layout: str = "N C H W", sizes: Any = None, train: bool | None = None,
          buffers: Mapping[str, Any] | None = None, *, seed: int = 0) -> InferResult:
    """Probe ``fn`` (torch module, ``torch.nn.functional`` wrapper, numpy callable or
    :class:`~symnorm.audit.adapters.Target`) on tensors of ``layout`` and ``sizes`` and
    return the spec the probes establish, with the evidence per field.

    ``train``: the mode to audit (None: the implementation's own; a module or a callable
    with a ``training`` keyword is switched as the probes need and restored).  ``buffers``:
    writable arrays a numpy callable reads and updates as running mean/variance.
    """
    start = time.perf_counter()
    lay = parse_layout(layout)
    pairs = parse_sizes(sizes if sizes is not None else {a: 4 for a in lay}, lay)
    if any(n is None for _, n in pairs):
        missing = [a for a, n in pairs if n is None]
        raise SymnormError(f"sizes: give a size for every axis (missing {' '.join(missing)})")
    shape = tuple(int(n) for _, n in pairs)  # type: ignore[arg-type]
    target = as_target(fn, train=train, buffers=buffers)
    snap = target.snapshot()
    try:
        p = _Prober(target, lay, shape, seed)
        ev, failures = _run(p, lay, pairs, train)
        calls = p.calls
    finally:
        target.restore(snap)
    spec = None
    if not failures and all(e.known for e in ev.values()):
        spec, why = _build(ev, lay, pairs)
        if spec is None:
            failures.append(why)
        else:
            target2 = target
            snap2 = target2.snapshot()
            try:
                err = _consistency(target2, spec, shape, seed + 1, train)
            finally:
                target2.restore(snap2)
            ev["consistency"] = Evidence(
                "consistency", err <= 1e-8,
                [("the inferred spec (float64) against the implementation on fresh "
                  "random inputs, train and eval paths")], {"max_abs_error": err},
                "high" if err <= 1e-8 else "low")
            if err > 1e-8:
                failures.append(f"the inferred spec does not reproduce the implementation "
                                f"(max error {err:.3g})")
                spec = None
    return InferResult(getattr(target, "name", "callable"), lay, pairs, spec, ev,
                       calls, time.perf_counter() - start, failures)


def _run(p: _Prober, lay: tuple[str, ...], pairs: Any,
         train: bool | None) -> tuple[dict[str, Evidence], list[str]]:
    t = p.t
    ev: dict[str, Evidence] = {}
    failures: list[str] = []
    bufs = t.buffers()
    has_running = "running_mean" in bufs and "running_var" in bufs
    mode = t.training()
    # the statistics are visible in training mode; eval mode with running stats is elementwise
    if has_running and mode is False:
        if t.can_set_train() and train is None:
            t.set_train(True)
        else:
            failures.append("eval mode only, with running statistics: the batch statistics "
                            "cannot be observed (pass train=None with a switchable mode)")
            return ev, failures
    from . import infer_probes as P
    P.affine(p, ev)
    reduce_ev, group = P.structure(p, ev)
    if group is None:
        failures.append(reduce_ev.note or "the reduction could not be determined")
        return ev, failures
    P.center(p, ev, group)
    P.denominator_eps(p, ev, group)
    P.fast_variance(p, ev, group)
    if has_running:
        P.running(p, ev, lay, pairs, mode, train)
    else:
        ev["running"] = Evidence("running", None, [_NO_BUFFERS], {}, "high")
    return ev, failures


def _build(ev: dict[str, Evidence], lay: tuple[str, ...],
           pairs: Any) -> tuple[NormSpec | None, str]:
    v = {k: e.value for k, e in ev.items()}
    b = "N" if "N" in lay else lay[0]
    c = "C" if "C" in lay else lay[-1]
    reduce: tuple[str, ...] = v["reduce"]
    grouped = v["groups"]
    groups, channel = (None, None) if grouped is None else grouped
    kept = tuple(a for a in lay if a not in reduce and a != channel)
    affine: tuple[str, ...] = v["affine"]
    if not v["center"]:
        name, ch = "rms_norm", None
    elif groups is not None:
        name, ch = "group_norm", channel
    elif b in reduce:
        name, ch = "batch_norm", (kept[0] if len(kept) == 1 else c)
    elif c in reduce and len(reduce) > 1 and affine == (c,):
        # every channel in one group with a per-channel gain: GroupNorm(1), by its affine
        name, ch, groups, reduce = "group_norm", c, 1, tuple(a for a in reduce if a != c)
    elif set(kept) == {b, c} and not (affine and set(affine) <= set(reduce)):
        name, ch = "instance_norm", c
    else:
        name, ch = "layer_norm", None
    try:
        spec = NormSpec(name=name, layout=lay, reduce=reduce, sizes=pairs, center=v["center"],
                        var_denominator=v["var_denominator"], eps=v["eps"],
                        eps_inside=v["eps_inside"], groups=groups, channel_axis=ch,
                        affine=affine, bias=v["bias"], gain_offset=v["gain_offset"],
                        running=v["running"], batch_axis=b,
                        fast_variance=v["fast_variance"], source="inferred by symnorm audit")
    except SymnormError as exc:
        return None, f"the established fields do not form a valid spec: {exc}"
    return spec, ""


def _consistency(t: Target, spec: NormSpec, shape: tuple[int, ...], seed: int,
                 train: bool | None = None) -> float:
    """Max |implementation - spec| (float64 forward) over fresh inputs, train and eval."""
    rng = np.random.default_rng(seed)
    params = t.params()
    gain = params.get("weight")
    bias = params.get("bias")
    worst = 0.0
    if train is not None or not t.can_set_train() or spec.running is None:
        modes = [t.training()]  # the mode the caller fixed, or the only one
    else:
        modes = [True, False]
    for mode in modes:
        if mode is not None and t.can_set_train():
            t.set_train(mode)
        for _ in range(2):
            x = rng.standard_normal(shape) * 3 + 1
            state = None
            if spec.running is not None:
                rm = rng.uniform(-1, 1, t.buffers()["running_mean"].shape)
                rv = rng.uniform(0.5, 2, rm.shape)
                t.set_buffer("running_mean", rm)
                t.set_buffer("running_var", rv)
                state = RunningState(rm, rv)
            y = t(x)
            ref = forward(spec, x, train=mode is not False,
                          gain=gain if spec.affine else None,
                          bias=bias if spec.bias and spec.affine else None,
                          state=state, backend="numpy")
            worst = max(worst, float(np.max(np.abs(y - ref.y))))
            if spec.running is not None and mode is not False and ref.state is not None:
                got = t.buffers()
                worst = max(worst, float(np.max(np.abs(got["running_mean"] - ref.state.mean))),
                            float(np.max(np.abs(got["running_var"] - ref.state.var))))
    if not math.isfinite(worst):
        return math.inf
    return worst
