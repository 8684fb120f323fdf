"""Symbolic analysis of any spec: Jacobian, spectrum for every d, invariances, batch coupling.

The per-group map of every spec is ``N(x) = A x / g(stat)`` with ``A = P`` (centered) or
``I`` (RMSNorm), ``stat = (A x)^T (A x) / delta`` (``delta`` = d or d - 1) and
``g = sqrt(stat + eps)`` or ``sqrt(stat) + eps``.  The chain rule gives
``J = A/g - kappa c c^T`` with ``c = A x`` and ``kappa = 2 g'(stat) / (delta g^2)``; its action
on the basis {ones, c, u} (u orthogonal to both; Gram matrix diag(d, delta*stat, 1)) gives
the spectrum for every d at once, the method of the paper's section 5.

>>> from symnorm.spec import layer_norm, rms_norm
>>> [(str(e.direction), str(e.value)) for e in spectrum(layer_norm())]
[('ones', '0'), ('c', 'eps/(eps + v)**(3/2)'), ('u', '1/sqrt(eps + v)')]
>>> [str(e.multiplicity) for e in spectrum(rms_norm())]
['1', 'd - 1']
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy

from ..errors import SpecError
from ..spec import NormSpec
from .apply import _grouped, forward

__all__ = ["Eigen", "Finding", "coupling", "cross_sample_entry", "invariances", "jacobian",
           "jacobian_formula", "sample_tensor", "spectrum"]

D, V, EPS = sympy.symbols("d v eps", positive=True)
_A = sympy.Symbol("a", positive=True)


@dataclass(frozen=True)
class Eigen:
    """An eigenvalue of the per-group Jacobian, its multiplicity and eigen-direction."""

    value: sympy.Expr
    multiplicity: sympy.Expr
    direction: str


@dataclass(frozen=True)
class Finding:
    """An invariance proved (``holds``) or refuted with an exact witness."""

    name: str
    holds: bool
    reason: str
    assumptions: tuple[str, ...] = ()
    witness: dict[str, str] = field(default_factory=dict)


def _parts(spec: NormSpec, eps: Any = EPS) -> tuple[sympy.Expr, sympy.Expr, sympy.Expr]:
    """(g, delta, kappa) of the per-group map with the statistic symbol V."""
    delta = D if spec.var_denominator == "N" else D - 1
    g = sympy.sqrt(V + eps) if spec.eps_inside else sympy.sqrt(V) + eps
    kappa = 2 * sympy.diff(g, V) / (delta * g**2)
    return g, delta, kappa


def jacobian_formula(spec: NormSpec) -> tuple[sympy.Expr, sympy.Expr, str]:
    """``(1/g, kappa, A)`` such that ``J = A/g - kappa c c^T`` for one group.

    >>> from symnorm.spec import layer_norm
    >>> jacobian_formula(layer_norm())
    (1/sqrt(eps + v), 1/(d*(eps + v)**(3/2)), 'P')
    """
    g, _, kappa = _parts(spec)
    return sympy.simplify(1 / g), sympy.simplify(kappa), "P" if spec.center else "I"


def _apply_j(spec: NormSpec, b: str) -> dict[str, sympy.Expr]:
    """J applied to basis vector ``b``, as coefficients on the basis."""
    g, delta, kappa = _parts(spec)
    gram = {"ones": D, "c": delta * V, "u": sympy.Integer(1)}
    # A b: P ones = ones - ones (ones^T ones)/d = 0; P c = c (ones^T c = 0); P u = u
    a_b = {b: sympy.Integer(1)}
    if spec.center:
        a_b = {b: 1 - gram["ones"] / D} if b == "ones" else a_b
    out = {k: sympy.simplify(val / g) for k, val in a_b.items()}
    c_dot_b = gram["c"] if b == "c" else sympy.Integer(0)  # orthogonal basis
    out["c"] = sympy.simplify(out.get("c", 0) - kappa * c_dot_b)
    return {k: val for k, val in out.items() if val != 0}


def _tidy(spec: NormSpec, e: sympy.Expr) -> sympy.Expr:
    if spec.eps_inside:
        return sympy.factor(sympy.simplify(e))
    w = sympy.Symbol("w", positive=True)  # w = sqrt(v): factor in w, then put sqrt(v) back
    return sympy.factor(sympy.simplify(e.subs(V, w**2))).subs(w, sympy.sqrt(V))


def spectrum(spec: NormSpec) -> list[Eigen]:
    """Eigenvalues of the per-group Jacobian for every group size d (``v``: the statistic).

    Centered specs: 0 along ones, ``eps/s^3``-type along c, ``1/g`` on the (d-2)-dimensional
    rest.  RMSNorm (``v`` = mean square): the c-value along x and ``1/g`` on the rest.
    """
    basis = ["ones", "c", "u"] if spec.center else ["c", "u"]
    out = []
    for b in basis:
        image = _apply_j(spec, b)
        if set(image) - {b}:
            raise SpecError(f"internal: {b} is not an eigenvector ({image})")
        value = _tidy(spec, image.get(b, sympy.Integer(0)))
        mult = {"ones": sympy.Integer(1), "c": sympy.Integer(1),
                "u": D - (2 if spec.center else 1)}[b]
        out.append(Eigen(value, mult, b))
    return out


def cross_sample_entry(spec: NormSpec) -> sympy.Expr:
    """``J_ij`` for i != j in one group (for BatchNorm: two different samples).

    >>> from symnorm.spec import batch_norm
    >>> cross_sample_entry(batch_norm())
    -c_i*c_j/(d*(eps + v)**(3/2)) - 1/(d*sqrt(eps + v))
    """
    g, _, kappa = _parts(spec)
    ci, cj = sympy.symbols("c_i c_j", real=True)
    a_ij = -1 / D if spec.center else 0
    return a_ij / g - sympy.simplify(kappa) * ci * cj


def sample_tensor(spec: NormSpec, size: int = 3) -> np.ndarray:
    """A small exact test tensor in the spec's layout (given sizes, else ``size``)."""
    shape = tuple(s if s is not None else (size if a != spec.channel_axis or not spec.groups
                                           else spec.groups * size)
                  for a, s in spec.sizes)
    n = int(np.prod(shape))
    # distinct values, so no group is constant (eps = 0 specs stay defined)
    vals = [sympy.Rational((-1) ** i * (i * i + 1), 1 + i % 3) for i in range(n)]
    return np.array(vals, dtype=object).reshape(shape)


def jacobian(spec: NormSpec, x: Any, **kw: Any) -> sympy.Matrix:
    """The exact Jacobian of the flattened training-mode forward map at tensor ``x``."""
    xa = np.asarray(x, dtype=object)
    if xa.size > 64:
        raise SpecError(f"jacobian: tensor has {xa.size} entries (at most 64)")
    syms = sympy.symbols(f"z0:{xa.size}", real=True)
    y = forward(spec, np.array(syms, dtype=object).reshape(xa.shape), **kw).y.ravel()
    point = dict(zip(syms, (sympy.Rational(v) for v in xa.ravel())))
    return sympy.Matrix([[sympy.radsimp(sympy.diff(yi, z).subs(point)) for z in syms]
                         for yi in y])


def coupling(spec: NormSpec, x: Any = None) -> dict[tuple[int, int], bool]:
    """For each pair of samples (i, j), whether d y_i / d x_j is nonzero at ``x``."""
    if spec.batch_axis is None:
        raise SpecError(f"{spec.name} has no batch axis")
    xa = sample_tensor(spec) if x is None else np.asarray(x, dtype=object)
    bi = spec.layout.index(spec.batch_axis)
    moved = np.moveaxis(np.arange(xa.size).reshape(xa.shape), bi, 0)
    rows = [sorted(moved[i].ravel().tolist()) for i in range(xa.shape[bi])]
    jac = jacobian(spec, xa)
    return {(i, j): any(jac[p, q] != 0 for p in rows[i] for q in rows[j])
            for i, j in itertools.product(range(len(rows)), repeat=2)}


def _differ(spec: NormSpec, x: np.ndarray, x2: np.ndarray, name: str,
            param: str) -> Finding | None:
    y1, y2 = forward(spec, x).y.ravel(), forward(spec, x2).y.ravel()
    for a, b in zip(y1, y2):
        if sympy.simplify(a - b) != 0:
            return Finding(name, False, "refuted by an exact witness", witness={
                "x": str(x.ravel().tolist()), "change": param, "y(x)[k]": str(a),
                "y(x')[k]": str(b)})
    return None


def _group_ones(spec: NormSpec, x: np.ndarray) -> np.ndarray:
    """A tensor that is constant on every normalization group (value per group varies)."""
    gshape, red = _grouped(spec, x.shape)
    kept = [n if i not in red else 1 for i, n in enumerate(gshape)]
    per = np.arange(1, int(np.prod(kept)) + 1, dtype=object).reshape(kept)
    return (np.broadcast_to(per, gshape) * sympy.Rational(3, 2)).reshape(x.shape)


def invariances(spec: NormSpec, x: Any = None) -> list[Finding]:
    """Shift, positive scale, per-unit weight rescaling and the shared-bias gradient."""
    xa = sample_tensor(spec) if x is None else np.asarray(x, dtype=object)
    out: list[Finding] = []
    g, _, _ = _parts(spec, spec.eps)
    if spec.center:
        out.append(Finding("shift", True, "P ones = ones - ones*(ones.T*ones)/d = 0, so the "
                           "centered vector, the variance and the output do not change"))
        out.append(Finding("shared-bias gradient", True, "J is symmetric and J ones = 0, so "
                           "ones.T*J = 0: a bias shared by a group gets zero gradient"))
    else:
        w = _differ(spec, xa, xa + _group_ones(spec, xa), "shift", "x' = x + b*ones per group")
        out.append(w or Finding("shift", True, "no witness found"))
        one = spec.with_(layout=("D",), reduce=("D",), sizes=(("D", 3),), batch_axis=None,
                         channel_axis=None, groups=None, affine=(), gain_offset=0,
                         running=None)
        row = sympy.ones(1, 3) * jacobian(one, [1, 2, 4])
        out.append(Finding("shared-bias gradient", False, "ones.T*J = ones.T/r - "
                           "(ones.T*x) x.T/(d r^3) is nonzero when ones.T*x != 0",
                           witness={"x": "[1, 2, 4]", "ones.T*J": str(row.tolist()[0])}))
    ratio = sympy.simplify(g.subs(V, _A**2 * V) - _A * g)
    if ratio == 0:
        out.append(Finding("scale", True, "g(a^2 v) = a g(v) for a > 0 because eps = 0, so "
                           "N(a x) = a A x / (a g(v)) = N(x)", ("a > 0", "eps == 0")))
    else:
        w = _differ(spec, xa, xa * 2, "scale", "x' = 2*x")
        out.append(w or Finding("scale", True, "no witness found"))
    unit_ok = spec.channel_axis is not None and spec.channel_axis not in spec.reduce and (
        spec.groups is None or spec.groups == spec.size(spec.channel_axis))
    if unit_ok and ratio == 0:
        out.append(Finding("unit weight rescaling", True, "each group lies inside one channel, "
                           "so scaling that channel's weights by a > 0 scales its whole "
                           "group: the scale law applies; the weight gradient scales as 1/a",
                           ("a > 0", "eps == 0")))
    else:
        x2 = xa.copy()
        ax = spec.channel_axis or spec.layout[-1]
        idx = [slice(None)] * xa.ndim
        idx[spec.layout.index(ax)] = 0
        x2[tuple(idx)] = x2[tuple(idx)] * 3
        w = _differ(spec, xa, x2, "unit weight rescaling", f"x'[{ax}=0] = 3*x[{ax}=0]")
        out.append(w or Finding("unit weight rescaling", True, "no witness found"))
    return out
