"""The Python API for notebooks: a normalization layer at concrete d, with exact and numeric tools.

>>> from sympy import Rational
>>> ln = layer_norm(d=3, eps=Rational(1, 10))
>>> ln.centered([1, 2, 4]).T
Matrix([[-4/3, -1/3, 5/3]])
>>> [e.value for e in ln.eigen([1, 2, 4])]
[0, 27*sqrt(1490)/22201, 3*sqrt(1490)/149]
>>> all(check.holds for check in ln.verify())
True
>>> ln.cross_check([1, 2, 4]).max_abs_error < 1e-45
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy

from . import spec as _spec
from .engines.exact import Check, EigenSpace, ExactEngine
from .engines.numeric import CrossCheck, cross_check
from .errors import SpecError
from .spec import NormSpec, as_rational

__all__ = ["Layer", "layer_norm", "rms_norm"]

_TENTH = sympy.Rational(1, 10)


class Layer:
    """A normalized map ``N`` (no affine) described by a :class:`~symnorm.spec.NormSpec`.

    Methods take a point ``x`` as a sequence of exact numbers (ints, ``Rational``, ``"1/10"``;
    floats are read by their decimal repr); ``x=None`` means symbolic ``x1..xd``.
    """

    def __init__(self, spec: NormSpec) -> None:
        if spec.d is None:
            raise SpecError("the layer API needs a concrete d (got symbolic d; the any-d "
                            "engine proves statements for every d)")
        self.spec = spec
        self._engines: dict[tuple[Any, ...] | None, ExactEngine] = {}

    @property
    def d(self) -> int:
        """The length of the normalized vector."""
        return int(self.spec.d)  # type: ignore[arg-type]

    @property
    def eps(self) -> sympy.Rational:
        return self.spec.eps

    def _point(self, x: Sequence[Any] | None) -> tuple[sympy.Rational, ...] | None:
        if x is None:
            return None
        if isinstance(x, (str, bytes)) or not hasattr(x, "__len__"):
            raise SpecError(f"x must be a sequence of {self.d} numbers (got {x!r})")
        if len(x) != self.d:
            raise SpecError(f"x must have d={self.d} entries (got {len(x)})")
        return tuple(as_rational(xi, f"x[{i + 1}]") for i, xi in enumerate(x))

    def engine(self, x: Sequence[Any] | None = None) -> ExactEngine:
        """The (cached) exact engine at ``x`` (symbolic when None)."""
        key = self._point(x)
        if key not in self._engines:
            self._engines[key] = ExactEngine(self.spec, key)
        return self._engines[key]

    @property
    def projector(self) -> sympy.Matrix:
        """``P = I - 1 1^T / d`` (the identity for RMSNorm)."""
        d = self.d
        return sympy.eye(d) - sympy.ones(d, d) / d if self.spec.center else sympy.eye(d)

    def centered(self, x: Sequence[Any]) -> sympy.Matrix:
        """``c = P x`` exactly."""
        return self.projector * sympy.Matrix(self._point(x))

    def forward(self, x: Sequence[Any]) -> sympy.Matrix:
        """``N(x)`` exactly (``sqrt`` kept symbolic)."""
        return self.engine(x).N

    def jacobian(self, x: Sequence[Any] | None = None) -> sympy.Matrix:
        """J obtained by differentiation: exact at a point, or symbolic in x1..xd.

        Symbolic entries use ``c1..c(d-1)`` (``c_d = -(c_1 + ... + c_{d-1})``) and ``s``; see
        ``self.engine().definitions()``.
        """
        return self.engine(x).jacobian()

    def eigen(self, x: Sequence[Any] | None = None) -> list[EigenSpace]:
        """Eigenvalues of J with exact eigenvectors (0 on 1, eps/s^3 on c, 1/s on the rest)."""
        return self.engine(x).eigen()

    def verify(self, x: Sequence[Any] | None = None) -> list[Check]:
        """Prove the closed form and eigen-relations exactly at this d (for every x by default)."""
        return self.engine(x).verify()

    def cross_check(self, x: Sequence[Any], dps: int = 50) -> CrossCheck:
        """Compare the closed-form J with high-precision finite differences at ``x``."""
        return cross_check(self.spec, list(self._point(x) or ()), dps=dps)

    def _label(self) -> str:
        kind = "LayerNorm" if self.spec.center else "RMSNorm"
        extra = []
        if not self.spec.eps_inside:
            extra.append("eps outside the root")
        if self.spec.var_denominator != "N":
            extra.append("unbiased variance")
        tail = f" ({', '.join(extra)})" if extra else ""
        return f"{kind}(d={self.d}, eps={self.eps}){tail}"

    def __repr__(self) -> str:
        return f"<{self._label()}>"

    def _repr_latex_(self) -> str:
        eps = sympy.latex(self.eps)
        n = "d" if self.spec.var_denominator == "N" else "(d-1)"
        if self.spec.center:
            head = r"\mathrm{LayerNorm}"
            c = "c = Px,\\ P = I - \\tfrac{1}{d}\\mathbf{1}\\mathbf{1}^\\top"
            A = "P"
        else:
            head, c, A = r"\mathrm{RMSNorm}", "c = x", "I"
        if self.spec.eps_inside:
            s = f"s = \\sqrt{{c^\\top c/{n} + \\epsilon}}"
            j = f"J = \\frac{{{A}}}{{s}} - \\frac{{c c^\\top}}{{{n}\\, s^3}}"
        else:
            s = f"r = \\sqrt{{c^\\top c/{n}}},\\ t = r + \\epsilon"
            j = f"J = \\frac{{{A}}}{{t}} - \\frac{{c c^\\top}}{{{n}\\, r t^2}}"
        return (f"$${head}_{{d={self.d},\\ \\epsilon={eps}}}:\\quad {c},\\quad {s},\\quad "
                f"\\mathcal{{N}}(x) = c/{'s' if self.spec.eps_inside else 't'},\\quad {j}$$")


def layer_norm(d: int = 3, eps: Any = _TENTH, *, eps_inside: bool = True,
               var_denominator: str = "N") -> Layer:
    """LayerNorm (centered, no affine) of a vector of length ``d`` as a :class:`Layer`.

    >>> layer_norm(d=1)
    Traceback (most recent call last):
    ...
    symnorm.errors.SpecError: d must be an integer >= 2 or None for symbolic d (got 1)
    """
    if d is None:
        raise SpecError("d must be an integer >= 2 (got None; the layer API needs concrete d)")
    return Layer(_spec.layer_norm(d, eps, eps_inside=eps_inside,
                                  var_denominator=var_denominator))


def rms_norm(d: int = 3, eps: Any = _TENTH) -> Layer:
    """RMSNorm ``x / sqrt(mean(x**2) + eps)`` (no affine) as a :class:`Layer`."""
    if d is None or isinstance(d, bool) or not isinstance(d, int) or d < 2:
        raise SpecError(f"d must be an integer >= 2 (got {d!r})")
    return Layer(_spec.rms_norm(d, eps))
