"""The figure registry: a name maps to options and a function computing the figure's data.

Each function evaluates the normalization map itself (mpmath at a scoped precision from
exact rational sample points, or numpy with a fixed seed for sampled figures) and returns
a :class:`FigureData` table; :mod:`symnorm.report.draw` turns it into SVG, PNG and CSV.

>>> data = compute("batch_flip", {"bmin": "-2", "bmax": "2", "points": "3", "eps": "1/100"})
>>> [round(y, 4) for y in data.series[0].y]
[0.995, 0.0, -0.995]
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction as F
from typing import Any

import mpmath

from ..errors import InternalError, SourceError
from .figopts import Option, parse_options

__all__ = ["FIGURES", "FigureData", "FigureKind", "Series", "compute", "validate"]

_DPS = 30
#: Work caps: mpmath evaluations of one ``eps_scale``; numpy samples of one ``batch_spread``.
EPS_SCALE_WORK = 500_000
BATCH_SPREAD_WORK = 10_000_000


@dataclass(frozen=True)
class Series:
    """One curve: its legend label, y values (aligned with the figure's x) and line style."""

    label: str
    y: tuple[float, ...]
    style: str = "-"


@dataclass(frozen=True)
class FigureData:
    """Everything needed to draw a figure and write its CSV."""

    name: str
    title: str
    caption: str
    xlabel: str
    ylabel: str
    xname: str
    x: tuple[float, ...]
    series: tuple[Series, ...]
    xscale: str = "linear"
    marks: tuple[tuple[float, float, str], ...] = ()
    extra: tuple[Series, ...] = field(default=())  # CSV-only columns
    xbase: int = 10  # base of a log x axis

    def columns(self) -> list[str]:
        return [self.xname] + [s.label for s in self.series + self.extra]


@dataclass(frozen=True)
class FigureKind:
    """A registered figure: what it shows, its options and its data function."""

    name: str
    summary: str
    options: dict[str, Option]
    compute: Callable[[dict[str, Any]], FigureData]
    #: Checks of option combinations (work caps...), run by :func:`validate`; ValueError.
    limits: Callable[[dict[str, Any]], None] | None = None


def _fmt(q: F) -> str:
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _grid(lo: F, hi: F, n: int) -> list[F]:
    return [lo + (hi - lo) * k / (n - 1) for k in range(n)] if n > 1 else [lo]


def _log_grid(lo: F, hi: F, n: int) -> list[Any]:
    """``n`` log-spaced mpf points between rationals ``lo`` and ``hi`` (call under workdps)."""
    a, b = mpmath.log10(mpmath.mpf(lo.numerator) / lo.denominator), mpmath.log10(
        mpmath.mpf(hi.numerator) / hi.denominator)
    return [mpmath.power(10, a + (b - a) * k / (n - 1)) for k in range(n)]


def _mpf(q: F) -> Any:
    return mpmath.mpf(q.numerator) / q.denominator


def _cap(what: str, value: int, limit: int) -> None:
    if value > limit:
        raise ValueError(f"{what} = {value} exceeds the limit {limit}; use fewer points")


def _normalize(xs: list[Any], eps: Any) -> tuple[list[Any], Any, Any]:
    """The centered normalized map N_eps(x) = P x / sqrt(v + eps): returns (N, c, s)."""
    d = len(xs)
    mean = mpmath.fsum(xs) / d
    c = [xi - mean for xi in xs]
    v = mpmath.fsum(ci * ci for ci in c) / d
    s = mpmath.sqrt(v + eps)
    return [ci / s for ci in c], c, s


# --- 1. epsilon limits scale invariance -------------------------------------------------


def _eps_scale_limits(o: dict[str, Any]) -> None:
    _cap("d * points * (number of eps)", o["d"] * o["points"] * len(o["eps"]), EPS_SCALE_WORK)


def _eps_scale(o: dict[str, Any]) -> FigureData:
    d, n = o["d"], o["points"]
    _eps_scale_limits(o)
    with mpmath.workdps(_DPS):
        raw = [mpmath.mpf(2 * i - (d - 1)) for i in range(d)]  # centered, then v = 1
        scale = mpmath.sqrt(mpmath.fsum(r * r for r in raw) / d)
        x = [r / scale for r in raw]
        grid = _log_grid(o["amin"], o["amax"], n)
        series = []
        for eps in o["eps"]:
            ys = []
            for a in grid:
                out, _, _ = _normalize([a * xi for xi in x], _mpf(eps))
                ys.append(float(mpmath.sqrt(mpmath.fsum(t * t for t in out) / d)))
            series.append(Series(f"eps = {_fmt(eps)}", tuple(ys)))
        marks = tuple((float(mpmath.sqrt(_mpf(e))), float(1 / mpmath.sqrt(2)),
                       f"a = sqrt(eps) = {float(mpmath.sqrt(_mpf(e))):.3g}")
                      for e in o["eps"] if e > 0)
        xs = tuple(float(a) for a in grid)
    series.append(Series("eps = 0 limit (exact scale invariance)", (1.0,) * n, "--"))
    return FigureData(
        "eps_scale", "Epsilon limits scale invariance",
        f"Norm ratio |N_\u03b5(a x)| / \u221ad for a centered x with variance v = 1 "
        f"(d = {d}), against the scale a > 0. With \u03b5 > 0 the ratio "
        "a\u221av / \u221a(a\u00b2v + \u03b5) falls from 1 to 0 as a shrinks past "
        "\u221a\u03b5 (marked), so N_\u03b5(a x) \u2260 N_\u03b5(x); the dashed \u03b5 = 0 "
        "limit is 1 for every a > 0.",
        "scale a (dimensionless, log axis)", "|N_eps(a x)| / sqrt(d) (dimensionless)",
        "a", xs, tuple(series), "log", marks)


# --- 2. one sample changes with its batch-mate ------------------------------------------


def _batch_flip(o: dict[str, Any]) -> FigureData:
    grid = _grid(o["bmin"], o["bmax"], o["points"])
    series, marks = [], []
    with mpmath.workdps(_DPS):
        for eps in o["eps"]:
            ys = []
            for b in grid:
                if eps == 0 and b == 0:
                    ys.append(math.nan)  # 0/0: the batch has no spread
                    continue
                out, _, _ = _normalize([mpmath.mpf(0), _mpf(b)], _mpf(eps))
                ys.append(float(out[0]))
            series.append(Series(f"eps = {_fmt(eps)}", tuple(ys)))
        eps0 = o["eps"][0]
        for b in (F(-2), F(2)):
            if o["bmin"] <= b <= o["bmax"] and not (eps0 == 0 and b == 0):
                y = float(_normalize([mpmath.mpf(0), _mpf(b)], _mpf(eps0))[0][0])
                marks.append((float(b), y, f"b = {_fmt(b)}: {y:+.4f}"))
    return FigureData(
        "batch_flip", "One sample changes with its batch-mate",
        "BatchNorm output of the sample 0 in the two-sample batch {0, b} (population "
        "variance, no affine): BN_\u03b5(0; {0, b}) = \u2212b / \u221a(b\u00b2 + 4\u03b5). The "
        "sample never "
        "changes, yet replacing its batch-mate b = 2 by b = -2 flips its output from about "
        "-1 to about +1.",
        "batch-mate value b (input units)", "BN_eps(0; {0, b}) (normalized units)",
        "b", tuple(float(b) for b in grid), tuple(series), "linear", tuple(marks))


# --- 3. the spectrum of the Jacobian ----------------------------------------------------


def _jacobian_spectrum_limits(o: dict[str, Any]) -> None:
    if len(o["x"]) < 3 or len(set(o["x"])) == 1:
        raise ValueError("x needs at least 3 entries, not all equal (so c != 0 and d >= 3)")


def _jacobian_spectrum(o: dict[str, Any]) -> FigureData:
    x0 = [F(v) for v in o["x"]]
    d, n = len(x0), o["points"]
    _jacobian_spectrum_limits(o)
    by_eps = o["against"] == "eps"
    rows: list[tuple[float, float, float, float]] = []
    with mpmath.workdps(_DPS):
        grid = _log_grid(o["emin"], o["emax"], n) if by_eps else _log_grid(
            o["amin"], o["amax"], n)
        for t in grid:
            eps, a = (t, mpmath.mpf(1)) if by_eps else (_mpf(o["eps"]), t)
            rows.append((float(t),) + _spectrum([a * _mpf(v) for v in x0], eps))
    xs = tuple(r[0] for r in rows)
    where = "x = (" + ", ".join(_fmt(v) for v in x0) + ")"
    fixed = f"{where}, \u03b5 varies" if by_eps else \
        f"x \u2192 a x with {where}, \u03b5 = {_fmt(o['eps'])}"
    return FigureData(
        "jacobian_spectrum", "The spectrum of the Jacobian J",
        f"Eigenvalues of J = P/s \u2212 c c\u1d40/(d s\u00b3), s = \u221a(v + \u03b5), for "
        f"{fixed}: 0 along 1 (the removed mean direction), \u03b5/s\u00b3 along c (the "
        "suppressed radial direction) "
        "and 1/s on the (d-2)-dimensional complement. Each value is the Rayleigh quotient "
        "on its eigenvector, checked against the full numerical spectrum.",
        "epsilon (log axis)" if by_eps else "scale a of x (dimensionless, log axis)",
        "eigenvalue of J (per input unit)", "eps" if by_eps else "a", xs,
        (Series("along 1 (mean): 0", tuple(r[1] for r in rows), ":"),
         Series("along c (radial): eps/s^3", tuple(r[2] for r in rows)),
         Series(f"complement ({d - 2} dim): 1/s", tuple(r[3] for r in rows), "--")), "log")


def _spectrum(x: list[Any], eps: Any) -> tuple[float, float, float]:
    """Rayleigh quotients of J along 1, c and a unit u orthogonal to both (workdps set)."""
    d = len(x)
    _, c, s = _normalize(x, eps)
    J = mpmath.matrix(d, d)
    for i in range(d):
        for j in range(d):
            J[i, j] = ((1 if i == j else 0) - mpmath.mpf(1) / d) / s - c[i] * c[j] / (d * s**3)
    one = mpmath.matrix([1] * d)
    cv = mpmath.matrix(c)
    u = mpmath.matrix([1 if i == 0 else 0 for i in range(d)])
    for b in (one, cv):  # Gram-Schmidt e_1 against span{1, c}
        u = u - b * ((b.T * u)[0] / (b.T * b)[0])
    if mpmath.norm(u) < mpmath.mpf(10) ** (-_DPS // 2):
        u = mpmath.matrix([1 if i == 1 else 0 for i in range(d)])
        for b in (one, cv):
            u = u - b * ((b.T * u)[0] / (b.T * b)[0])
    quotients = [(b.T * J * b)[0] / (b.T * b)[0] for b in (one, cv, u)]
    expected = sorted([quotients[0], quotients[1]] + [quotients[2]] * (d - 2))
    got = sorted(mpmath.eigsy(J, eigvals_only=True))
    tol = mpmath.mpf(10) ** (-_DPS // 2) * (1 + abs(expected[-1]))
    if any(abs(g - e) > tol for g, e in zip(got, expected)):
        raise InternalError("jacobian_spectrum: Rayleigh quotients disagree with eigsy")
    return tuple(0.0 if abs(q) < tol else float(q) for q in quotients)  # type: ignore


# --- 4. BatchNorm output spread against batch size (seed 003, probe C) -----------------


def _batch_spread_limits(o: dict[str, Any]) -> None:
    _cap("draws * sum(sizes)", o["draws"] * sum(set(o["sizes"])), BATCH_SPREAD_WORK)


def _batch_spread(o: dict[str, Any]) -> FigureData:
    import numpy as np

    mu, sd, x0, eps = (float(o[k]) for k in ("mean", "sd", "x", "eps"))
    rng = np.random.default_rng(o["seed"])
    sizes = sorted(set(o["sizes"]))
    _batch_spread_limits(o)
    means, stds, gaps = [], [], []
    inference = (x0 - mu) / math.sqrt(sd * sd + eps)
    for n in sizes:
        partners = rng.normal(mu, sd, size=(o["draws"], n - 1))
        batch = np.concatenate([np.full((o["draws"], 1), x0), partners], axis=1)
        mb = batch.mean(axis=1)
        vb = ((batch - mb[:, None]) ** 2).mean(axis=1)
        out = (x0 - mb) / np.sqrt(vb + eps)
        means.append(float(out.mean()))
        stds.append(float(out.std()))
        gaps.append(float(np.abs(out - inference).mean()))
    return FigureData(
        "batch_spread", "BatchNorm output of one fixed sample as the batch grows",
        f"One sample x = {o['x']} in a channel with population mean {_fmt(o['mean'])} and "
        f"standard deviation {_fmt(o['sd'])}, batched with {o['draws']} random draws of "
        f"partners per batch size (numpy seed {o['seed']}, \u03b5 = {_fmt(o['eps'])}). The "
        "spread of its BatchNorm output shrinks as the batch grows; at batch size 2 the "
        "output is always +1 or -1. GroupNorm and LayerNorm use the sample alone, so their "
        f"output does not move. Inference-time value (x - mean)/sd = {inference:.4g}.",
        "batch size N (log axis)", "spread of the sample's BN output (normalized units)",
        "batch size", tuple(float(n) for n in sizes),
        (Series("BN: std of the output over batches", tuple(stds)),
         Series("BN: mean |train - inference| output", tuple(gaps), "--"),
         Series("GN / LN (per sample): spread 0", (0.0,) * len(sizes), ":")),
        "log", (), (Series("BN: mean output", tuple(means)),), xbase=2)


_R = "rational"
FIGURES: dict[str, FigureKind] = {k.name: k for k in (
    FigureKind("eps_scale", "norm ratio against the scale a: eps limits scale invariance", {
        "eps": Option("rationals", (F(1, 10), F(1, 100)), F(0), F(10**6)),
        "d": Option("int", 4, F(2), F(4096)),
        "amin": Option(_R, F(1, 1000), F(1, 10**12), F(10**12)),
        "amax": Option(_R, F(1000), F(1, 10**12), F(10**12)),
        "points": Option("int", 121, F(2), F(2001))}, _eps_scale, _eps_scale_limits),
    FigureKind("batch_flip", "BN_eps(0; {0, b}) against b: the sign flip", {
        "eps": Option("rationals", (F(1, 100), F(1, 10)), F(0), F(10**6)),
        "bmin": Option(_R, F(-5), F(-10**6), F(10**6)),
        "bmax": Option(_R, F(5), F(-10**6), F(10**6)),
        "points": Option("int", 101, F(2), F(2001))}, _batch_flip),
    FigureKind("jacobian_spectrum", "eigenvalues 0, eps/s^3, 1/s of J", {
        "against": Option("choice", "eps", choices=("eps", "scale")),
        "x": Option("rationals", (F(1), F(2), F(4)), F(-10**6), F(10**6)),
        "eps": Option(_R, F(1, 10), F(0), F(10**6)),
        "emin": Option(_R, F(1, 10**4), F(1, 10**12), F(10**6)),
        "emax": Option(_R, F(10), F(1, 10**12), F(10**6)),
        "amin": Option(_R, F(1, 100), F(1, 10**12), F(10**12)),
        "amax": Option(_R, F(100), F(1, 10**12), F(10**12)),
        "points": Option("int", 61, F(2), F(401))}, _jacobian_spectrum,
        _jacobian_spectrum_limits),
    FigureKind("batch_spread", "BatchNorm output spread against batch size (seed 003 C)", {
        "mean": Option(_R, F(3, 2), F(-10**6), F(10**6)),
        "sd": Option(_R, F(2), F(1, 10**6), F(10**6)),
        "x": Option(_R, F(3), F(-10**6), F(10**6)),
        "eps": Option(_R, F(0), F(0), F(10**6)),
        "sizes": Option("ints", (2, 3, 4, 6, 8, 12, 16, 24, 32, 64, 128, 256), F(2),
                        F(4096)),
        "draws": Option("int", 300, F(2), F(10000)),
        "seed": Option("int", 3, F(0), F(2**32 - 1))}, _batch_spread, _batch_spread_limits),
)}


def validate(name: str, options: Any = (), file: str = "<figure>",
             line: int = 1) -> dict[str, Any]:
    """Check a figure statement without computing it (for ``symnorm check``); the values."""
    kind = FIGURES.get(name)
    if kind is None:
        raise SourceError(f"unknown figure {name!r}", file, line,
                          hint="available: " + ", ".join(sorted(FIGURES)))
    values = parse_options(name, options, kind.options, file, line)
    for lo, hi in (("amin", "amax"), ("bmin", "bmax"), ("emin", "emax")):
        if lo in values and values[lo] >= values[hi]:
            raise SourceError(f"figure {name}: {lo} must be below {hi}", file, line)
    if kind.limits is not None:  # `check` refuses exactly what `report` could not draw
        try:
            kind.limits(values)
        except ValueError as exc:
            raise SourceError(f"figure {name}: {exc}", file, line) from None
    return values


def compute(name: str, options: Any = (), file: str = "<figure>", line: int = 1) -> FigureData:
    """Compute the data of figure ``name`` from raw ``key=value`` options."""
    values = validate(name, options, file, line)
    kind = FIGURES[name]
    try:
        return kind.compute(values)
    except ValueError as exc:
        raise SourceError(f"figure {name}: {exc}", file, line) from None
