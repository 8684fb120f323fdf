"""Keras 3's normalization layers as specs (channels last, ``axis=-1``).

eps 1e-3 by default; BatchNormalization's moving statistics follow ``r <- m r + (1 - m) b``
with m = 0.99 and a moving variance over N (``ops.moments``).

>>> batch_normalization().running
RunningStats(momentum=99/100, convention='old', var_denominator='N')
"""

from __future__ import annotations

from typing import Any

from .. import spec as S
from ..spec import NormSpec

__all__ = ["batch_normalization", "group_normalization", "layer_normalization",
           "rms_normalization"]

EPS = "1e-3"


def batch_normalization(sizes: Any = None, *, epsilon: Any = EPS, momentum: Any = "0.99",
                        center: bool = True, scale: bool = True, layout: str = "N H W C",
                        one_pass: bool = True) -> NormSpec:
    """``keras.layers.BatchNormalization()``: per channel (last axis) over all other axes.

    Source: K-BN (framework-conventions.md): eps 1e-3, momentum 0.99 weighting the old
    value, moving variance over N, gamma/beta of shape (C).  ``center``/``scale`` switch
    beta/gamma; the spec has both or neither.  ``one_pass``: ``ops.moments`` computes
    ``E[x^2] - E[x]^2`` on the JAX, torch and NumPy backends (K-MO); pass False for the
    TensorFlow backend.
    """
    return S.batch_norm(layout, epsilon, sizes=sizes, channel="C", batch="N",
                        affine=center or scale, momentum=momentum, convention="old",
                        running_var_denominator="N", source="K-BN").with_(
                            fast_variance=one_pass)


def layer_normalization(sizes: Any = None, *, axis: Any = 1, epsilon: Any = EPS,
                        layout: str = "N T D", center: bool = True,
                        scale: bool = True) -> NormSpec:
    """``keras.layers.LayerNormalization(axis=-1)``: per position over the last axis.

    ``rms_scaling=True`` is *not* RMSNorm (it divides the uncentered x by the centered
    std) and is not modelled.  Source: K-LN (framework-conventions.md).
    """
    return S.layer_norm(layout=layout, axes=axis, sizes=sizes, eps=epsilon,
                        affine=center or scale, bias=center, source="K-LN")


def group_normalization(groups: int = 32, sizes: Any = None, *, epsilon: Any = EPS,
                        layout: str = "N H W C", affine: bool = True,
                        one_pass: bool = True) -> NormSpec:
    """``keras.layers.GroupNormalization(groups=32)``: per (n, group), channels last.

    ``groups=-1`` in Keras means one group per channel (instance norm): pass C instead.
    ``one_pass`` as for BatchNormalization (``ops.moments``).
    Source: K-GN, K-MO (framework-conventions.md).
    """
    return S.group_norm(groups, layout, epsilon, sizes=sizes, channel="C", batch="N",
                        affine=affine, source="K-GN").with_(fast_variance=one_pass)


def rms_normalization(sizes: Any = None, *, axis: Any = 1, epsilon: Any = "1e-6",
                      layout: str = "N T D") -> NormSpec:
    """``keras.layers.RMSNormalization``: ``x * rsqrt(mean(x**2) + eps) * scale``, eps 1e-6.

    (The op ``keras.ops.rms_normalization`` defaults to 1e-7.)  Source: K-RMS.
    """
    return S.rms_norm(layout=layout, axes=axis, sizes=sizes, eps=epsilon, affine=True,
                      source="K-RMS")
