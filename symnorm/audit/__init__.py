"""Audits of real implementations against the mathematics: conformance, inference, precision.

``conforms(fn, spec)`` compares an implementation with a spec on generated input families;
``infer(fn, layout, sizes)`` recovers the spec from the implementation's behaviour.
"""

from __future__ import annotations

from .adapters import AuditError, Target, as_target, functional, torch_module
from .conform import ConformResult, conforms
from .infer import InferResult, infer, spec_differences

__all__ = ["AuditError", "ConformResult", "InferResult", "Target", "as_target", "conforms",
           "functional", "infer", "spec_differences", "torch_module"]
