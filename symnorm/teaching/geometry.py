"""Pictures and numbers for notebooks 01-03: projection, sphere, Jacobian, gradients."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import mpmath
import numpy as np
import sympy
from matplotlib.figure import Figure

from ..family.apply import forward
from ..spec import as_rational, layer_norm, rms_norm
from .figures import _float_vec, _log_grid, _plane_basis, finish, new_figure, rationals

__all__ = ["gradient_parts", "plot_centering_plane", "plot_eps_grid", "plot_gradient_filter",
           "plot_jacobian_action", "plot_norm_vs_scale", "plot_plane_outputs",
           "plot_rms_vs_layer_norm"]


def plot_centering_plane(points: Sequence[Sequence[Any]]) -> Figure:
    """3-D picture: the plane ``1^T c = 0``, points of R^3 and their projections ``P x``."""
    from ..layer import layer_norm as layer
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
    from ..layer import layer_norm as layer
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
    from ..layer import layer_norm as layer
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
