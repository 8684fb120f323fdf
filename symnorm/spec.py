"""The layer spec: one frozen, validated description of a normalization layer.

A spec states a tensor layout (``("N", "C", "H", "W")`` or ``("D",)`` for a plain vector),
which axes the statistics reduce over, centering on or off (RMSNorm), the variance
denominator, epsilon and whether it sits inside ``sqrt(var + eps)`` or outside
``sqrt(var) + eps``, the affine parameters, and for BatchNorm the running-statistics rule.
Presets for frameworks are instances of this class, never parallel code paths.

>>> spec = layer_norm(d=3, eps="1/10")
>>> spec.d, spec.eps
(3, 1/10)
>>> layer_norm(d=1)
Traceback (most recent call last):
...
symnorm.errors.SpecError: d must be an integer >= 2 or None for symbolic d (got 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import sympy

from .errors import SpecError

__all__ = ["NormSpec", "RunningStats", "layer_norm", "rms_norm", "as_rational"]

#: Cap on exact rational inputs (digits of numerator or denominator).
MAX_LITERAL_DIGITS = 200


def as_rational(value: Any, field_name: str) -> sympy.Rational:
    """Read ``value`` as an exact rational; decimals in text are exact (``"0.1"`` is 1/10).

    >>> as_rational("0.1", "eps")
    1/10
    >>> as_rational(0.5, "eps")
    1/2
    """
    if isinstance(value, bool):
        raise SpecError(f"{field_name} must be a number (got {value!r})")
    try:
        if isinstance(value, sympy.Rational):
            out = value
        elif isinstance(value, (int, Fraction)):
            out = sympy.Rational(value)
        elif isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                raise ValueError
            # a float is read by its shortest decimal repr: 0.1 means 1/10
            out = sympy.Rational(Fraction(repr(value)))
        elif isinstance(value, str):
            text = value.strip()
            if len(text) > 2 * MAX_LITERAL_DIGITS + 1:
                raise SpecError(f"{field_name}: literal too long ({len(text)} characters)")
            out = sympy.Rational(Fraction(text))
        else:
            raise ValueError
    except (ValueError, ZeroDivisionError, TypeError):
        raise SpecError(
            f"{field_name} must be an exact number such as 1/10, 0.1 or 2 (got {value!r})"
        ) from None
    if max(len(str(abs(out.p))), len(str(out.q))) > MAX_LITERAL_DIGITS:
        raise SpecError(f"{field_name} has more than {MAX_LITERAL_DIGITS} digits")
    return out


@dataclass(frozen=True)
class RunningStats:
    """BatchNorm's running-statistics rule.

    ``convention="new"``: ``r <- (1 - m) r + m b`` (PyTorch); ``"old"``: ``r <- m r + (1 - m) b``
    (Keras, Flax, ONNX).  ``var_denominator`` is ``"N"`` or ``"N-1"``.
    """

    momentum: sympy.Rational = sympy.Rational(1, 10)
    convention: str = "new"
    var_denominator: str = "N-1"

    def __post_init__(self) -> None:
        m = as_rational(self.momentum, "momentum")
        object.__setattr__(self, "momentum", m)
        if not 0 <= m <= 1:
            raise SpecError(f"momentum must lie in [0, 1] (got {m})")
        if self.convention not in ("new", "old"):
            raise SpecError(f"convention must be 'new' or 'old' (got {self.convention!r})")
        if self.var_denominator not in ("N", "N-1"):
            raise SpecError(
                f"var_denominator must be 'N' or 'N-1' (got {self.var_denominator!r})")

    @property
    def weight_of_batch(self) -> sympy.Rational:
        """The weight the new batch statistic gets in one update."""
        return self.momentum if self.convention == "new" else 1 - self.momentum


@dataclass(frozen=True)
class NormSpec:
    """A normalization layer.

    ``sizes`` maps each axis of ``layout`` to an integer, or ``None`` for a symbolic size.
    ``reduce`` lists the axes the statistics are taken over.  ``groups`` splits axis
    ``channel_axis`` into that many groups (GroupNorm) and then adds it to the reduction.
    ``affine`` lists the axes the learned gain and bias broadcast over (empty: none);
    ``gain_offset`` is 1 for Gemma-style ``(1 + w)`` gains.
    """

    name: str
    layout: tuple[str, ...] = ("D",)
    reduce: tuple[str, ...] = ("D",)
    sizes: tuple[tuple[str, int | None], ...] = (("D", None),)
    center: bool = True
    var_denominator: str = "N"
    eps: sympy.Rational = sympy.Rational(0)
    eps_inside: bool = True
    groups: int | None = None
    channel_axis: str | None = None
    affine: tuple[str, ...] = ()
    bias: bool = True
    gain_offset: int = 0
    running: RunningStats | None = None
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", as_rational(self.eps, "eps"))
        if self.eps < 0:
            raise SpecError(f"eps must be >= 0 (got {self.eps})")
        if len(set(self.layout)) != len(self.layout) or not self.layout:
            raise SpecError(f"layout must name distinct axes (got {self.layout!r})")
        for ax in self.reduce + self.affine:
            if ax not in self.layout:
                raise SpecError(f"axis {ax!r} is not in the layout {' '.join(self.layout)}")
        if not self.reduce and self.groups is None:
            raise SpecError("reduce must name at least one axis")
        size_axes = [a for a, _ in self.sizes]
        if sorted(size_axes) != sorted(self.layout):
            raise SpecError(f"sizes must give every axis of {self.layout!r} (got {size_axes!r})")
        for ax, n in self.sizes:
            if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 1):
                raise SpecError(f"size of axis {ax!r} must be a positive integer (got {n!r})")
        if self.var_denominator not in ("N", "N-1"):
            raise SpecError(
                f"var_denominator must be 'N' or 'N-1' (got {self.var_denominator!r})")
        if self.groups is not None:
            if self.channel_axis not in self.layout:
                raise SpecError(f"channel_axis {self.channel_axis!r} is not in the layout")
            if isinstance(self.groups, bool) or not isinstance(self.groups, int) or self.groups < 1:
                raise SpecError(f"groups must be a positive integer (got {self.groups!r})")
            c = self.size(self.channel_axis)
            if c is not None and c % self.groups:
                raise SpecError(f"groups={self.groups} does not divide "
                                f"{self.channel_axis}={c} channels")
        if self.gain_offset not in (0, 1):
            raise SpecError(f"gain_offset must be 0 or 1 (got {self.gain_offset!r})")
        d = self.group_size
        if d is not None and d < 2 and self.center:
            raise SpecError(f"d must be an integer >= 2 or None for symbolic d (got {d})")

    def size(self, axis: str) -> int | None:
        return dict(self.sizes)[axis]

    @property
    def group_size(self) -> int | None:
        """How many numbers share one mean/variance (None when a size is symbolic)."""
        n = 1
        for ax in self.reduce:
            s = self.size(ax)
            if s is None:
                return None
            n *= s
        if self.groups is not None:
            c = self.size(self.channel_axis)  # type: ignore[arg-type]
            if c is None:
                return None
            n *= c // self.groups
        return n

    @property
    def d(self) -> int | None:
        """The length of the normalized vector (the group size); None when symbolic."""
        return self.group_size

    def with_(self, **changes: Any) -> "NormSpec":
        """A validated copy with some fields changed."""
        return replace(self, **changes)


def _check_d(d: Any) -> int | None:
    if d is None:
        return None
    if isinstance(d, bool) or not isinstance(d, int) or d < 2:
        raise SpecError(f"d must be an integer >= 2 or None for symbolic d (got {d!r})")
    return d


def layer_norm(d: int | None = None, eps: Any = 0, *, eps_inside: bool = True,
               var_denominator: str = "N", affine: bool = False) -> NormSpec:
    """LayerNorm of one vector of length ``d`` (None: symbolic d), no affine by default.

    >>> layer_norm(eps="1/10").d is None
    True
    """
    return NormSpec(name="layer_norm", sizes=(("D", _check_d(d)),), eps=eps,
                    eps_inside=eps_inside, var_denominator=var_denominator,
                    affine=("D",) if affine else ())


def rms_norm(d: int | None = None, eps: Any = 0, *, affine: bool = False) -> NormSpec:
    """RMSNorm ``x / sqrt(mean(x**2) + eps)`` of one vector (no centering)."""
    if d is not None and (isinstance(d, bool) or not isinstance(d, int) or d < 1):
        raise SpecError(f"d must be a positive integer or None (got {d!r})")
    return NormSpec(name="rms_norm", sizes=(("D", d),), eps=eps, center=False,
                    affine=("D",) if affine else (), bias=False)
