"""Framework presets: each a :class:`~symnorm.spec.NormSpec` built from the conventions file.

Every preset's docstring names its source keys in
``shared/reference/framework-conventions.md`` (e.g. ``PT-BN``).  Epsilons are exact
rationals (``1e-5`` is ``1/100000``).

>>> from symnorm.presets import torch, keras
>>> torch.batch_norm2d().eps, keras.batch_normalization().running.momentum
(1/100000, 99/100)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from ..spec import NormSpec

__all__ = ["FRAMEWORKS", "catalog"]

FRAMEWORKS = ("torch", "keras", "flax", "onnx", "hf")


def catalog() -> dict[str, Callable[..., NormSpec]]:
    """Every preset constructor by dotted name, e.g. ``'torch.batch_norm2d'``."""
    out: dict[str, Callable[..., NormSpec]] = {}
    for fw in FRAMEWORKS:
        mod = importlib.import_module(f"{__name__}.{fw}")
        for name in mod.__all__:
            out[f"{fw}.{name}"] = getattr(mod, name)
    return out
