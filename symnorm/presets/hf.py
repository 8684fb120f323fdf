"""Hugging Face transformers' RMSNorm variants as specs (last axis, eps 1e-6).

They differ in the gain (Gemma stores w with effective gain ``1 + w``, initialized to 0)
and in where low-precision casts happen, which an exact spec does not model.

>>> gemma_rms_norm().gain_offset, llama_rms_norm().gain_offset
(1, 0)
"""

from __future__ import annotations

from typing import Any

from .. import spec as S
from ..spec import NormSpec

__all__ = ["gemma_rms_norm", "llama_rms_norm", "t5_layer_norm"]

EPS = "1e-6"


def t5_layer_norm(sizes: Any = None, *, eps: Any = EPS, layout: str = "N T D") -> NormSpec:
    """``T5LayerNorm``: despite the name an RMSNorm, ``x * rsqrt(mean(x**2) + eps) * w``.

    Source: HF-T5 (framework-conventions.md): w initialized to 1, no bias, no centering.
    """
    return S.rms_norm(layout=layout, axes=1, sizes=sizes, eps=eps, affine=True, source="HF-T5")


def llama_rms_norm(sizes: Any = None, *, eps: Any = EPS, layout: str = "N T D") -> NormSpec:
    """``LlamaRMSNorm``: ``w * (x * rsqrt(mean(x**2) + eps))``, eps 1e-6 (configs override).

    Source: HF-L (framework-conventions.md).
    """
    return S.rms_norm(layout=layout, axes=1, sizes=sizes, eps=eps, affine=True, source="HF-L")


def gemma_rms_norm(sizes: Any = None, *, eps: Any = EPS, layout: str = "N T D") -> NormSpec:
    """``GemmaRMSNorm``: ``x * rsqrt(mean(x**2) + eps) * (1 + w)`` with w initialized to 0.

    Source: HF-G (framework-conventions.md).
    """
    return S.rms_norm(layout=layout, axes=1, sizes=sizes, eps=eps, gain_offset=1,
                      source="HF-G")
