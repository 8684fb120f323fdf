"""ONNX operators as specs (channel dim 1; eps 1e-5 throughout).

BatchNormalization-15 updates ``running = running * m + current * (1 - m)`` with m = 0.9
and the population variance (N); ``training_mode=0`` (inference) is its default.

>>> batch_normalization().running
RunningStats(momentum=9/10, convention='old', var_denominator='N')
"""

from __future__ import annotations

from typing import Any

from .. import spec as S
from ..spec import NormSpec

__all__ = ["batch_normalization", "group_normalization", "instance_normalization",
           "layer_normalization", "rms_normalization"]

EPS = "1e-5"


def batch_normalization(sizes: Any = None, *, epsilon: Any = EPS, momentum: Any = "0.9",
                        layout: str = "N C H W") -> NormSpec:
    """``BatchNormalization-15``: per channel (dim 1); inputs scale, B, mean, var of (C).

    Source: OX-D (framework-conventions.md): "population size (N) ... not N-1".
    """
    return S.batch_norm(layout, epsilon, sizes=sizes, channel="C", batch="N", affine=True,
                        momentum=momentum, convention="old", running_var_denominator="N",
                        source="OX-D")


def instance_normalization(sizes: Any = None, *, epsilon: Any = EPS,
                           layout: str = "N C H W") -> NormSpec:
    """``InstanceNormalization-22``: per (n, c) over dims 2..; scale and B of shape (C).

    Source: OX-D, OX-T (framework-conventions.md).
    """
    return S.instance_norm(layout, epsilon, sizes=sizes, channel="C", batch="N", affine=True,
                           source="OX-D, OX-T")


def layer_normalization(sizes: Any = None, *, axis: Any = 1, epsilon: Any = EPS,
                        layout: str = "N T D") -> NormSpec:
    """``LayerNormalization-17`` with ``axis=-1``: Scale and optional B over the normalized axes.

    Source: OX-LN (framework-conventions.md).
    """
    return S.layer_norm(layout=layout, axes=axis, sizes=sizes, eps=epsilon, affine=True,
                        source="OX-LN")


def group_normalization(num_groups: int, sizes: Any = None, *, epsilon: Any = EPS,
                        layout: str = "N C H W") -> NormSpec:
    """``GroupNormalization-21``: per (n, group); scale and bias of shape (C).

    (Opset 18 took per-group (num_groups) scale/bias.)  Source: OX-GN.
    """
    return S.group_norm(num_groups, layout, epsilon, sizes=sizes, channel="C", batch="N",
                        affine=True, source="OX-GN")


def rms_normalization(sizes: Any = None, *, axis: Any = 1, epsilon: Any = EPS,
                      layout: str = "N T D") -> NormSpec:
    """``RMSNormalization-23``: ``X / sqrt(mean(X**2) + eps) * Scale``, no bias.

    Source: OX-RMS (framework-conventions.md).
    """
    return S.rms_norm(layout=layout, axes=axis, sizes=sizes, eps=epsilon, affine=True,
                      source="OX-RMS")
