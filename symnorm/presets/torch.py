"""PyTorch's normalization layers as specs (``torch.nn`` defaults).

Channel axis 1; eps inside the square root; normalization variance over N; BatchNorm's
running update ``r <- (1 - m) r + m b`` with m = 1/10 and running variance over N - 1.

>>> batch_norm2d(sizes="N=2 C=3 H=2 W=2").running
RunningStats(momentum=1/10, convention='new', var_denominator='N-1')
"""

from __future__ import annotations

from typing import Any

from .. import spec as S
from ..spec import NormSpec, RunningStats

__all__ = ["batch_norm1d", "batch_norm2d", "group_norm", "instance_norm2d", "layer_norm",
           "rms_norm"]

EPS = "1e-5"
#: ``torch.nn.RMSNorm(eps=None)`` uses float32's machine epsilon for fp16/bf16/fp32 input.
FP32_EPS = "1/8388608"


def batch_norm1d(sizes: Any = None, *, eps: Any = EPS, momentum: Any = "0.1",
                 affine: bool = True, track_running_stats: bool = True,
                 layout: str = "N C") -> NormSpec:
    """``torch.nn.BatchNorm1d``: input (N, C) or (N, C, L) (``layout="N C L"``).

    Source: PT-BN, PT-NC (framework-conventions.md): eps 1e-5, momentum 0.1 weighting the
    new batch (``momentum=None``: cumulative average, weight 1/num_batches_tracked), running
    variance unbiased (N - 1), gamma/beta of shape (C).
    """
    conv = "cumulative" if momentum is None else "new"
    return S.batch_norm(layout, eps, sizes=sizes, channel="C", batch="N", affine=affine,
                        momentum=0 if momentum is None else momentum, convention=conv,
                        running_var_denominator="N-1",
                        track_running_stats=track_running_stats, source="PT-BN, PT-NC")


def batch_norm2d(sizes: Any = None, *, eps: Any = EPS, momentum: Any = "0.1",
                 affine: bool = True, track_running_stats: bool = True) -> NormSpec:
    """``torch.nn.BatchNorm2d``: input (N, C, H, W), statistics over N, H, W per channel.

    Source: PT-BN, PT-NC (framework-conventions.md).
    """
    return batch_norm1d(sizes, eps=eps, momentum=momentum, affine=affine,
                        track_running_stats=track_running_stats, layout="N C H W")


def instance_norm2d(sizes: Any = None, *, eps: Any = EPS, momentum: Any = "0.1",
                    affine: bool = False, track_running_stats: bool = False) -> NormSpec:
    """``torch.nn.InstanceNorm2d``: per (n, c) over H, W; no affine, no running stats.

    With ``track_running_stats=True`` the per-instance statistics (running variance over
    H*W - 1) are averaged over the batch and used in eval mode.
    Source: PT-IN, PT-NC (framework-conventions.md).
    """
    running = (RunningStats(momentum=momentum, convention="new", var_denominator="N-1")
               if track_running_stats else None)
    return S.instance_norm("N C H W", eps, sizes=sizes, channel="C", batch="N", affine=affine,
                           running=running, source="PT-IN, PT-NC")


def layer_norm(sizes: Any = None, *, axes: Any = 1, layout: str = "N T D", eps: Any = EPS,
               elementwise_affine: bool = True, bias: bool = True) -> NormSpec:
    """``torch.nn.LayerNorm(normalized_shape)``: the last ``axes`` dims of ``layout``.

    ``axes`` counts the trailing dims (``len(normalized_shape)``) or names them; gain and
    bias have the normalized shape.  Source: PT-LN (framework-conventions.md).
    """
    return S.layer_norm(layout=layout, axes=axes, sizes=sizes, eps=eps,
                        affine=elementwise_affine, bias=bias, source="PT-LN")


def group_norm(num_groups: int, sizes: Any = None, *, eps: Any = EPS,
               affine: bool = True) -> NormSpec:
    """``torch.nn.GroupNorm(num_groups, C)``: per (n, group) over C/G channels x H x W.

    Source: PT-GN (framework-conventions.md): eps 1e-5, gamma/beta of shape (C).
    """
    return S.group_norm(num_groups, "N C H W", eps, sizes=sizes, channel="C", batch="N",
                        affine=affine, source="PT-GN")


def rms_norm(sizes: Any = None, *, axes: Any = 1, layout: str = "N T D",
             eps: Any = FP32_EPS, elementwise_affine: bool = True) -> NormSpec:
    """``torch.nn.RMSNorm`` (2.4+): ``x * rsqrt(mean(x**2) + eps) * gamma``, no bias.

    ``eps=None`` in PyTorch means float32's epsilon 2**-23 for fp16/bf16/fp32 input (the
    default here); float64 input gets 2**-52.  Source: PT-RMS (framework-conventions.md).
    """
    return S.rms_norm(layout=layout, axes=axes, sizes=sizes, eps=eps,
                      affine=elementwise_affine, source="PT-RMS")
