"""The probes behind :func:`symnorm.audit.infer`, one function per group of spec fields.

Each probe writes :class:`~symnorm.audit.probes.Evidence` into ``ev`` and accepts a value
only when the measurement is near one hypothesis and far from every other (thresholds
beside each probe, explained in ``docs/audit.md``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import SymnormError
from ..family.apply import RunningState, forward
from ..spec import RunningStats, as_rational
from .probes import UNKNOWN, Evidence, Group, choose, nice_rational, pattern, root_of

if TYPE_CHECKING:
    from .infer import _Prober

__all__ = ["affine", "center", "denominator_eps", "fast_variance", "running", "structure"]

#: Relative agreement that counts as "equal" for float64 outputs of a few operations.
SAME = 1e-9
RM0, RV0 = 0.25, 2.0


def _close(a: np.ndarray, b: np.ndarray, tol: float = SAME) -> bool:
    a, b = np.asarray(a, float), np.asarray(b, float)
    return bool(np.all(np.isfinite(a)) and np.all(np.abs(a - b) <= tol * (1 + np.abs(b))))


def affine(p: _Prober, ev: dict[str, Evidence]) -> None:
    """Gain offset, affine axes and bias, from setting the exposed parameters."""
    t = p.t
    params = t.params()
    if "weight" not in params:
        note = ("no weight exposed" + (" (a bias alone is not a NormSpec affine)"
                                       if "bias" in params else ""))
        if "bias" in params:
            for k in ("affine", "gain_offset", "bias"):
                ev[k] = Evidence(k, UNKNOWN, ["parameters exposed"], {}, note=note)
            return
        ev["affine"] = Evidence("affine", (), ["parameters exposed"], {}, "high",
                                "no weight or bias exposed: the callable is taken as it is")
        ev["gain_offset"] = Evidence("gain_offset", 0, ["parameters exposed"], {}, "high",
                                     "no gain")
        ev["bias"] = Evidence("bias", None, ["parameters exposed"], {}, "high",
                              "no parameters; set by convention after the centering probe")
        return
    w_shape = params["weight"].shape
    if "bias" in params:
        t.set_param("bias", np.zeros(params["bias"].shape))
    x = p.random()
    outs = {}
    for w in (0.0, 1.0, 2.0):
        t.set_param("weight", np.full(w_shape, w))
        outs[w] = p(x)
    y0, y1, y2 = outs[0.0], outs[1.0], outs[2.0]
    scale = float(np.max(np.abs(y1)))
    if float(np.max(np.abs(y0))) <= SAME * scale and _close(y2, 2 * y1):
        offset = 0
    elif _close(y1, 2 * y0) and _close(y2, 3 * y0):
        offset = 1
    else:
        for k in ("gain_offset", "affine", "bias"):
            ev[k] = Evidence(k, UNKNOWN, ["weight set to 0, 1, 2"],
                             {"max|y(w=0)|": float(np.max(np.abs(y0)))},
                             note="the output is neither w*n(x) nor (1+w)*n(x)")
        return
    ev["gain_offset"] = Evidence("gain_offset", offset, ["weight set to 0, 1, 2 (bias 0)"],
                                 {"max|y(w=0)|/max|y(w=1)|": float(np.max(np.abs(y0))) / scale},
                                 "high", "y(w=0) = 0: gain w" if offset == 0 else
                                 "y(w=1) = 2 y(w=0): gain 1 + w")
    ident = np.full(w_shape, 1.0 - offset)
    t.set_param("weight", ident)
    y_id = p(x)
    w = p.rng.uniform(0.5, 1.5, w_shape)
    t.set_param("weight", w)
    y_w = p(x)
    t.set_param("weight", ident)
    ok = np.abs(y_id) > 1e-6
    ratio = np.where(ok, y_w / np.where(ok, y_id, 1.0), np.nan)
    axes = tuple(a for k, a in enumerate(p.layout) if p.shape[k] > 1 and
                 np.nanmax(np.nanmax(ratio, axis=k) - np.nanmin(ratio, axis=k)) > 1e-9)
    view = tuple(n if a in axes else 1 for a, n in zip(p.layout, p.shape))
    want = int(np.prod([n for a, n in zip(p.layout, p.shape) if a in axes]))
    if w.size != want or not _close(np.where(ok, ratio, 0),
                                    np.where(ok, np.broadcast_to(
                                        (w.reshape(view) + offset), p.shape), 0)):
        ev["affine"] = Evidence("affine", UNKNOWN, ["distinct weights"], {},
                                note="the output does not scale by the weight along any "
                                     "set of axes")
        ev["bias"] = Evidence("bias", UNKNOWN, [], {}, note="affine axes unknown")
        return
    ev["affine"] = Evidence("affine", axes, [("distinct random weights; ratio y(w)/y(1) "
                                              "varies along exactly these axes and equals w")],
                            {"weight shape": list(w_shape)}, "high")
    if "bias" not in params:
        ev["bias"] = Evidence("bias", False, ["parameters exposed"], {}, "high",
                              "a weight and no bias")
        return
    bvals = p.rng.uniform(-1, 1, params["bias"].shape)
    t.set_param("bias", bvals)
    y_b = p(x)
    t.set_param("bias", np.zeros(params["bias"].shape))
    good = bvals.size == w.size and _close(y_b - y_id, np.broadcast_to(bvals.reshape(view),
                                                                      p.shape))
    ev["bias"] = Evidence("bias", True if good else UNKNOWN,
                          ["random bias: y(b) - y(0) equals b broadcast over the affine axes"],
                          {"max deviation": float(np.max(np.abs(
                              y_b - y_id - (np.broadcast_to(bvals.reshape(view), p.shape)
                                            if bvals.size == w.size else 0))))},
                          "high" if good else "low",
                          "" if good else "setting the bias does not shift the output by it")


def structure(p: _Prober, ev: dict[str, Evidence]) -> tuple[Evidence, Group | None]:
    """Reduced axes and groups: perturb one element and see which outputs move."""
    x = p.random()
    y0 = p(x)
    ndim = len(p.shape)
    found: list[tuple[tuple[str, ...], Any, np.ndarray]] = []
    probes = []
    for pos in ((0,) * ndim, tuple(n - 1 for n in p.shape)):
        x2 = x.copy()
        x2[pos] += 0.7
        moved = np.abs(p(x2) - y0) > 1e-10 * (1 + np.abs(y0))
        probes.append(f"x{list(pos)} += 0.7: {int(moved.sum())} outputs moved")
        res = _classify(p, pos, moved)
        if isinstance(res, str):
            e = Evidence("reduce", UNKNOWN, probes, {}, note=res)
            ev["reduce"] = e
            ev["groups"] = Evidence("groups", UNKNOWN, probes, {}, note=res)
            return e, None
        found.append((res[0], res[1], moved))
    if found[0][:2] != found[1][:2]:
        note = "the first and the last element move different axis patterns"
        e = Evidence("reduce", UNKNOWN, probes, {}, note=note)
        ev["reduce"], ev["groups"] = e, Evidence("groups", UNKNOWN, probes, {}, note=note)
        return e, None
    reduce, groups, moved = found[0]
    e = Evidence("reduce", reduce, probes, {"outputs sharing a statistic": int(moved.sum())},
                 "high", "moved outputs span these axes fully")
    ev["reduce"] = e
    ev["groups"] = Evidence("groups", groups, probes, {}, "high",
                            "" if groups is None else
                            f"moved outputs cover one block of {p.shape[p.layout.index(groups[1])] // groups[0]} "
                            f"contiguous entries of {groups[1]}")
    return e, Group(moved)


def _classify(p: _Prober, pos: tuple[int, ...], moved: np.ndarray) -> Any:
    if not moved[pos]:
        return f"the output at {list(pos)} does not depend on its own input"
    reduce: list[str] = []
    groups = None
    indicators = []
    for k, (a, n) in enumerate(zip(p.layout, p.shape)):
        other = tuple(i for i in range(moved.ndim) if i != k)
        along = moved.any(axis=other) if other else moved
        idx = np.flatnonzero(along)
        indicators.append(along)
        if n == 1:
            return (f"axis {a} has size 1: whether it is reduced cannot be seen "
                    "(give it size >= 2)")
        if len(idx) == n:
            reduce.append(a)
        elif len(idx) == 1:
            continue
        else:
            blk = len(idx)
            if n % blk or idx[0] % blk or idx[-1] - idx[0] != blk - 1 or groups is not None:
                return (f"outputs moved at {a} = {idx.tolist()}: not the whole axis, one "
                        "entry or one block of contiguous channels")
            groups = (n // blk, a)
    prod = indicators[0]
    for ind in indicators[1:]:
        prod = np.multiply.outer(prod, ind)
    if not np.array_equal(prod, moved):
        return "the outputs that moved are not a product of axis ranges"
    if not reduce and groups is None:
        return ("only the perturbed output moved: no statistic is shared (eval mode "
                "with fixed statistics?)")
    return tuple(reduce), groups


def center(p: _Prober, ev: dict[str, Evidence], g: Group) -> None:
    """Centering: add 3 to every input sharing one statistic; a centered layer ignores it."""
    x = p.random()
    y0 = p(x)
    y1 = p(x + 3.0 * g.mask)
    change = float(np.max(np.abs(y1 - y0))) / max(1.0, float(np.max(np.abs(y0))))
    value = True if change < 1e-8 else False if change > 1e-3 else UNKNOWN
    ev["center"] = Evidence("center", value, ["add 3 to one statistic's inputs"],
                            {"relative output change": change}, "high")
    if ev.get("bias") is not None and ev["bias"].value is None:
        # no parameters exposed: the spec constructors' convention (RMSNorm has no bias)
        ev["bias"].value = bool(value) if value is not UNKNOWN else UNKNOWN


def _root(p: _Prober, g: Group, x: np.ndarray, centered: np.ndarray, m: float) -> float:
    x = x.copy()
    x[g.mask] = m + centered
    y = p(x)
    return root_of(centered, y[g.mask])


def denominator_eps(p: _Prober, ev: dict[str, Evidence], g: Group) -> None:
    """Variance denominator from a wide spread; eps and its placement from spreads near it."""
    n = g.n
    z = pattern(n)
    base = p.random()
    # the slope of the divisor between two wide spreads: exact for sqrt(v) + eps, and off
    # by about eps / (2 a1 a2) for sqrt(v + eps)
    a1, a2 = 1e5, 2e5
    r1, r2 = _root(p, g, base, a1 * z, 0.0), _root(p, g, base, a2 * z, 0.0)
    d_meas = ((r2 - r1) / (a2 - a1)) ** 2
    hyp = {"N": 1.0, "N-1": n / (n - 1)}
    choice, sep = choose(d_meas, hyp, accept=1e-6)
    ev["var_denominator"] = Evidence(
        "var_denominator", choice,
        [f"spreads 1e5, 2e5: (slope of the divisor)^2 against the biased variance of {n} values"],
        {"ratio": d_meas, "N/(N-1)": n / (n - 1), "separation": sep},
        "high" if choice is not UNKNOWN else "low")
    if choice is UNKNOWN:
        for k in ("eps", "eps_inside"):
            ev[k] = Evidence(k, UNKNOWN, [], {}, note="variance denominator unknown")
        return
    dh = hyp[choice]
    a0 = None
    scan = []
    for k in range(2, -41, -1):
        a = 10.0 ** k
        q = _root(p, g, base, a * z, 0.0) / (a * math.sqrt(dh)) - 1
        scan.append(k)
        if math.isfinite(q) and q > 0.05:
            a0 = a
            break
    if a0 is None:
        ev["eps"] = Evidence("eps", as_rational(0, "eps"),
                             [f"spreads 1e2 .. 1e{scan[-1]}: divisor = spread throughout"],
                             {"eps below": 0.1 * (10.0 ** scan[-1]) ** 2 * dh}, "bounded",
                             "no eps visible at any spread down to 1e-40")
        ev["eps_inside"] = Evidence("eps_inside", True, [], {}, "high",
                                    "eps = 0: both placements are the same map")
        return
    rs = [(a, _root(p, g, base, a * z, 0.0)) for a in (a0, a0 / 2, a0 / 4)]
    e_in = [rr * rr - a * a * dh for a, rr in rs]
    e_out = [rr - a * math.sqrt(dh) for a, rr in rs]

    def spread(vals: list[float]) -> float:
        m = sum(vals) / len(vals)
        return max(abs(v - m) for v in vals) / abs(m) if m else math.inf

    s_in, s_out = spread(e_in), spread(e_out)
    probes = [f"spread scan 1e2 .. {a0:.0e}: eps visible at {a0:.0e}",
              ("spreads a0, a0/2, a0/4: r^2 - a^2 D constant (inside) or r - a sqrt(D) "
               "constant (outside)")]
    meas = {"variation r^2-a^2D": s_in, "variation r-a*sqrt(D)": s_out}
    if s_in < 1e-5 and s_out > 1e-2:
        inside, eps = True, sum(e_in) / 3
    elif s_out < 1e-5 and s_in > 1e-2:
        inside, eps = False, sum(e_out) / 3
    else:
        ev["eps_inside"] = Evidence("eps_inside", UNKNOWN, probes, meas,
                                    note="neither placement fits the measured divisors")
        ev["eps"] = Evidence("eps", UNKNOWN, probes, meas, note="placement unknown")
        return
    ev["eps_inside"] = Evidence("eps_inside", inside, probes, meas, "high",
                                "sqrt(var + eps)" if inside else "sqrt(var) + eps")
    exact, shown = nice_rational(eps)
    ev["eps"] = Evidence("eps", as_rational(exact, "eps"), probes,
                         {"measured": eps, "taken as": shown}, "high")


def fast_variance(p: _Prober, ev: dict[str, Evidence], g: Group) -> None:
    """One-pass variance: a large mean against a unit spread ruins E[x^2] - E[x]^2."""
    if ev["center"].value is not True:
        known = ev["center"].value is False
        ev["fast_variance"] = Evidence("fast_variance", False if known else UNKNOWN, [], {},
                                       "high", "no centering: the statistic is mean(x^2)"
                                       if known else "centering unknown")
        return
    if not (ev["eps"].known and ev["eps_inside"].known and ev["var_denominator"].known):
        ev["fast_variance"] = Evidence("fast_variance", UNKNOWN, [], {},
                                       note="eps or denominator unknown")
        return
    n = g.n
    dh = 1.0 if ev["var_denominator"].value == "N" else n / (n - 1)
    eps = float(ev["eps"].value)
    want = math.sqrt(dh + eps) if ev["eps_inside"].value else math.sqrt(dh) + eps
    z = pattern(n)
    base = p.random()
    errs = []
    for m in (1e8 + 0.37, -3.3e7 - 0.11):
        errs.append(abs(_root(p, g, base, z, m) / want - 1))
    worst = max(errs)
    value = (UNKNOWN if not math.isfinite(worst) else True if worst > 1e-3 else
             False if worst < 1e-6 else UNKNOWN)
    ev["fast_variance"] = Evidence(
        "fast_variance", value, [("mean 1e8 and -3.3e7, spread 1: divisor against the "
                                  "exact two-pass value")], {"relative divisor error": worst},
        "high" if value is not UNKNOWN else "low",
        "" if math.isfinite(worst) else "non-finite output: one-pass without clipping?")


def _stats_spec(ev: dict[str, Evidence], lay: tuple[str, ...], pairs: Any,
                running: RunningStats) -> Any:
    from .infer import _build
    tmp = dict(ev)
    tmp["running"] = Evidence("running", running, [], {})
    spec, _ = _build(tmp, lay, pairs)
    return spec


def running(p: _Prober, ev: dict[str, Evidence], lay: tuple[str, ...], pairs: Any,
            mode: bool | None, train: bool | None) -> None:
    """Momentum, convention and running-variance denominator from training steps with
    known buffers; the eval path from known buffers."""
    t = p.t
    need = ("reduce", "groups", "center", "var_denominator", "eps", "eps_inside", "affine",
            "bias", "gain_offset", "fast_variance")
    if not all(ev[k].known for k in need if k in ev):
        ev["running"] = Evidence("running", UNKNOWN, [], {}, note="structure unknown")
        return
    shape_b = t.buffers()["running_mean"].shape
    probe_n = _stats_spec(ev, lay, pairs, RunningStats(1, "new", "N"))
    probe_n1 = _stats_spec(ev, lay, pairs, RunningStats(1, "new", "N-1"))
    if probe_n is None or probe_n1 is None:
        ev["running"] = Evidence("running", UNKNOWN, [], {}, note="no valid spec to compare")
        return

    def batch(x: np.ndarray, spec: Any) -> RunningState:
        st = RunningState(np.zeros(shape_b), np.ones(shape_b))
        out = forward(spec, x, state=st, backend="numpy")
        assert out.state is not None
        return out.state

    def step(x: np.ndarray, rm: np.ndarray, rv: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        t.set_buffer("running_mean", rm)
        t.set_buffer("running_var", rv)
        p.calls += 1
        t(x)
        b = t.buffers()
        return b["running_mean"], b["running_var"]

    x1 = p.random() * 2 + 1.5
    rm0, rv0 = np.full(shape_b, RM0), np.full(shape_b, RV0)
    try:
        s_n, s_n1 = batch(x1, probe_n), batch(x1, probe_n1)
    except SymnormError as exc:
        ev["running"] = Evidence("running", UNKNOWN, [], {}, note=str(exc))
        return
    rm1, rv1 = step(x1, rm0, rv0)
    w_all = (rm1 - rm0) / (s_n.mean - rm0)
    w = float(np.mean(w_all))
    probes = ["one step from running mean 0.25, variance 2"]
    meas: dict[str, Any] = {"batch weight": w}
    if not np.all(np.abs(w_all - w) <= 1e-9) or not -1e-12 <= w <= 1 + 1e-12:
        ev["running"] = Evidence("running", UNKNOWN, probes, meas,
                                 note="the running mean is not a weighted average of the "
                                      "old value and the batch mean")
        return
    if w <= 1e-12:
        ev["running"] = Evidence("running", UNKNOWN, probes, meas,
                                 note="the buffers did not change: not a training step "
                                      "(pass train=True or a switchable implementation)")
        return
    vr = (rv1 - (1 - w) * rv0) / w
    d_n = float(np.max(np.abs(vr / s_n.var - 1)))
    d_n1 = float(np.max(np.abs(vr / s_n1.var - 1)))
    meas.update({"rel. error vs var/N": d_n, "rel. error vs var/(N-1)": d_n1})
    vden = ("N" if d_n < 1e-7 and d_n1 > 1e-5 else "N-1" if d_n1 < 1e-7 and d_n > 1e-5
            else UNKNOWN)
    if vden is UNKNOWN:
        ev["running"] = Evidence("running", UNKNOWN, probes, meas,
                                 note="the running variance fits neither denominator")
        return
    # second step from the first's buffers with another batch: fixed weight or 1/k
    x2 = p.random() * 0.5 - 2.0
    s2 = batch(x2, probe_n)
    p.calls += 1
    t(x2)  # no buffer reset: PyTorch's cumulative count must keep running
    rm2 = t.buffers()["running_mean"]
    w2 = float(np.mean((rm2 - rm1) / (s2.mean - rm1)))
    meas["second-step weight"] = w2
    probes.append("a second step from the first's buffers")
    rule: Any = UNKNOWN
    note = ""
    if abs(w - 1) < 1e-9 and abs(w2 - 0.5) < 1e-9:
        rule = RunningStats(0, "cumulative", vden)
        note = "weights 1, 1/2: cumulative average"
    elif abs(w2 - w) < 1e-9:
        m = t.momentum() if t.has_momentum() else None
        if m is None:
            note = (f"the batch gets weight {w:.6g} each step; the implementation exposes "
                    "no momentum, so which convention its parameter follows is unseen")
        else:
            old = m
            t.set_momentum(0.3)
            try:
                w3 = float(np.mean((step(x1, rm0, rv0)[0] - rm0) / (s_n.mean - rm0)))
            finally:
                t.set_momentum(old)
            meas["weight with momentum=0.3"] = w3
            probes.append("momentum set to 0.3 for one step")
            mom = as_rational(m, "momentum")
            if abs(w3 - 0.3) < 1e-9 and abs(w - m) < 1e-9:
                rule, note = RunningStats(mom, "new", vden), "momentum weights the new batch"
            elif abs(w3 - 0.7) < 1e-9 and abs(w - (1 - m)) < 1e-9:
                rule, note = RunningStats(mom, "old", vden), "momentum weights the old value"
            else:
                note = "changing momentum does not change the weight as either convention"
    else:
        note = "the batch weight changes between steps, but not as 1, 1/2"
    if rule is UNKNOWN:
        ev["running"] = Evidence("running", UNKNOWN, probes, meas, note=note)
        return
    conf = "high"
    if t.can_set_train() and train is None:
        t.set_train(False)
        try:
            rmE = p.rng.uniform(-1, 1, shape_b)
            rvE = p.rng.uniform(0.5, 2.0, shape_b)
            t.set_buffer("running_mean", rmE)
            t.set_buffer("running_var", rvE)
            x = p.random()
            p.calls += 1
            y = t(x)
            params = t.params()
            spec = _stats_spec(ev, lay, pairs, rule)
            ref = forward(spec, x, train=False, state=RunningState(rmE, rvE),
                          gain=params.get("weight") if spec.affine else None,
                          bias=params.get("bias") if spec.affine and spec.bias else None,
                          backend="numpy")
            err = float(np.max(np.abs(y - ref.y)))
        finally:
            t.set_train(True)
        meas["eval error with known buffers"] = err
        probes.append("eval mode with random known buffers")
        if not err <= 1e-8:
            ev["running"] = Evidence("running", UNKNOWN, probes, meas,
                                     note="eval mode does not normalize with the buffers")
            return
    else:
        conf = "partial"
        note += ("; eval mode not observed (no switch, or the mode was fixed): its use of "
                 "the buffers is assumed")
    ev["running"] = Evidence("running", rule, probes, meas, conf, note)

