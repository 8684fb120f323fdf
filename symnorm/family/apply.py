"""Apply any layer spec to a concrete tensor: one forward map, three number systems.

The same body serves exact SymPy arithmetic (``backend="exact"``: rationals, square roots
kept exact, symbols allowed), mpmath at a chosen precision (``"mpmath"``, scoped with
``workdps``) and float64 (``"numpy"``).  Training mode uses the statistics of the input
and, when the spec has a running-statistics rule, returns the updated running state;
inference mode uses the running state instead.

>>> from symnorm.spec import batch_norm
>>> spec = batch_norm("N C", sizes="N=2 C=1")
>>> out = forward(spec, [[0], [2]])
>>> out.y.tolist(), out.state.mean.tolist(), out.state.var.tolist()
([[-1], [1]], [1/10], [11/10])
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np
import sympy

from ..errors import LimitError, SpecError
from ..spec import NormSpec, as_rational

__all__ = ["Forward", "RunningState", "affine_of_inference", "fold_linear", "forward",
           "initial_state", "to_backend"]

BACKENDS = ("exact", "mpmath", "numpy")
#: Cap on tensor size for the exact and mpmath backends (object arrays are slow).
MAX_EXACT_ELEMENTS = 200_000
MAX_DPS = 10_000


@dataclass(frozen=True)
class RunningState:
    """Running mean and variance, one entry per statistic outside the batch axis."""

    mean: np.ndarray
    var: np.ndarray
    steps: int = 0


@dataclass(frozen=True)
class Forward:
    """The output ``y``, the statistics used (``mean``, ``var``; shape of the kept axes,
    the channel axis counting groups) and the running state after the step."""

    y: np.ndarray
    mean: np.ndarray
    var: np.ndarray
    state: RunningState | None


class _Backend:
    """Number conversion and square root for one number system."""

    name = "exact"

    def __init__(self, dps: int = 50) -> None:
        self.dps = dps

    @contextlib.contextmanager
    def context(self) -> Iterator[None]:
        yield

    def number(self, v: Any) -> Any:
        if isinstance(v, sympy.Basic):
            return v
        return as_rational(v, "tensor entry")

    def array(self, x: Any) -> np.ndarray:
        arr = np.asarray(x, dtype=object)
        if arr.size > MAX_EXACT_ELEMENTS:
            raise LimitError(f"tensor has {arr.size} entries; the {self.name} backend "
                             f"takes at most {MAX_EXACT_ELEMENTS} (use backend='numpy')")
        out = np.empty(arr.shape, dtype=object)
        for idx, v in np.ndenumerate(arr):
            out[idx] = self.number(v)
        return out

    def sqrt(self, arr: np.ndarray) -> np.ndarray:
        return np.vectorize(sympy.sqrt, otypes=[object])(arr)

    def is_zero(self, v: Any) -> bool:
        return bool(v == 0)


class _MP(_Backend):
    name = "mpmath"

    @contextlib.contextmanager
    def context(self) -> Iterator[None]:
        with mpmath.workdps(self.dps):
            yield

    def number(self, v: Any) -> Any:
        if isinstance(v, mpmath.mpf):
            return +v
        r = as_rational(v, "tensor entry")
        return mpmath.mpf(int(r.p)) / int(r.q)

    def sqrt(self, arr: np.ndarray) -> np.ndarray:
        return np.vectorize(mpmath.sqrt, otypes=[object])(arr)


class _Float(_Backend):
    name = "numpy"

    def array(self, x: Any) -> np.ndarray:
        return np.asarray(x, dtype=np.float64)

    def number(self, v: Any) -> Any:
        return float(v)

    def sqrt(self, arr: np.ndarray) -> np.ndarray:
        return np.sqrt(arr)


def _backend(name: str, dps: int) -> _Backend:
    if name not in BACKENDS:
        raise SpecError(f"backend must be one of {', '.join(BACKENDS)} (got {name!r})")
    if isinstance(dps, bool) or not isinstance(dps, int) or not 5 <= dps <= MAX_DPS:
        raise LimitError(f"dps must be an integer in 5..{MAX_DPS} (got {dps!r})")
    return {"exact": _Backend, "mpmath": _MP, "numpy": _Float}[name](dps)


def to_backend(x: Any, backend: str = "exact", dps: int = 50) -> np.ndarray:
    """Convert a nested list to the backend's array (exact rationals from decimals)."""
    be = _backend(backend, dps)
    with be.context():
        return be.array(x)


def _check_shape(spec: NormSpec, shape: tuple[int, ...]) -> None:
    if len(shape) != len(spec.layout):
        raise SpecError(f"tensor has {len(shape)} axes but the layout "
                        f"{' '.join(spec.layout)} has {len(spec.layout)}")
    for ax, n in zip(spec.layout, shape):
        want = spec.size(ax)
        if want is not None and want != n:
            raise SpecError(f"axis {ax!r} has size {n} but the spec says {want}")
    if spec.groups is not None:
        c = shape[spec.layout.index(spec.channel_axis)]  # type: ignore[arg-type]
        if c % spec.groups:
            raise SpecError(f"groups={spec.groups} does not divide "
                            f"{spec.channel_axis}={c} channels")


def _grouped(spec: NormSpec, shape: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The grouped view's shape and its reduced axis indices (channel split as G x C/G)."""
    names: list[str] = list(spec.layout)
    dims = list(shape)
    red = [i for i, a in enumerate(names) if a in spec.reduce]
    if spec.groups is not None:
        ci = names.index(spec.channel_axis)  # type: ignore[arg-type]
        g = spec.groups
        dims[ci:ci + 1] = [g, shape[ci] // g]
        red = [i + (i > ci) for i in red] + [ci + 1]
    return tuple(dims), tuple(sorted(red))


def _stat_shape(spec: NormSpec, shape: tuple[int, ...]) -> tuple[int, ...]:
    """Shape of the running state: kept axes without the batch axis."""
    return tuple(n for a, n in zip(spec.layout, shape)
                 if a not in spec.reduce and a != spec.batch_axis)


def _state_view(spec: NormSpec, shape: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(1 if a in spec.reduce or a == spec.batch_axis else n
                 for a, n in zip(spec.layout, shape))


def initial_state(spec: NormSpec, shape: tuple[int, ...], backend: str = "exact") -> RunningState:
    """Running mean 0 and running variance 1, as every framework initializes them."""
    st = _stat_shape(spec, tuple(shape))
    if backend == "numpy":
        return RunningState(np.zeros(st), np.ones(st))
    zero, one = (sympy.Integer(0), sympy.Integer(1))
    return RunningState(np.full(st, zero, dtype=object), np.full(st, one, dtype=object))


def _param(be: _Backend, spec: NormSpec, value: Any, shape: tuple[int, ...], what: str,
           default: int) -> np.ndarray:
    want = tuple(n for a, n in zip(spec.layout, shape) if a in spec.affine)
    view = tuple(n if a in spec.affine else 1 for a, n in zip(spec.layout, shape))
    if value is None:
        arr = be.array(np.full(want, default, dtype=object))
    else:
        arr = be.array(value)
        if arr.shape != want:
            raise SpecError(f"{what} must have shape {want} (the affine axes "
                            f"{' '.join(spec.affine)}); got {arr.shape}")
    return arr.reshape(view)


def forward(spec: NormSpec, x: Any, *, train: bool = True, gain: Any = None, bias: Any = None,
            state: RunningState | None = None, backend: str = "exact",
            dps: int = 50) -> Forward:
    """Apply ``spec`` to the tensor ``x`` (nested lists or an array in layout order).

    ``gain``/``bias`` have the shape of the affine axes (defaults 1 and 0; Gemma's stored
    gain defaults to 0, the effective gain being ``1 + w``).  In training mode the running
    state (``state``, default :func:`initial_state`) is updated when the spec has a running
    rule; in inference mode a spec with a running rule normalizes with ``state``.
    """
    be = _backend(backend, dps)
    with be.context():
        xa = be.array(x)
        shape = tuple(xa.shape)
        _check_shape(spec, shape)
        if (gain is not None or bias is not None) and not spec.affine:
            raise SpecError(f"{spec.name} has no affine parameters (affine axes are empty)")
        if bias is not None and not spec.bias:
            raise SpecError(f"{spec.name} has a gain but no bias")
        running = spec.running
        if running is not None and state is None:
            state = initial_state(spec, shape, backend)
        if running is not None and state is not None and state.mean.shape != _stat_shape(
                spec, shape):
            raise SpecError(f"running state has shape {state.mean.shape}, expected "
                            f"{_stat_shape(spec, shape)}")
        gshape, red = _grouped(spec, shape)
        xg = xa.reshape(gshape)
        n = math.prod(gshape[i] for i in red)
        new_state = state
        if train or running is None or state is None:
            mean, var, new_state = _batch_stats(be, spec, xg, red, n, shape, state)
            zero = np.zeros(np.shape(var), dtype=var.dtype)
            used = (_squeeze(mean if mean is not None else zero, red), _squeeze(var, red))
        else:
            view = _state_view(spec, shape)
            mean = be.array(state.mean).reshape(view) if spec.center else None
            var = be.array(state.var).reshape(view)
            xg = xa
            used = (be.array(state.mean), be.array(state.var))
        centered = xg - mean if mean is not None else xg
        eps = be.number(spec.eps)
        root = be.sqrt(var + eps) if spec.eps_inside else be.sqrt(var) + eps
        if any(be.is_zero(v) for v in np.ravel(root)):
            raise SpecError("a group has zero variance and eps = 0: the output 0/0 is "
                            "undefined (give eps > 0)")
        y = (centered / root).reshape(shape)
        if spec.affine:
            g = _param(be, spec, gain, shape, "gain", 1 - spec.gain_offset) + spec.gain_offset
            y = y * g
            if spec.bias:
                y = y + _param(be, spec, bias, shape, "bias", 0)
        return Forward(y=y, mean=used[0], var=used[1], state=new_state)


def _squeeze(arr: np.ndarray, red: tuple[int, ...]) -> np.ndarray:
    return np.squeeze(arr, axis=tuple(i for i in red if i < np.ndim(arr)
                                      and np.shape(arr)[i] == 1))


def _batch_stats(be: _Backend, spec: NormSpec, xg: np.ndarray, red: tuple[int, ...], n: int,
                 shape: tuple[int, ...], state: RunningState | None
                 ) -> tuple[np.ndarray | None, np.ndarray, RunningState | None]:
    mean = xg.sum(axis=red, keepdims=True) / n if spec.center else None
    if spec.fast_variance and mean is not None:
        # one pass: sum of squares minus n*mean^2, clipped at 0 as Flax and Keras do
        sq = (xg * xg).sum(axis=red, keepdims=True) - n * mean * mean
        sq = np.where(sq < 0, 0 * sq, sq) if be.name != "exact" else sq
    else:
        centered = xg - mean if mean is not None else xg
        sq = (centered * centered).sum(axis=red, keepdims=True)
    var = sq / _count(spec.var_denominator, n, "var_denominator")
    running = spec.running
    if running is None or state is None:
        return mean, var, state
    run_var = sq / _count(running.var_denominator, n, "running.var_denominator")
    b_mean = mean if mean is not None else np.zeros(var.shape, dtype=var.dtype)
    if spec.batch_axis is not None and spec.batch_axis not in spec.reduce:
        # InstanceNorm with running stats: per-instance statistics averaged over the batch
        bi = spec.layout.index(spec.batch_axis)
        b_mean = b_mean.sum(axis=bi, keepdims=True) / shape[bi]
        run_var = run_var.sum(axis=bi, keepdims=True) / shape[bi]
    st = _stat_shape(spec, shape)
    w = running.weight_at(state.steps)
    wb = be.number(w) if be.name != "exact" else w
    new_mean = (1 - wb) * be.array(state.mean) + wb * b_mean.reshape(st)
    new_var = (1 - wb) * be.array(state.var) + wb * run_var.reshape(st)
    return mean, var, RunningState(new_mean, new_var, state.steps + 1)


def _count(denominator: str, n: int, what: str) -> int:
    if denominator == "N":
        return n
    if n < 2:
        raise SpecError(f"{what}='N-1' needs more than 1 value per statistic (got {n})")
    return n - 1


def affine_of_inference(spec: NormSpec, state: RunningState, *, gain: Any = None,
                        bias: Any = None, backend: str = "exact",
                        dps: int = 50) -> tuple[np.ndarray, np.ndarray]:
    """Inference-mode BatchNorm as ``y = scale * x + shift`` per channel.

    >>> from symnorm.spec import batch_norm
    >>> st = RunningState(np.array([1], dtype=object), np.array([4], dtype=object))
    >>> [a.tolist() for a in affine_of_inference(batch_norm("N C", sizes="C=1"), st)]
    [[1/2], [-1/2]]
    """
    if spec.running is None or spec.groups is not None or not spec.center:
        raise SpecError("affine_of_inference needs a spec with running statistics")
    be = _backend(backend, dps)
    with be.context():
        mean, var = be.array(state.mean), be.array(state.var)
        eps = be.number(spec.eps)
        root = be.sqrt(var + eps) if spec.eps_inside else be.sqrt(var) + eps
        st = mean.shape
        ones = np.full(st, 1, dtype=object)
        g = be.array(ones) * (1 - spec.gain_offset) if gain is None else be.array(gain)
        g = g + spec.gain_offset
        b = be.array(ones) * 0 if bias is None or not spec.bias else be.array(bias)
        if not spec.affine and (gain is not None or bias is not None):
            raise SpecError(f"{spec.name} has no affine parameters")
        scale = g / root
        return scale, b - scale * mean


def fold_linear(spec: NormSpec, state: RunningState, weight: Any, lin_bias: Any, *,
                gain: Any = None, bias: Any = None, backend: str = "exact",
                dps: int = 50) -> tuple[np.ndarray, np.ndarray]:
    """Fold inference BatchNorm into the preceding linear layer ``u -> W u + b``.

    Returns ``(W', b')`` with ``W'[c] = scale[c] W[c]`` and ``b' = scale (b - mean) + beta``,
    so that ``BN_eval(W u + b) = W' u + b'`` for every input u.
    """
    scale, shift = affine_of_inference(spec, state, gain=gain, bias=bias, backend=backend,
                                       dps=dps)
    be = _backend(backend, dps)
    with be.context():
        w, b0 = be.array(weight), be.array(lin_bias)
        if w.ndim != 2 or w.shape[0] != scale.shape[0] or b0.shape != scale.shape:
            raise SpecError(f"weight must be (C, K) and bias (C,) with C={scale.shape[0]} "
                            f"(got {w.shape} and {b0.shape})")
        return w * scale.reshape(-1, 1), scale * b0 + shift
