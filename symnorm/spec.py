"""The layer spec: one frozen, validated description of a normalization layer.

A spec states a tensor layout (``("N", "C", "H", "W")`` or ``("D",)`` for a plain vector),
which axes the statistics reduce over, centering on or off (RMSNorm), the variance
denominator, epsilon and whether it sits inside ``sqrt(var + eps)`` or outside
``sqrt(var) + eps``, the affine parameters, and for BatchNorm the running-statistics rule.
Presets for frameworks (``symnorm.presets``) are instances of this class, never parallel
code paths.  Constructors: :func:`layer_norm`, :func:`rms_norm` (one vector of length ``d``,
or a layout), :func:`batch_norm`, :func:`instance_norm`, :func:`group_norm`.

>>> spec = layer_norm(d=3, eps="1/10")
>>> spec.d, spec.eps
(3, 1/10)
>>> layer_norm(d=1)
Traceback (most recent call last):
...
symnorm.errors.SpecError: d must be an integer >= 2 or None for symbolic d (got 1)
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import sympy

from .errors import SpecError
from .family.layout import parse_axes, parse_layout, parse_sizes

__all__ = [
    "NormSpec", "RunningStats", "as_rational", "batch_norm", "group_norm", "instance_norm",
    "layer_norm", "rms_norm",
]

#: Cap on exact rational inputs (digits of numerator or denominator).
MAX_LITERAL_DIGITS = 200
_ZERO = sympy.Rational(0)
_TENTH = sympy.Rational(1, 10)


_NUMBER = re.compile(r"[+-]?(?:[0-9]+/[0-9]+|(?:[0-9]+\.?[0-9]*|\.[0-9]+)"
                     r"(?:[eE](?P<exp>[+-]?[0-9]{1,12}))?)")


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
            if not math.isfinite(value):
                raise ValueError
            # a float is read by its shortest decimal repr: 0.1 means 1/10
            out = sympy.Rational(Fraction(repr(value)))
        elif isinstance(value, str):
            text = value.strip()
            if len(text) > 2 * MAX_LITERAL_DIGITS + 1:
                raise SpecError(f"{field_name}: literal too long ({len(text)} characters)")
            m = _NUMBER.fullmatch(text)
            if m is None:  # ASCII digits only: a lookalike digit is no number
                raise ValueError
            if m.group("exp") and abs(int(m.group("exp"))) > MAX_LITERAL_DIGITS:
                # checked before converting: 1e99999999 would take minutes to build
                raise SpecError(f"{field_name}: exponent {m.group('exp')} out of range "
                                f"(at most {MAX_LITERAL_DIGITS} in size)")
            out = sympy.Rational(Fraction(text))
        else:
            raise TypeError
    except SpecError:
        raise
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
    (Keras, Flax, ONNX); ``"cumulative"``: the plain average of all batches so far, weight
    ``1/k`` at the k-th update (PyTorch's ``momentum=None``; ``momentum`` is ignored).
    ``var_denominator`` is ``"N"`` or ``"N-1"``.

    >>> RunningStats(convention="cumulative").weight_at(2)
    1/3
    """

    momentum: sympy.Rational = _TENTH
    convention: str = "new"
    var_denominator: str = "N-1"

    def __post_init__(self) -> None:
        m = as_rational(self.momentum, "momentum")
        object.__setattr__(self, "momentum", m)
        if not 0 <= m <= 1:
            raise SpecError(f"momentum must lie in [0, 1] (got {m})")
        if self.convention not in ("new", "old", "cumulative"):
            raise SpecError("convention must be 'new', 'old' or 'cumulative' "
                            f"(got {self.convention!r})")
        if self.var_denominator not in ("N", "N-1"):
            raise SpecError(
                f"var_denominator must be 'N' or 'N-1' (got {self.var_denominator!r})")

    @property
    def weight_of_batch(self) -> sympy.Rational:
        """The weight the new batch statistic gets in one update (the first, if cumulative)."""
        return self.weight_at(0)

    def weight_at(self, steps: int) -> sympy.Rational:
        """The weight of the new batch statistic after ``steps`` earlier updates."""
        if self.convention == "cumulative":
            return sympy.Rational(1, steps + 1)
        return self.momentum if self.convention == "new" else 1 - self.momentum


@dataclass(frozen=True)
class NormSpec:
    """A normalization layer.

    ``sizes`` maps each axis of ``layout`` to an integer, or ``None`` for a symbolic size.
    ``reduce`` lists the axes the statistics are taken over.  ``groups`` splits axis
    ``channel_axis`` into that many groups of contiguous channels (GroupNorm) and then adds
    it to the reduction.  ``affine`` lists the axes the learned gain and bias broadcast over
    (empty: none); ``gain_offset`` is 1 for Gemma-style ``(1 + w)`` gains.  ``batch_axis``
    names the sample axis: when it is reduced, one sample's output depends on the others.
    ``fast_variance`` computes the variance in one pass as ``max(E[x^2] - E[x]^2, 0)`` (Flax's
    default, Keras 3's ``moments`` on JAX/torch/NumPy): the same number in exact arithmetic,
    a cancellation in floating point when the mean is large against the spread.
    ``running`` (BatchNorm) switches inference mode to running statistics; without it both
    modes use the statistics of the current input.  Strings are accepted for ``layout``,
    ``reduce`` and ``affine`` (``"N C H W"``) and a mapping or ``"N=2 C=3"`` for ``sizes``.
    """

    name: str
    layout: tuple[str, ...] = ("D",)
    reduce: tuple[str, ...] = ("D",)
    sizes: tuple[tuple[str, int | None], ...] = (("D", None),)
    center: bool = True
    var_denominator: str = "N"
    eps: sympy.Rational = _ZERO
    eps_inside: bool = True
    groups: int | None = None
    channel_axis: str | None = None
    affine: tuple[str, ...] = ()
    bias: bool = True
    gain_offset: int = 0
    running: RunningStats | None = None
    batch_axis: str | None = None
    fast_variance: bool = False
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        layout = parse_layout(self.layout)
        object.__setattr__(self, "layout", layout)
        object.__setattr__(self, "reduce", parse_axes(self.reduce, "reduce"))
        object.__setattr__(self, "affine", parse_axes(self.affine, "affine"))
        object.__setattr__(self, "sizes", parse_sizes(self.sizes, layout))
        object.__setattr__(self, "eps", as_rational(self.eps, "eps"))
        if self.eps < 0:
            raise SpecError(f"eps must be >= 0 (got {self.eps})")
        for what, axes in (("reduce", self.reduce), ("affine", self.affine)):
            for ax in axes:
                if ax not in layout:
                    raise SpecError(f"{what}: axis {ax!r} is not in the layout {' '.join(layout)}")
        for what, ax in (("batch_axis", self.batch_axis), ("channel_axis", self.channel_axis)):
            if ax is not None and ax not in layout:
                raise SpecError(f"{what}: axis {ax!r} is not in the layout {' '.join(layout)}")
        if not self.reduce and self.groups is None:
            raise SpecError("reduce must name at least one axis")
        for flag in ("center", "eps_inside", "bias", "fast_variance"):
            if not isinstance(getattr(self, flag), bool):
                raise SpecError(f"{flag} must be True or False (got {getattr(self, flag)!r})")
        if self.var_denominator not in ("N", "N-1"):
            raise SpecError(
                f"var_denominator must be 'N' or 'N-1' (got {self.var_denominator!r})")
        if self.groups is not None:
            self._check_groups()
        if self.gain_offset not in (0, 1) or isinstance(self.gain_offset, bool):
            raise SpecError(f"gain_offset must be 0 or 1 (got {self.gain_offset!r})")
        if self.gain_offset and not self.affine:
            raise SpecError("gain_offset=1 needs affine axes (the gain is 1 + w)")
        if self.running is not None and not isinstance(self.running, RunningStats):
            raise SpecError(f"running must be a RunningStats or None (got {self.running!r})")
        if self.running is not None and self.groups is not None:
            raise SpecError("running: running statistics are not defined for grouped specs")
        d = self.group_size
        if d is not None and d < 2 and self.center:
            if self.layout == ("D",):
                raise SpecError(f"d must be an integer >= 2 or None for symbolic d (got {d})")
            raise SpecError(f"sizes: each centered group needs >= 2 numbers, but "
                            f"{self.group_description()} has {d}")

    def _check_groups(self) -> None:
        if self.channel_axis is None:
            raise SpecError("channel_axis must be given when groups is set")
        if self.channel_axis in self.reduce:
            raise SpecError(f"reduce: channel axis {self.channel_axis!r} is already split "
                            "into groups; leave it out of reduce")
        g = self.groups
        if isinstance(g, bool) or not isinstance(g, int) or g < 1:
            raise SpecError(f"groups must be a positive integer (got {g!r})")
        c = self.size(self.channel_axis)
        if c is not None and c % g:
            raise SpecError(f"groups={g} does not divide {self.channel_axis}={c} channels")

    def size(self, axis: str) -> int | None:
        """The size of ``axis`` (None when symbolic)."""
        try:
            return dict(self.sizes)[axis]
        except KeyError:
            raise SpecError(f"axis {axis!r} is not in the layout {' '.join(self.layout)}") \
                from None

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

    @property
    def kept_axes(self) -> tuple[str, ...]:
        """Axes that index the statistics (the channel axis stands for its groups)."""
        return tuple(a for a in self.layout if a not in self.reduce)

    @property
    def stat_pairs(self) -> int | None:
        """How many statistics (mean/variance pairs; RMS values) one input produces."""
        n = 1
        for ax in self.kept_axes:
            s = self.groups if ax == self.channel_axis and self.groups else self.size(ax)
            if s is None:
                return None
            n *= s
        return n

    @property
    def couples_samples(self) -> bool:
        """Whether, in training mode, one sample's output depends on other samples."""
        return self.batch_axis is not None and self.batch_axis in self.reduce

    @property
    def affine_shape(self) -> tuple[int | None, ...]:
        """Shape of the gain (and bias) parameters, in layout order."""
        return tuple(self.size(a) for a in self.affine)

    def group_description(self) -> str:
        """The reduction set in words, e.g. ``'N x H x W per C'`` or ``'C/G x H x W per N, group'``."""
        parts = list(self.reduce)
        if self.groups is not None:
            parts.insert(0, f"{self.channel_axis}/{self.groups}")
        per = [a if a != self.channel_axis or not self.groups else "group"
               for a in self.kept_axes]
        return " x ".join(parts) + (f" per {', '.join(per)}" if per else "")

    def with_(self, **changes: Any) -> NormSpec:
        """A validated copy with some fields changed."""
        return replace(self, **changes)


def _check_d(d: Any) -> int | None:
    if d is None:
        return None
    if isinstance(d, bool) or not isinstance(d, int) or d < 2:
        raise SpecError(f"d must be an integer >= 2 or None for symbolic d (got {d!r})")
    return d


def _roles(layout: tuple[str, ...], batch: str | None,
           channel: str | None) -> tuple[str, str]:
    """Default batch axis ('N' or the first) and channel axis ('C' or the last)."""
    b = batch if batch is not None else ("N" if "N" in layout else layout[0])
    c = channel if channel is not None else ("C" if "C" in layout else layout[-1])
    for what, ax in (("batch", b), ("channel", c)):
        if ax not in layout:
            raise SpecError(f"{what}: axis {ax!r} is not in the layout {' '.join(layout)}")
    if b == c:
        raise SpecError(f"batch and channel must be different axes (both {b!r})")
    return b, c


def _trailing(layout: tuple[str, ...], axes: int | str | Iterable[str] | None,
              batch: str) -> tuple[str, ...]:
    """The normalized axes of a LayerNorm/RMSNorm: ``axes`` names them or counts trailing axes."""
    if axes is None:
        rest = [a for a in layout if a != batch]
        if len(rest) == 1:
            return tuple(rest)
        raise SpecError(f"axes must be given for layout {' '.join(layout)} "
                        f"(e.g. axes={' '.join(rest)!r} or axes=1 for the last axis)")
    if isinstance(axes, int) and not isinstance(axes, bool):
        if not 1 <= axes < len(layout):
            raise SpecError(f"axes={axes} must count 1..{len(layout) - 1} trailing axes "
                            f"of {' '.join(layout)}")
        return layout[-axes:]
    out = parse_axes(axes, "axes")
    for ax in out:
        if ax not in layout:
            raise SpecError(f"axes: axis {ax!r} is not in the layout {' '.join(layout)}")
    if batch in out:
        raise SpecError(f"axes: {batch!r} is the batch axis; a per-sample layer cannot "
                        "reduce over it (use batch_norm)")
    return tuple(a for a in layout if a in out)


Sizes = str | Mapping[str, Any] | None


def layer_norm(d: int | None = None, eps: Any = 0, *, eps_inside: bool = True,
               var_denominator: str = "N", affine: bool = False, layout: Any = None,
               axes: int | str | Iterable[str] | None = None, sizes: Sizes = None,
               batch: str | None = None, bias: bool = True, source: str = "") -> NormSpec:
    """LayerNorm of one vector of length ``d`` (None: symbolic d), no affine by default.

    With ``layout`` it normalizes each sample over ``axes`` (names, or a count of trailing
    axes as in PyTorch's ``normalized_shape``); the affine parameters span those axes.

    >>> layer_norm(eps="1/10").d is None
    True
    >>> layer_norm(layout="N C H W", axes=3, sizes="N=2 C=3 H=2 W=2").reduce
    ('C', 'H', 'W')
    """
    if layout is None:
        return NormSpec(name="layer_norm", sizes=(("D", _check_d(d)),), eps=eps,
                        eps_inside=eps_inside, var_denominator=var_denominator,
                        affine=("D",) if affine else (), bias=bias, source=source)
    if d is not None:
        raise SpecError("give either d (one vector) or layout, not both")
    lay = parse_layout(layout)
    b = batch if batch is not None else ("N" if "N" in lay else lay[0])
    red = _trailing(lay, axes, b)
    return NormSpec(name="layer_norm", layout=lay, reduce=red, sizes=parse_sizes(sizes, lay),
                    eps=eps, eps_inside=eps_inside, var_denominator=var_denominator,
                    affine=red if affine else (), bias=bias,
                    batch_axis=b if b in lay else None, source=source)


def rms_norm(d: int | None = None, eps: Any = 0, *, affine: bool = False, layout: Any = None,
             axes: int | str | Iterable[str] | None = None, sizes: Sizes = None,
             batch: str | None = None, gain_offset: int = 0, source: str = "") -> NormSpec:
    """RMSNorm ``x / sqrt(mean(x**2) + eps)`` of one vector (no centering), gain only.

    ``gain_offset=1`` is Gemma's ``(1 + w)`` gain (implies ``affine=True``).

    >>> rms_norm(4, "1e-6", affine=True).affine
    ('D',)
    """
    if gain_offset:
        affine = True
    if layout is None:
        if d is not None and (isinstance(d, bool) or not isinstance(d, int) or d < 1):
            raise SpecError(f"d must be a positive integer or None (got {d!r})")
        return NormSpec(name="rms_norm", sizes=(("D", d),), eps=eps, center=False,
                        affine=("D",) if affine else (), bias=False, gain_offset=gain_offset,
                        source=source)
    if d is not None:
        raise SpecError("give either d (one vector) or layout, not both")
    lay = parse_layout(layout)
    b = batch if batch is not None else ("N" if "N" in lay else lay[0])
    red = _trailing(lay, axes, b)
    return NormSpec(name="rms_norm", layout=lay, reduce=red, sizes=parse_sizes(sizes, lay),
                    eps=eps, center=False, affine=red if affine else (), bias=False,
                    gain_offset=gain_offset, batch_axis=b, source=source)


def batch_norm(layout: Any = "N C", eps: Any = 0, *, sizes: Sizes = None,
               channel: str | None = None, batch: str | None = None, affine: bool = False,
               momentum: Any = _TENTH, convention: str = "new",
               running_var_denominator: str = "N-1", track_running_stats: bool = True,
               eps_inside: bool = True, var_denominator: str = "N",
               source: str = "") -> NormSpec:
    """BatchNorm: per channel, statistics over every other axis (batch included).

    The running-statistics defaults are PyTorch's: ``r <- (1 - m) r + m b`` with m = 1/10
    and running variance over N - 1.  ``track_running_stats=False`` uses batch statistics
    in both modes.

    >>> spec = batch_norm("N C H W", sizes="N=2 C=3 H=2 W=2")
    >>> spec.reduce, spec.group_size, spec.stat_pairs, spec.couples_samples
    (('N', 'H', 'W'), 8, 3, True)
    """
    lay = parse_layout(layout)
    b, c = _roles(lay, batch, channel)
    running = (RunningStats(momentum=momentum, convention=convention,
                            var_denominator=running_var_denominator)
               if track_running_stats else None)
    return NormSpec(name="batch_norm", layout=lay, reduce=tuple(a for a in lay if a != c),
                    sizes=parse_sizes(sizes, lay), eps=eps, eps_inside=eps_inside,
                    var_denominator=var_denominator, affine=(c,) if affine else (),
                    running=running, batch_axis=b, channel_axis=c, source=source)


def instance_norm(layout: Any = "N C H W", eps: Any = 0, *, sizes: Sizes = None,
                  channel: str | None = None, batch: str | None = None, affine: bool = False,
                  running: RunningStats | None = None, source: str = "") -> NormSpec:
    """InstanceNorm: per sample and channel, statistics over the remaining (spatial) axes.

    >>> instance_norm(sizes="N=2 C=3 H=2 W=2").stat_pairs
    6
    """
    lay = parse_layout(layout)
    b, c = _roles(lay, batch, channel)
    red = tuple(a for a in lay if a not in (b, c))
    if not red:
        raise SpecError(f"layout: instance_norm needs an axis besides batch {b!r} and "
                        f"channel {c!r} (got {' '.join(lay)})")
    return NormSpec(name="instance_norm", layout=lay, reduce=red, sizes=parse_sizes(sizes, lay),
                    eps=eps, affine=(c,) if affine else (), running=running,
                    batch_axis=b, channel_axis=c, source=source)


def group_norm(groups: int, layout: Any = "N C H W", eps: Any = 0, *, sizes: Sizes = None,
               channel: str | None = None, batch: str | None = None, affine: bool = False,
               source: str = "") -> NormSpec:
    """GroupNorm(G): per sample, statistics over C/G contiguous channels and the other axes.

    >>> group_norm(2, sizes="C=4 H=1 W=3").group_size
    6
    >>> group_norm(3, sizes="C=4")
    Traceback (most recent call last):
    ...
    symnorm.errors.SpecError: groups=3 does not divide C=4 channels
    """
    lay = parse_layout(layout)
    b, c = _roles(lay, batch, channel)
    return NormSpec(name="group_norm", layout=lay,
                    reduce=tuple(a for a in lay if a not in (b, c)),
                    sizes=parse_sizes(sizes, lay), eps=eps, groups=groups, channel_axis=c,
                    affine=(c,) if affine else (), batch_axis=b, source=source)
