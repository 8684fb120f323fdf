"""Flax linen's normalization modules as specs (channels last, feature axis -1).

eps 1e-5 for BatchNorm, 1e-6 for the others; BatchNorm's running average
``r <- m r + (1 - m) b`` with m = 0.99 and variance over N; the variance is computed in one
pass, ``E[x^2] - E[x]^2`` clipped at 0 (``use_fast_variance=True``).

>>> layer_norm().eps
1/1000000
"""

from __future__ import annotations

from typing import Any

from .. import spec as S
from ..spec import NormSpec

__all__ = ["batch_norm", "group_norm", "instance_norm", "layer_norm", "rms_norm"]


def batch_norm(sizes: Any = None, *, epsilon: Any = "1e-5", momentum: Any = "0.99",
               use_bias: bool = True, use_scale: bool = True, layout: str = "N H W C",
               use_fast_variance: bool = True) -> NormSpec:
    """``flax.linen.BatchNorm``: per feature (last axis) over all other axes.

    Source: FX (framework-conventions.md): eps 1e-5, momentum 0.99 weighting the old value,
    running variance over N, scale/bias (C), one-pass variance ``E[x^2] - E[x]^2`` clipped
    at 0 (``use_fast_variance``).  ``use_running_average`` is the eval mode.
    """
    return S.batch_norm(layout, epsilon, sizes=sizes, channel="C", batch="N",
                        affine=use_bias or use_scale, momentum=momentum, convention="old",
                        running_var_denominator="N", source="FX").with_(
                            fast_variance=use_fast_variance)


def layer_norm(sizes: Any = None, *, axes: Any = 1, epsilon: Any = "1e-6",
               layout: str = "N T D", use_fast_variance: bool = True) -> NormSpec:
    """``flax.linen.LayerNorm``: reduction_axes = feature_axes = -1, eps 1e-6.

    Source: FX (framework-conventions.md).
    """
    return S.layer_norm(layout=layout, axes=axes, sizes=sizes, eps=epsilon, affine=True,
                        source="FX").with_(fast_variance=use_fast_variance)


def group_norm(num_groups: int = 32, sizes: Any = None, *, epsilon: Any = "1e-6",
               layout: str = "N H W C", use_fast_variance: bool = True) -> NormSpec:
    """``flax.linen.GroupNorm(num_groups=32)``: per (n, group) over all non-batch axes.

    Source: FX (framework-conventions.md).
    """
    return S.group_norm(num_groups, layout, epsilon, sizes=sizes, channel="C", batch="N",
                        affine=True, source="FX").with_(fast_variance=use_fast_variance)


def instance_norm(sizes: Any = None, *, epsilon: Any = "1e-6",
                  layout: str = "N H W C", use_fast_variance: bool = True) -> NormSpec:
    """``flax.linen.InstanceNorm``: per (n, c) over the axes other than 0 and -1.

    Source: FX (framework-conventions.md): eps 1e-6, scale/bias (C).
    """
    return S.instance_norm(layout, epsilon, sizes=sizes, channel="C", batch="N", affine=True,
                           source="FX").with_(fast_variance=use_fast_variance)


def rms_norm(sizes: Any = None, *, axes: Any = 1, epsilon: Any = "1e-6",
             layout: str = "N T D") -> NormSpec:
    """``flax.linen.RMSNorm``: ``x * rsqrt(mean(x**2) + eps) * scale``, eps 1e-6.

    Source: FX (framework-conventions.md).
    """
    return S.rms_norm(layout=layout, axes=axes, sizes=sizes, eps=epsilon, affine=True,
                      source="FX")
