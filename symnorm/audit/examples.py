"""Reference implementations in numpy that deliberately differ, and the acceptance table.

:class:`NumpyNorm` is a small, explicit normalization layer whose every convention is a
constructor argument (reduced axes, centering, variance denominator, eps and its placement,
one-pass variance, affine, running statistics with either momentum convention).  The
acceptance table pairs implementations (PyTorch's, when installed, and these) with the spec
they truly implement, built from the presets, never from the code under test.

>>> import numpy as np
>>> ln = NumpyNorm(axes=(1,), eps=0.0)
>>> ln(np.array([[1.0, 3.0]])).tolist()
[[-1.0, 1.0]]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from .. import spec as S
from ..presets import keras as K
from ..presets import torch as PT
from ..spec import NormSpec

__all__ = ["Case", "NumpyNorm", "numpy_cases", "torch_cases"]


class NumpyNorm:
    """``y = gain * (x - mean) / root + bias`` with every convention a parameter.

    ``axes``: reduced axis indices; ``unbiased``: variance over N-1; ``eps_inside``:
    ``sqrt(v + eps)`` else ``sqrt(v) + eps``; ``one_pass``: ``max(E[x^2] - E[x]^2, 0)``;
    ``weight_axes``: axes of the gain/bias (None: no affine); ``channel``: with
    ``running``, the axis of the running statistics (momentum weights the new batch for
    ``convention="new"``, the old value for ``"old"``).
    """

    def __init__(self, axes: tuple[int, ...], *, center: bool = True, unbiased: bool = False,
                 eps: float = 1e-5, eps_inside: bool = True, one_pass: bool = False,
                 weight_shape: tuple[int, ...] | None = None, weight_axes: tuple[int, ...] = (),
                 bias: bool = True, running: bool = False, channel: int = -1,
                 channels: int = 0, momentum: float = 0.1, convention: str = "new",
                 running_unbiased: bool = True, expose_momentum: bool = True) -> None:
        self.axes, self.center, self.unbiased = axes, center, unbiased
        self.eps, self.eps_inside, self.one_pass = eps, eps_inside, one_pass
        self.weight_axes = weight_axes
        if weight_shape is not None:
            self.weight = np.ones(weight_shape)
            if bias:
                self.bias = np.zeros(weight_shape)
        if running:
            self.running_mean = np.zeros(channels)
            self.running_var = np.ones(channels)
            # hidden momentum: the update still uses it, but a probe cannot read or set it
            setattr(self, "momentum" if expose_momentum else "_momentum", momentum)
        self.channel, self.convention, self.running_unbiased = channel, convention, running_unbiased
        self.__qualname__ = "NumpyNorm"

    def _view(self, x: np.ndarray, axes: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(n if i in axes else 1 for i, n in enumerate(x.shape))

    def __call__(self, x: np.ndarray, training: bool = True) -> np.ndarray:
        x = np.asarray(x, dtype=np.float64)
        n = int(np.prod([x.shape[a] for a in self.axes]))
        has_running = hasattr(self, "running_mean")
        if has_running and not training:
            view = self._view(x, (self.channel % x.ndim,))
            mean = self.running_mean.reshape(view)
            var = self.running_var.reshape(view)
        else:
            mean = x.mean(axis=self.axes, keepdims=True) if self.center else 0.0 * x
            if self.one_pass:
                sq = np.maximum((x * x).mean(axis=self.axes, keepdims=True) - mean * mean, 0.0)
                sq = sq * n
            else:
                sq = ((x - mean) ** 2).sum(axis=self.axes, keepdims=True)
            var = sq / (n - 1 if self.unbiased else n)
            if has_running:
                rvar = sq / (n - 1 if self.running_unbiased else n)
                m = getattr(self, "momentum", getattr(self, "_momentum", None))
                w = m if self.convention == "new" else 1 - m
                self.running_mean[...] = (1 - w) * self.running_mean + w * mean.ravel()
                self.running_var[...] = (1 - w) * self.running_var + w * rvar.ravel()
        root = np.sqrt(var + self.eps) if self.eps_inside else np.sqrt(var) + self.eps
        y = (x - mean) / root
        if hasattr(self, "weight"):
            view = self._view(x, self.weight_axes)
            y = y * self.weight.reshape(view)
            if hasattr(self, "bias"):
                y = y + self.bias.reshape(view)
        return y


@dataclass(frozen=True)
class Case:
    """One row of the acceptance table: an implementation, its input shape, the true spec."""

    name: str
    make: Callable[[], Any]
    layout: str
    sizes: str
    truth: Callable[[], NormSpec]


def numpy_cases() -> list[Case]:
    """Numpy implementations that deliberately differ from the frameworks."""
    ntd, s_ntd = "N T D", "N=3 T=2 D=5"
    return [
        Case("numpy eps outside sqrt",
             lambda: NumpyNorm((2,), eps=1e-3, eps_inside=False, weight_shape=(5,),
                               weight_axes=(2,)),
             ntd, s_ntd, lambda: S.layer_norm(layout=ntd, axes=1, sizes=s_ntd, eps="1e-3",
                                              eps_inside=False, affine=True)),
        Case("numpy unbiased variance",
             lambda: NumpyNorm((2,), unbiased=True, weight_shape=(5,), weight_axes=(2,)),
             ntd, s_ntd, lambda: S.layer_norm(layout=ntd, axes=1, sizes=s_ntd, eps="1e-5",
                                              var_denominator="N-1", affine=True)),
        Case("numpy no centering",
             lambda: NumpyNorm((2,), center=False, eps=1e-6, weight_shape=(5,),
                               weight_axes=(2,), bias=False),
             ntd, s_ntd, lambda: S.rms_norm(layout=ntd, axes=1, sizes=s_ntd, eps="1e-6",
                                            affine=True)),
        Case("numpy wrong axis (T, not D)",
             lambda: NumpyNorm((1,), weight_shape=(2,), weight_axes=(1,)),
             ntd, s_ntd, lambda: S.layer_norm(layout=ntd, axes="T", sizes=s_ntd, eps="1e-5",
                                              affine=True)),
        Case("numpy Keras-style momentum",
             lambda: NumpyNorm((0, 1, 2), eps=1e-3, weight_shape=(3,), weight_axes=(3,),
                               running=True, channel=3, channels=3, momentum=0.99,
                               convention="old", running_unbiased=False),
             "N H W C", "N=2 H=2 W=2 C=3",
             lambda: K.batch_normalization(sizes="N=2 H=2 W=2 C=3", one_pass=False)),
        Case("numpy one-pass variance",
             lambda: NumpyNorm((2,), one_pass=True, eps=1e-6, weight_shape=(5,),
                               weight_axes=(2,)),
             ntd, s_ntd, lambda: S.layer_norm(layout=ntd, axes=1, sizes=s_ntd, eps="1e-6",
                                              affine=True).with_(fast_variance=True)),
    ]


def torch_cases() -> list[Case]:
    """PyTorch's layers and functionals (needs torch)."""
    import torch
    import torch.nn.functional as F

    from .adapters import functional

    nchw, s4 = "N C H W", "N=2 C=4 H=3 W=2"
    ntd, s3 = "N T D", "N=3 T=2 D=5"

    def bn(train: bool) -> Any:
        return functional(F.batch_norm, running_mean=torch.zeros(4), running_var=torch.ones(4),
                          weight=torch.ones(4), bias=torch.zeros(4), training=train)

    return [
        Case("F.layer_norm", lambda: functional(F.layer_norm, normalized_shape=(5,),
                                                weight=torch.ones(5), bias=torch.zeros(5)),
             ntd, s3, lambda: PT.layer_norm(sizes=s3)),
        Case("nn.LayerNorm(bias=False)", lambda: torch.nn.LayerNorm(5, bias=False),
             ntd, s3, lambda: PT.layer_norm(sizes=s3, bias=False)),
        Case("F.group_norm", lambda: functional(F.group_norm, num_groups=2,
                                                weight=torch.ones(4), bias=torch.zeros(4)),
             nchw, s4, lambda: PT.group_norm(2, sizes=s4)),
        Case("nn.GroupNorm", lambda: torch.nn.GroupNorm(2, 4), nchw, s4,
             lambda: PT.group_norm(2, sizes=s4)),
        Case("F.batch_norm (training)", lambda: bn(True), nchw, s4,
             lambda: PT.batch_norm2d(sizes=s4)),
        Case("F.batch_norm (eval)", lambda: bn(False), nchw, s4,
             lambda: PT.batch_norm2d(sizes=s4)),
        Case("nn.BatchNorm2d (training)", lambda: torch.nn.BatchNorm2d(4), nchw, s4,
             lambda: PT.batch_norm2d(sizes=s4)),
        Case("nn.BatchNorm2d (eval)", lambda: torch.nn.BatchNorm2d(4).eval(), nchw, s4,
             lambda: PT.batch_norm2d(sizes=s4)),
        Case("nn.BatchNorm1d(momentum=None)", lambda: torch.nn.BatchNorm1d(3, momentum=None),
             "N C", "N=4 C=3", lambda: PT.batch_norm1d(sizes="N=4 C=3", momentum=None)),
        Case("F.instance_norm", lambda: functional(F.instance_norm), nchw, s4,
             lambda: PT.instance_norm2d(sizes=s4)),
        Case("nn.InstanceNorm2d", lambda: torch.nn.InstanceNorm2d(4), nchw, s4,
             lambda: PT.instance_norm2d(sizes=s4)),
        Case("F.rms_norm (eps=None, float64)",
             lambda: functional(F.rms_norm, normalized_shape=(5,), weight=torch.ones(5)),
             ntd, s3, lambda: PT.rms_norm(sizes=s3, eps=Fraction(1, 2 ** 52))),
        Case("nn.RMSNorm(eps=1e-6)", lambda: torch.nn.RMSNorm(5, eps=1e-6), ntd, s3,
             lambda: PT.rms_norm(sizes=s3, eps="1e-6")),
    ]
