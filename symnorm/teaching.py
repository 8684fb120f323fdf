"""Helpers for the teaching notebooks: claims checked inline, and figures that read on a page.

:func:`prove` checks claim-language lines exactly as ``symnorm check`` checks a ``symnorm``
block, and raises when a verdict is not the one the notebook expects, so a notebook that
states a false claim stops instead of printing it.  The ``plot_*`` functions compute with
symnorm's exact or mpmath maps and return a :class:`matplotlib.figure.Figure` built without
``pyplot``: as the last value of a cell it displays exactly once, in any backend.  Every
figure passes :func:`finish`, which refuses a panel without a title, axis labels ending in a
unit in parentheses, or a legend.

>>> r = prove("use layernorm\\nclaim idem: P*P == P", sandbox=False)
>>> [(v.label, v.status, v.scope) for v in r.verdicts]
[('idem', 'proved', 'every d >= 2')]
>>> prove("use layernorm\\nclaim wrong: P*P == 2*P", sandbox=False)
Traceback (most recent call last):
...
symnorm.teaching.ClaimsNotAsExpected: wrong (line 3): refuted, expected proved
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence
from typing import Any

import mpmath
import numpy as np
import sympy
from matplotlib.figure import Figure

from .check.run import check_text
from .check.verdict import PROVED, STATUSES, Verdict
from .errors import SymnormError
from .family.apply import forward
from .spec import as_rational, batch_norm, group_norm, layer_norm, rms_norm

__all__ = [
    "Claims",
    "ClaimsNotAsExpected",
    "FigureError",
    "batch_outputs",
    "finish",
    "gradient_parts",
    "new_figure",
    "plot_batch_dependence",
    "plot_centering_plane",
    "plot_eps_grid",
    "plot_gradient_filter",
    "plot_jacobian_action",
    "plot_momentum",
    "plot_norm_vs_scale",
    "plot_pair_flip",
    "plot_plane_outputs",
    "plot_post_norm_gain",
    "plot_rms_vs_layer_norm",
    "plot_shared_statistics",
    "plot_train_vs_eval",
    "prove",
    "rationals",
    "running_means",
    "shared_cells",
]

#: The file name that the verdicts of :func:`prove` carry.
SOURCE = "<notebook>"
_UNIT = re.compile(r"\(([^()]+)\)\s*$")


class ClaimsNotAsExpected(SymnormError, AssertionError):
    """A claim checked by :func:`prove` did not get the expected status."""


class FigureError(SymnormError, ValueError):
    """A figure misses a title, an axis label with a unit, or a legend."""


class Claims:
    """The verdicts of one :func:`prove` call; shows as a table in a notebook."""

    def __init__(self, verdicts: list[Verdict]) -> None:
        self.verdicts = verdicts

    def __getitem__(self, label: str) -> Verdict:
        for v in self.verdicts:
            if v.label == label:
                return v
        raise KeyError(label)

    def __len__(self) -> int:
        return len(self.verdicts)

    def _rows(self) -> list[tuple[str, str, str, str, str]]:
        """label, statement, status, scope (or the first line of the message), settings."""
        return [(v.label, v.statement, v.status,
                 v.scope or (v.message.splitlines()[0] if v.message else ""),
                 "; ".join(v.assumptions)) for v in self.verdicts]

    def __repr__(self) -> str:
        rows = self._rows()
        width = max((len(r[0]) for r in rows), default=5)
        return "\n".join(f"{lab:<{width}}  {st:<10}  {sc}  |  {stmt}"
                         + (f"  |  assuming {asm}" if asm else "")
                         for lab, stmt, st, sc, asm in rows)

    def _repr_html_(self) -> str:
        e = html.escape
        left = ' style="text-align:left"'
        body = "".join(f"<tr><td{left}><code>{e(lab)}</code></td>"
                       f"<td{left}><code>{e(stmt)}</code></td>"
                       f"<td{left}><b>{e(st)}</b></td><td{left}>{e(sc)}</td>"
                       f"<td{left}>{e(asm)}</td></tr>"
                       for lab, stmt, st, sc, asm in self._rows())
        head = "".join(f"<th{left}>{h}</th>" for h in
                       ("claim", "statement", "status", "scope", "settings in force"))
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def prove(source: str, *, expect: str | Iterable[str] = PROVED, timeout: float = 60.0,
          dps: int = 50, sandbox: bool = True) -> Claims:
    """Check claim-language lines (the body of a ``symnorm`` block) and return their verdicts.

    Raises :class:`ClaimsNotAsExpected` unless every verdict's status is in ``expect``
    (``"proved"`` by default; pass ``"refuted"`` to show that a wrong claim is refuted).
    Verdicts and messages count lines in the block with its opening fence as line 1: when
    ``source`` starts with a newline (a triple-quoted string written as in the notebooks)
    the fence takes that empty line, so the numbers are the lines of ``source`` itself
    (``source.splitlines()[n - 1]`` is line n).  ``sandbox=True`` runs
    each claim in a killable worker with ``timeout`` seconds, as ``symnorm check`` does; the
    default is three times the command's 20 s, because a notebook on a shared machine should
    not fail for want of time on a claim that the command proves.
    """
    wanted = {expect} if isinstance(expect, str) else set(expect)
    unknown = wanted - set(STATUSES)
    if not wanted or unknown:
        raise ValueError(f"expect must be statuses among {STATUSES} (got {sorted(unknown)})")
    if "```" in source or "~~~" in source:
        raise SymnormError("prove() takes the lines of one symnorm block, without fences "
                           "(found ``` or ~~~)")
    # The fence takes the first line; a source that starts with a newline (a triple-quoted
    # block) gives it that empty line, so verdict lines are the lines of the string itself.
    text = "```symnorm" + ("" if source.startswith("\n") else "\n") + source + "\n```\n"
    result = check_text(text, SOURCE, timeout=timeout, dps=dps, sandbox=sandbox)
    verdicts = result.verdicts
    if not verdicts:
        raise ClaimsNotAsExpected("no claim was checked (write `claim LABEL: lhs == rhs`)")
    bad = [v for v in verdicts if v.status not in wanted]
    if bad:
        want = " or ".join(sorted(wanted))
        raise ClaimsNotAsExpected("; ".join(
            f"{v.label} (line {v.line}): {v.status}, expected {want}"
            + (f": {v.message}" if v.message else "") for v in bad))
    return Claims(verdicts)


# --- figures ------------------------------------------------------------------------------

def new_figure(nrows: int = 1, ncols: int = 1, *, width: float = 6.0, height: float = 4.0,
               projection: str | Sequence[str | None] | None = None) -> tuple[Figure, list]:
    """A figure (not managed by pyplot) and its axes as a flat list, row by row."""
    fig = Figure(figsize=(width * ncols, height * nrows), dpi=80)
    kinds = ([projection] * (nrows * ncols) if projection is None or isinstance(projection, str)
             else list(projection))
    axes = [fig.add_subplot(nrows, ncols, i + 1, projection=kinds[i])
            for i in range(nrows * ncols)]
    return fig, axes


def finish(fig: Figure, rect: tuple[float, float, float, float] | None = None) -> Figure:
    """Lay ``fig`` out and return it, or raise :class:`FigureError` naming what is missing.

    Every panel needs a title, x and y labels (and z on 3-D panels) that end in a unit in
    parentheses, such as ``scale a (dimensionless)``, and a legend (its own, or one legend
    of the whole figure).  ``rect`` leaves room for a figure legend (see ``tight_layout``).

    >>> fig, (ax,) = new_figure()
    >>> _ = ax.plot([0, 1], [0, 1], label="line")
    >>> finish(fig)
    Traceback (most recent call last):
    ...
    symnorm.teaching.FigureError: panel 1: no title; x label '' has no unit in parentheses; ...
    """
    problems = []
    for i, ax in enumerate(fig.axes, 1):
        if getattr(ax, "_colorbar", None) is not None or ax.get_label() == "<colorbar>":
            continue
        miss = []
        if not ax.get_title():
            miss.append("no title")
        names = ["x", "y"] + (["z"] if hasattr(ax, "get_zlabel") else [])
        for n in names:
            text = getattr(ax, f"get_{n}label")()
            if not _UNIT.search(text):
                miss.append(f"{n} label {text!r} has no unit in parentheses")
        if ax.get_legend() is None and not fig.legends:
            miss.append("no legend")
        if miss:
            problems.append(f"panel {i}: " + "; ".join(miss))
    if problems:
        raise FigureError(" | ".join(problems))
    fig.tight_layout(rect=rect)
    return fig


def rationals(values: Iterable[Any]) -> list[sympy.Rational]:
    """Exact rationals from numbers or strings (``0.1`` is 1/10), for sample points."""
    return [as_rational(v, "value") for v in values]


def _log_grid(lo: int, hi: int, per_decade: int = 8) -> list[sympy.Rational]:
    """Rationals close to 10**(k/per_decade), lo <= k/per_decade <= hi, exact by rounding."""
    out = []
    for k in range(lo * per_decade, hi * per_decade + 1):
        out.append(sympy.Rational(round(10 ** (k / per_decade) * 10**6), 10**6))
    return out


def _plane_basis(d: int = 3) -> np.ndarray:
    """Orthonormal basis (rows) of the plane ones.T c = 0 in R^3."""
    return np.array([[1, -1, 0] / np.sqrt(2), [1, 1, -2] / np.sqrt(6)])


def _float_vec(m: Any) -> np.ndarray:
    return np.array([float(sympy.N(e, 30)) for e in m], dtype=float)


def plot_centering_plane(points: Sequence[Sequence[Any]]) -> Figure:
    """3-D picture: the plane ``1^T c = 0``, points of R^3 and their projections ``P x``."""
    from .layer import layer_norm as layer
    ln = layer(3, 0)
    fig, (ax,) = new_figure(width=7, height=6, projection="3d")
    reach = max(float(abs(as_rational(v, "x"))) for p in points for v in p) + 1
    u, w = _plane_basis()
    g = np.linspace(-reach, reach, 2)
    a, b = np.meshgrid(g, g)
    plane = a[..., None] * u + b[..., None] * w
    ax.plot_surface(plane[..., 0], plane[..., 1], plane[..., 2], alpha=0.2, color="tab:blue")
    ax.plot([], [], color="tab:blue", alpha=0.4, lw=6, label="plane 1ᵀc = 0 (image of P)")
    k = reach / 2
    ax.plot([-k, k], [-k, k], [-k, k], color="black", lw=2,
            label="line through 1 (null space of P)")
    colours = ["tab:red", "tab:green", "tab:purple", "tab:orange"]
    for i, p in enumerate(points):
        x = _float_vec(sympy.Matrix(rationals(p)))
        c = _float_vec(ln.centered(p))
        col = colours[i % len(colours)]
        name = "(" + ", ".join(str(as_rational(v, "x")) for v in p) + ")"
        ax.scatter(*x, color=col, s=40, label=f"x = {name}")
        ax.scatter(*c, color=col, marker="*", s=160, edgecolor="black")
        ax.plot(*zip(x, c), color=col, ls="--", lw=1)
    ax.scatter([], [], marker="*", s=160, color="white", edgecolor="black",
               label="P x (its projection)")
    ax.view_init(elev=12, azim=-20)
    ax.set_title("Centering projects every x onto the plane 1ᵀc = 0")
    ax.set_xlabel("coordinate 1 (input units)")
    ax.set_ylabel("coordinate 2 (input units)")
    ax.set_zlabel("coordinate 3 (input units)")
    ax.legend(loc="upper left", fontsize=8)
    return finish(fig)


def _norm_ratio(x: Sequence[sympy.Rational], a: sympy.Rational, eps: sympy.Rational) -> float:
    """||N(a x)|| / sqrt(d) for LayerNorm (eps inside), at 30 digits from exact input."""
    spec = layer_norm(len(x), eps)
    with mpmath.workdps(30):
        y = forward(spec, [a * xi for xi in x], backend="mpmath", dps=30).y
        return float(mpmath.sqrt(sum(yi ** 2 for yi in y) / len(x)))


def plot_norm_vs_scale(eps_values: Sequence[Any] = ("1/100", "1/10", "1"),
                       x: Sequence[Any] = (-1, -1, 1, 1)) -> Figure:
    """The seed paper's figure 1: ``||N(a x)|| / sqrt(d)`` against the scale a > 0.

    ``x`` defaults to a centred vector with variance v = 1 (d = 4), as in the paper.
    """
    xs = rationals(x)
    scales = _log_grid(-3, 2)
    fig, (ax,) = new_figure(width=7, height=4)
    ax.plot([float(a) for a in scales], [1.0] * len(scales), color="black", ls="--",
            label="eps = 0 (exactly on the sphere)")
    for eps in rationals(eps_values):
        ax.plot([float(a) for a in scales], [_norm_ratio(xs, a, eps) for a in scales],
                label=f"eps = {eps}")
    ax.set_xscale("log")
    ax.set_ylim(0, 1.05)
    v = sum((xi - sum(xs) / len(xs)) ** 2 for xi in xs) / len(xs)
    ax.set_title(f"Eps limits scale invariance (d = {len(xs)}, v = {v})")
    ax.set_xlabel("scale a of the input (dimensionless, log axis)")
    ax.set_ylabel("‖N(a x)‖ / √d (dimensionless)")
    ax.legend(loc="lower right")
    return finish(fig)


def _plane_points(n: int, seed: int) -> list[list[sympy.Rational]]:
    rng = np.random.default_rng(seed)
    return [[sympy.Rational(int(k), 8) for k in rng.integers(-24, 25, size=3)]
            for _ in range(n)]


def _draw_plane_outputs(ax: Any, eps: sympy.Rational, scale: sympy.Rational, n: int,
                        seed: int, legend: bool = True) -> None:
    spec = layer_norm(3, eps)
    basis = _plane_basis()
    t = np.linspace(0, 2 * np.pi, 200)
    r = np.sqrt(3)
    ax.plot(r * np.cos(t), r * np.sin(t), color="black", lw=1,
            label="circle of radius √3 (eps = 0)")
    xy = []
    for p in _plane_points(n, seed):
        if len(set(p)) == 1:
            continue
        with mpmath.workdps(30):
            y = forward(spec, [scale * v for v in p], backend="mpmath", dps=30).y
        xy.append(basis @ np.array([float(v) for v in y]))
    pts = np.array(xy)
    ax.scatter(pts[:, 0], pts[:, 1], s=14, color="tab:red", label="N(a x) for random x")
    ax.set_aspect("equal")
    ax.set_xlim(-2.2, 2.2)
    ax.set_ylim(-2.2, 2.2)
    ax.set_title(f"eps = {eps}, scale a = {scale}")
    ax.set_xlabel("in-plane coordinate e₁ (output units)")
    ax.set_ylabel("in-plane coordinate e₂ (output units)")
    if legend:
        ax.legend(loc="lower left", fontsize=7)


def plot_plane_outputs(eps: Any = "1/10", scale: Any = 1, n: int = 60, seed: int = 0) -> Figure:
    """LayerNorm outputs (d = 3) in coordinates of the plane ``1^T c = 0``.

    With eps = 0 they lie on the circle of radius sqrt(3); with eps > 0 strictly inside.
    """
    fig, (ax,) = new_figure(width=5, height=5)
    _draw_plane_outputs(ax, as_rational(eps, "eps"), as_rational(scale, "scale"), n, seed)
    return finish(fig)


def plot_eps_grid(eps_values: Sequence[Any] = (0, "1/10", 1),
                  scales: Sequence[Any] = ("1/4", 1, 4), n: int = 40, seed: int = 0) -> Figure:
    """Static stand-in for the eps and scale sliders: one panel per (eps, scale) pair."""
    eps_r, sc_r = rationals(eps_values), rationals(scales)
    fig, axes = new_figure(len(eps_r), len(sc_r), width=3.6, height=3.6)
    for i, eps in enumerate(eps_r):
        for j, sc in enumerate(sc_r):
            _draw_plane_outputs(axes[i * len(sc_r) + j], eps, sc, n, seed, legend=False)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=2)
    return finish(fig, rect=(0, 0.04, 1, 1))


def plot_rms_vs_layer_norm(eps: Any = 0, n: int = 150, seed: int = 1) -> Figure:
    """Outputs of LayerNorm and RMSNorm (d = 3) for the same random inputs, in 3-D.

    LayerNorm's lie on the circle of radius sqrt(3) in the plane ``1^T c = 0``; RMSNorm's,
    with no centering, spread over the whole sphere of radius sqrt(3) (eps = 0).
    """
    eps_r = as_rational(eps, "eps")
    ln, rms = layer_norm(3, eps_r), rms_norm(3, eps_r)
    fig, (ax,) = new_figure(width=7, height=6, projection="3d")
    t = np.linspace(0, 2 * np.pi, 100)
    p, q = np.meshgrid(t, np.linspace(0, np.pi, 50))
    r = np.sqrt(3)
    ax.plot_wireframe(r * np.cos(p) * np.sin(q), r * np.sin(p) * np.sin(q), r * np.cos(q),
                      color="grey", lw=0.3, alpha=0.5, rstride=5, cstride=5,
                      label="sphere of radius √3")
    lo, rs = [], []
    for x in _plane_points(n, seed):
        if len(set(x)) == 1:
            continue
        with mpmath.workdps(30):
            lo.append([float(v) for v in forward(ln, x, backend="mpmath", dps=30).y])
            rs.append([float(v) for v in forward(rms, x, backend="mpmath", dps=30).y])
    lo_a, rs_a = np.array(lo), np.array(rs)
    ax.scatter(*rs_a.T, s=10, color="tab:orange", label="RMSNorm outputs (no centering)")
    ax.scatter(*lo_a.T, s=10, color="tab:blue", label="LayerNorm outputs (in 1ᵀc = 0)")
    ax.set_title(f"Same inputs, eps = {eps_r}: LayerNorm's circle vs RMSNorm's sphere")
    ax.set_xlabel("coordinate 1 (output units)")
    ax.set_ylabel("coordinate 2 (output units)")
    ax.set_zlabel("coordinate 3 (output units)")
    ax.set_box_aspect((1, 1, 1))
    ax.legend(loc="upper left", fontsize=8)
    return finish(fig)


def _j_and_basis(x: Sequence[Any], eps: Any) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    from .layer import layer_norm as layer
    ln = layer(len(x), eps)
    J = np.array(ln.jacobian(x).evalf(30).tolist(), dtype=float)
    one = np.ones(len(x)) / np.sqrt(len(x))
    c = _float_vec(ln.centered(x))
    c /= np.linalg.norm(c)
    u = np.cross(one, c) if len(x) == 3 else None
    if u is None:
        raise ValueError(f"plot_jacobian_action draws d = 3 (got d = {len(x)})")
    return J, {"1": one, "c": c, "u": u / np.linalg.norm(u)}


def plot_jacobian_action(x: Sequence[Any] = (1, 2, 4), eps: Any = "1/10",
                         radius: float = 1.0) -> Figure:
    """How J maps a circle of perturbations around x (d = 3), in two planes.

    Left: perturbations in span{c, u} become an ellipse, eps/s^3 along c and 1/s along u.
    Right: perturbations in span{1, u} collapse onto the u axis (eigenvalue 0 along 1).
    ``eps`` may be a list: one row of panels per value.
    """
    eps_list = list(eps) if isinstance(eps, (list, tuple)) else [eps]
    t = np.linspace(0, 2 * np.pi, 240)
    fig, axes = new_figure(len(eps_list), 2, width=5, height=5)
    for row, e in enumerate(eps_list):
        J, b = _j_and_basis(x, e)
        for ax, first in zip(axes[2 * row:2 * row + 2], ["c", "1"]):
            e1, e2 = b[first], b["u"]
            delta = radius * (np.outer(np.cos(t), e1) + np.outer(np.sin(t), e2))
            image = delta @ J.T
            ax.plot(delta @ e1, delta @ e2, color="tab:blue",
                    label=f"δ: circle of radius {radius:g}")
            ax.plot(image @ e1, image @ e2, color="tab:red", lw=2.5, label="J δ: its image")
            ax.set_aspect("equal")
            lim = 1.15 * radius
            ax.set_xlim(-lim, lim)
            ax.set_ylim(-lim, lim)
            ax.axhline(0, color="grey", lw=0.5)
            ax.axvline(0, color="grey", lw=0.5)
            name = "ĉ = c/‖c‖" if first == "c" else "1/√3"
            ax.set_xlabel(f"component along {name} (input units)")
            ax.set_ylabel("component along û, orthogonal to 1 and c (input units)")
            ax.legend(loc="lower left", fontsize=8)
        s_val = float(1 / np.linalg.eigvalsh(J)[-1])
        axes[2 * row].set_title(f"eps = {as_rational(e, 'eps')}: span{{c, u}} → ellipse "
                                f"{float(as_rational(e, 'eps')) / s_val**3:.3f} × {1 / s_val:.3f}",
                                fontsize=10)
        axes[2 * row + 1].set_title(f"eps = {as_rational(e, 'eps')}: span{{1, u}} → segment "
                                    "along û", fontsize=10)
    return finish(fig)


def gradient_parts(x: Sequence[Any], eps: Any, g: Sequence[Any]) -> dict[str, tuple[float, float]]:
    """Components of an upstream gradient g and of J^T g along 1, c and u (d = 3), exactly.

    >>> parts = gradient_parts((1, 2, 4), "1/10", (1, -2, 3))
    >>> parts["1"][1]                       # nothing passes back along 1
    0.0
    >>> ratio = parts["c"][1] / parts["c"][0]   # eps/s^3 = 27 sqrt(1490)/22201 along c
    >>> abs(ratio - 27 * 1490 ** 0.5 / 22201) < 1e-12
    True
    """
    from .layer import layer_norm as layer
    if len(x) != 3 or len(g) != 3:
        raise ValueError(f"gradient_parts works at d = 3 (got {len(x)} and {len(g)} entries)")
    ln = layer(3, eps)
    J = ln.jacobian(x)
    gv = sympy.Matrix(rationals(g))
    back = J.T * gv
    one = sympy.ones(3, 1)
    c = ln.centered(x)
    u = one.cross(c)
    out = {}
    for k, e in (("1", one), ("c", c), ("u", u)):
        unit = e / sympy.sqrt((e.T * e)[0])
        out[k] = (float(sympy.N((unit.T * gv)[0], 30)),
                  float(sympy.N(sympy.simplify((unit.T * back)[0]), 30)))
    return out


def plot_gradient_filter(x: Sequence[Any] = (1, 2, 4), eps: Any = "1/10",
                         g: Sequence[Any] = (1, -2, 3)) -> Figure:
    """Bars: an upstream gradient g and the gradient J^T g passed back, along 1, c and u."""
    parts = gradient_parts(x, eps, g)
    fig, (ax,) = new_figure(width=7, height=4)
    keys = list(parts)
    pos = np.arange(len(keys))
    ax.bar(pos - 0.2, [parts[k][0] for k in keys], 0.4, label="g (gradient at the output)")
    ax.bar(pos + 0.2, [parts[k][1] for k in keys], 0.4, label="Jᵀg (gradient at the input)")
    for i, k in enumerate(keys):
        ax.annotate(f"{parts[k][1]:+.3f}" if parts[k][1] else "0 exactly",
                    (i + 0.2, parts[k][1]), ha="center",
                    xytext=(0, 4 if parts[k][1] >= 0 else -12), textcoords="offset points",
                    fontsize=8)
    ax.set_xticks(pos, ["along 1/√3", "along ĉ", "along û"])
    ax.axhline(0, color="grey", lw=0.5)
    ax.set_title(f"Backward pass at x = {tuple(x)}, eps = {as_rational(eps, 'eps')}, "
                 f"g = {tuple(g)}")
    ax.set_xlabel("direction (unit vector)")
    ax.set_ylabel("component of the gradient (loss per input unit)")
    ax.legend(loc="upper left", fontsize=8)
    return finish(fig)


def plot_pair_flip(eps_values: Sequence[Any] = ("1/100", "1/10", "1"),
                   b_max: int = 4) -> Figure:
    """The seed paper's figure 2: ``BN(0; {0, b})`` against the other sample b."""
    fig, (ax,) = new_figure(width=7, height=4)
    bs = [sympy.Rational(k, 20) for k in range(-20 * b_max, 20 * b_max + 1) if k != 0]
    for eps in rationals(eps_values):
        spec = batch_norm("N C", eps, sizes="N=2 C=1")
        ys = []
        for b in bs:
            with mpmath.workdps(30):
                ys.append(float(forward(spec, [[0], [b]], backend="mpmath", dps=30).y[0][0]))
        ax.plot([float(b) for b in bs], ys, label=f"eps = {eps}")
    for b in (-2, 2):
        spec = batch_norm("N C", "1/100", sizes="N=2 C=1")
        y = forward(spec, [[0], [b]]).y[0][0]
        ax.scatter([b], [float(y)], color="black", zorder=3)
        ax.annotate(f"BN(0; {{0, {b}}}) ≈ {float(y):+.4f}", (b, float(y)),
                    textcoords="offset points", xytext=(-40 if b < 0 else -130, -22 if b < 0
                                                        else 14), fontsize=8)
    ax.scatter([], [], color="black", label="paper's points, eps = 1/100")
    ax.axhline(0, color="grey", lw=0.5)
    ax.set_title("The same sample 0 flips sign with its batch-mate b")
    ax.set_xlabel("value b of the other sample (input units)")
    ax.set_ylabel("BN output of the sample 0 (dimensionless)")
    ax.legend(loc="upper right", fontsize=8)
    return finish(fig)


def _layers_cfg(groups: int = 2) -> dict[str, Any]:
    return {"BatchNorm": lambda n: batch_norm("N C H W", "1/100000",
                                              sizes=f"N={n} C=4 H=2 W=2"),
            "LayerNorm": lambda n: layer_norm(layout="N C H W", axes="C H W", eps="1/100000",
                                              sizes=f"N={n} C=4 H=2 W=2"),
            f"GroupNorm({groups})": lambda n: group_norm(groups, "N C H W", "1/100000",
                                                         sizes=f"N={n} C=4 H=2 W=2")}


def _sample(rng: np.random.Generator) -> np.ndarray:
    return np.array([sympy.Rational(int(k), 4) for k in rng.integers(-12, 13, size=16)],
                    dtype=object).reshape(4, 2, 2)


def batch_outputs(batch_size: int = 4, draws: int = 12, seed: int = 0) -> dict[str, list[float]]:
    """Output at cell (c=0, h=0, w=0) of one fixed sample, drawn with ``draws`` random batches.

    Returns one list of ``draws`` values per layer (BatchNorm, LayerNorm, GroupNorm(2)).
    """
    if batch_size < 2:
        raise ValueError(f"batch_size must be >= 2 (got {batch_size})")
    rng = np.random.default_rng(seed)
    fixed = _sample(rng)
    out: dict[str, list[float]] = {}
    batches = [np.stack([fixed] + [_sample(rng) for _ in range(batch_size - 1)])
               for _ in range(draws)]
    for name, make in _layers_cfg().items():
        spec = make(batch_size)
        out[name] = [float(forward(spec, x, backend="mpmath", dps=30).y[0, 0, 0, 0])
                     for x in batches]
    return out


def _draw_batch(ax: Any, batch_size: int, draws: int, seed: int) -> None:
    values = batch_outputs(batch_size, draws, seed)
    for k, (name, ys) in enumerate(values.items()):
        ax.scatter(np.arange(1, draws + 1) + (k - 1) * 0.15, ys, s=24,
                   label=f"{name}: spread {max(ys) - min(ys):.3f}")
    ax.set_title(f"One sample, {draws} random batches of size {batch_size}")
    ax.set_xlabel("batch drawn (index)")
    ax.set_ylabel("output at sample 0, cell (0,0,0) (dimensionless)")
    lo = min(min(ys) for ys in values.values())
    hi = max(max(ys) for ys in values.values())
    ax.set_ylim(lo - 0.8 * (hi - lo) - 0.5, hi + 0.2)  # room below the dots for the legend
    ax.legend(loc="lower center", fontsize=7)


def plot_batch_dependence(batch_sizes: Sequence[int] = (2, 4, 16), draws: int = 12,
                          seed: int = 0) -> Figure:
    """One panel per batch size: the same sample normalized inside different batches."""
    fig, axes = new_figure(1, len(batch_sizes), width=4.6, height=4)
    for ax, n in zip(axes, batch_sizes):
        _draw_batch(ax, n, draws, seed)
    return finish(fig)


def shared_cells(spec: Any, cell: Sequence[int]) -> np.ndarray:
    """Boolean mask over the tensor: True where an entry shares ``cell``'s statistics.

    Two entries share statistics when they agree on every axis that is not reduced, and,
    for GroupNorm, lie in the same channel group.
    """
    shape = tuple(spec.size(a) for a in spec.layout)
    if any(n is None for n in shape):
        raise ValueError("shared_cells needs concrete sizes")
    idx = np.indices(shape)
    mask = np.ones(shape, dtype=bool)
    for k, axis in enumerate(spec.layout):
        if spec.groups is not None and axis == spec.channel_axis:
            per = shape[k] // spec.groups
            mask &= idx[k] // per == cell[k] // per
        elif axis not in spec.reduce:
            mask &= idx[k] == cell[k]
    return mask


def plot_shared_statistics(specs: dict[str, Any], cell: Sequence[int] = (0, 1, 0, 0)) -> Figure:
    """An ``N C H W`` block per layer: which entries share the statistics of ``cell``.

    Each sample is a row of C tiles, each tile H x W; the chosen entry is starred.
    """
    from matplotlib.patches import Patch
    fig, axes = new_figure(1, len(specs), width=3.8, height=3.6)
    for ax, (name, spec) in zip(axes, specs.items()):
        n, c, h, w = (spec.size(a) for a in spec.layout)
        mask = shared_cells(spec, cell)
        img = np.ones((n * (h + 1) - 1, c * (w + 1) - 1, 3))
        for i in range(n):
            for j in range(c):
                for y in range(h):
                    for x in range(w):
                        colour = (0.85, 0.33, 0.1) if mask[i, j, y, x] else (0.8, 0.85, 0.9)
                        img[i * (h + 1) + y, j * (w + 1) + x] = colour
        ax.imshow(img, interpolation="nearest")
        ax.scatter([cell[1] * (w + 1) + cell[3]], [cell[0] * (h + 1) + cell[2]], marker="*",
                   s=120, color="black", label="chosen entry")
        ax.set_xticks([j * (w + 1) + (w - 1) / 2 for j in range(c)],
                      [f"C{j}" for j in range(c)])
        ax.set_yticks([i * (h + 1) + (h - 1) / 2 for i in range(n)],
                      [f"N{i}" for i in range(n)])
        ax.set_title(f"{name}:\n{spec.group_description()}", fontsize=10)
        ax.set_xlabel(f"channel, each tile H×W = {h}×{w} (index)")
        ax.set_ylabel("sample (index)")
    fig.legend(handles=[Patch(color=(0.85, 0.33, 0.1),
                              label="shares the starred entry's mean and variance"),
                        Patch(color=(0.8, 0.85, 0.9), label="normalized with other statistics"),
                        axes[0].collections[0]], loc="lower center", ncol=3, fontsize=9)
    return finish(fig, rect=(0, 0.08, 1, 1))


def _column(values: Sequence[Any]) -> list:
    """A batch of scalars as an ``N C H W`` tensor with C = H = W = 1."""
    return [[[[v]]] for v in values]


def plot_train_vs_eval(spec: Any = None, batch_size: int = 4, draws: int = 12,
                       warmup: int = 40, seed: int = 0) -> Figure:
    """One sample through BatchNorm in training mode (batch statistics) and in eval mode.

    ``spec`` is a BatchNorm spec with running statistics over ``N C H W`` with C = H = W = 1
    (default: the PyTorch preset with its eps and momentum).  ``warmup`` training batches
    (values k/4, k in [-4, 12]) fill the running statistics; then the sample 3/2 is drawn with
    ``draws`` random batches and normalized in both modes.
    """
    from .presets import torch as torch_presets
    if spec is None:
        spec = torch_presets.batch_norm2d(sizes=f"N={batch_size} C=1 H=1 W=1")
    rng = np.random.default_rng(seed)

    def mates() -> list[sympy.Rational]:
        return [sympy.Rational(int(k), 4) for k in rng.integers(-4, 13, size=batch_size - 1)]

    state = None
    for _ in range(warmup):
        state = forward(spec, _column([sympy.Rational(3, 2)] + mates()), state=state,
                        backend="mpmath", dps=30).state
    train, evals = [], []
    for _ in range(draws):
        batch = _column([sympy.Rational(3, 2)] + mates())
        train.append(float(forward(spec, batch, state=state, backend="mpmath", dps=30)
                           .y[0][0][0][0]))
        evals.append(float(forward(spec, batch, train=False, state=state, backend="mpmath",
                                   dps=30).y[0][0][0][0]))
    fig, (ax,) = new_figure(width=7, height=4)
    idx = np.arange(1, draws + 1)
    ax.plot(idx, train, "o", label=f"train mode (batch statistics): spread "
            f"{max(train) - min(train):.3f}")
    ax.plot(idx, evals, "s-", label=f"eval mode (running statistics): spread "
            f"{max(evals) - min(evals):.3f}")
    ax.set_title(f"Sample 3/2 in {draws} batches of size {batch_size} ({spec.source or spec.name})")
    ax.set_xlabel("batch drawn (index)")
    ax.set_ylabel("BatchNorm output of the sample (dimensionless)")
    ax.legend(loc="lower right", fontsize=8)
    return finish(fig)


def running_means(spec: Any, steps: int = 60) -> list[float]:
    """The running mean after each of ``steps`` training batches {0, 2} (batch mean 1)."""
    state, out = None, []
    for _ in range(steps):
        # shape (2, 1, 1, 1): the same nesting in N C H W and N H W C
        state = forward(spec, _column([0, 2]), state=state).state
        out.append(float(state.mean[0]))
    return out


def plot_momentum(specs: dict[str, Any], steps: int = 60) -> Figure:
    """Running mean against the number of training batches, every batch having mean 1.

    ``specs`` maps a legend label to a BatchNorm spec of two samples with one channel and
    H = W = 1 (any layout), e.g. framework presets.
    """
    fig, (ax,) = new_figure(width=7, height=4)
    for name, spec in specs.items():
        ax.plot(range(1, steps + 1), running_means(spec, steps), label=name)
    ax.axhline(1, color="black", ls="--", lw=1, label="the batches' mean (1)")
    ax.set_title("Running mean from 0 towards the data mean: the momentum convention")
    ax.set_xlabel("training batches seen (count)")
    ax.set_ylabel("running mean (input units)")
    ax.set_ylim(0, 1.1)
    ax.legend(loc="center right", fontsize=8)
    return finish(fig)


def plot_post_norm_gain(alphas: Sequence[Any] = ("1/2", 1, 2), depth: int = 24) -> Figure:
    """Gain of the direct (identity) path after L layers: pre-norm 1, post-norm (1+a^2)^(-L/2).

    The per-layer factor is computed, not assumed: LayerNorm (eps = 0) of ``x + a u`` at d = 4
    with ``x = (-1, -1, 1, 1)`` and ``u = (1, -1, 1, -1)`` (both centred, squared norm d,
    orthogonal), read off as ``x^T N(x + a u) / d``.
    """
    spec = layer_norm(4, 0)
    x = [-1, -1, 1, 1]
    u = [1, -1, 1, -1]
    fig, (ax,) = new_figure(width=7, height=4)
    layers = np.arange(0, depth + 1)
    ax.plot(layers, np.ones_like(layers, dtype=float), "k--", label="pre-norm, any a (gain 1)")
    for a in rationals(alphas):
        y = forward(spec, [xi + a * ui for xi, ui in zip(x, u)]).y
        factor = sympy.nsimplify(sum(xi * yi for xi, yi in zip(x, y)) / 4)
        ax.plot(layers, [float(factor) ** k for k in layers], marker="o", ms=3,
                label=f"post-norm, a = {a}: factor {factor} per layer")
    ax.set_yscale("log")
    ax.set_title(f"The direct residual path over {depth} layers")
    ax.set_xlabel("layers (count)")
    ax.set_ylabel("gain of the direct path (dimensionless, log axis)")
    ax.legend(loc="lower left", fontsize=8)
    return finish(fig)
