"""Helpers shared by the audit tests: PyTorch or a skip (a failure under CI=true)."""

from __future__ import annotations

import os

import pytest


def need_torch():
    """PyTorch, or a skip; under CI=true a missing torch fails, as the browser test does."""
    try:
        import torch
    except ImportError:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("torch is required under CI=true (pip install torch==2.13.0)")
        pytest.skip("torch not installed (pip install 'symnorm[torch]')")
    return torch


def torch_case(name: str):
    """The acceptance-table row ``name`` (needs torch)."""
    need_torch()
    from symnorm.audit.examples import torch_cases
    return {c.name: c for c in torch_cases()}[name]
