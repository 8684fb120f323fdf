"""symnorm: derive and proof-check the mathematics of normalization layers."""

from __future__ import annotations

__version__ = "0.1.0"

from .errors import InternalError, LimitError, SourceError, SpecError, SymnormError
from .layer import Layer, layer_norm, rms_norm  # API objects; spec constructors: symnorm.spec
from .spec import NormSpec, RunningStats

__all__ = [
    "InternalError",
    "Layer",
    "LimitError",
    "NormSpec",
    "RunningStats",
    "SourceError",
    "SpecError",
    "SymnormError",
    "__version__",
    "layer_norm",
    "rms_norm",
]
