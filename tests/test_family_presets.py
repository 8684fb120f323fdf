"""Framework presets: defaults from the conventions file, sources cited, torch cross-check."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import numpy as np
import pytest
from sympy import Rational as R

from symnorm.family.apply import forward
from symnorm.presets import catalog, flax, hf, keras, onnx, torch
from symnorm.spec import NormSpec

#: Source keys of shared/reference/framework-conventions.md.
KEYS = {"PT-BN", "PT-NC", "PT-IN", "PT-LN", "PT-GN", "PT-RMS", "PT-AMP", "K-BN", "K-LN", "K-GN",
        "K-RMS", "K-MO", "FX", "OX-D", "OX-T", "OX-LN", "OX-GN", "OX-RMS", "HF-T5", "HF-L",
        "HF-G"}
CONVENTIONS = Path(__file__).resolve().parents[2] / "shared/reference/framework-conventions.md"


def build(name: str) -> NormSpec:
    f = catalog()[name]
    return f(4) if "group" in name else f()


def test_catalog_lists_every_framework() -> None:
    names = set(catalog())
    assert {"torch.batch_norm2d", "keras.batch_normalization", "flax.rms_norm",
            "onnx.group_normalization", "hf.gemma_rms_norm"} <= names
    assert len(names) == 23


@pytest.mark.parametrize("name", sorted(catalog()))
def test_every_preset_cites_a_known_source(name: str) -> None:
    doc = inspect.getdoc(catalog()[name]) or ""
    cited = set(re.findall(r"\b(?:PT|K|FX|OX|HF)(?:-[A-Z0-9]+)?\b", doc)) & KEYS
    assert cited, f"{name} cites no source key"
    spec = build(name)
    assert {k.strip() for k in spec.source.split(",")} <= cited


def test_source_keys_exist_in_conventions_file() -> None:
    if not CONVENTIONS.exists():
        pytest.skip("conventions file not available")
    text = CONVENTIONS.read_text(encoding="utf-8")
    for key in KEYS:
        assert f"**{key}**" in text, key


# name: (eps, momentum, convention, running var denominator) as the conventions table says
BN = {
    "torch.batch_norm2d": (R(1, 10**5), R(1, 10), "new", "N-1"),
    "torch.batch_norm1d": (R(1, 10**5), R(1, 10), "new", "N-1"),
    "keras.batch_normalization": (R(1, 1000), R(99, 100), "old", "N"),
    "flax.batch_norm": (R(1, 10**5), R(99, 100), "old", "N"),
    "onnx.batch_normalization": (R(1, 10**5), R(9, 10), "old", "N"),
}


@pytest.mark.parametrize("name", sorted(BN))
def test_batch_norm_presets(name: str) -> None:
    spec = build(name)
    eps, m, conv, den = BN[name]
    assert spec.eps == eps and spec.eps_inside and spec.var_denominator == "N"
    assert spec.running is not None
    assert (spec.running.momentum, spec.running.convention, spec.running.var_denominator) == (
        m, conv, den)
    assert spec.couples_samples and spec.affine == ("C",)


EPS = {
    "torch.layer_norm": R(1, 10**5), "torch.group_norm": R(1, 10**5),
    "torch.instance_norm2d": R(1, 10**5), "torch.rms_norm": R(1, 2**23),
    "keras.layer_normalization": R(1, 1000), "keras.group_normalization": R(1, 1000),
    "keras.rms_normalization": R(1, 10**6), "flax.layer_norm": R(1, 10**6),
    "flax.group_norm": R(1, 10**6), "flax.instance_norm": R(1, 10**6),
    "flax.rms_norm": R(1, 10**6), "onnx.layer_normalization": R(1, 10**5),
    "onnx.group_normalization": R(1, 10**5), "onnx.instance_normalization": R(1, 10**5),
    "onnx.rms_normalization": R(1, 10**5), "hf.t5_layer_norm": R(1, 10**6),
    "hf.llama_rms_norm": R(1, 10**6), "hf.gemma_rms_norm": R(1, 10**6),
}


@pytest.mark.parametrize("name", sorted(EPS))
def test_per_sample_presets(name: str) -> None:
    spec = build(name)
    assert spec.eps == EPS[name]
    assert spec.running is None and not spec.couples_samples
    assert spec.center == ("rms" not in name and "t5" not in name)


def test_channel_axis_and_affine_details() -> None:
    assert torch.group_norm(4).layout[1] == "C" and keras.group_normalization().layout[-1] == "C"
    assert keras.group_normalization().groups == 32 and flax.group_norm().groups == 32
    assert torch.instance_norm2d().affine == () and flax.instance_norm().affine == ("C",)
    assert hf.gemma_rms_norm().gain_offset == 1 and hf.llama_rms_norm().gain_offset == 0
    assert not hf.t5_layer_norm().bias and torch.rms_norm().affine == ("D",)
    assert torch.layer_norm(axes=2, layout="N T D").reduce == ("T", "D")
    assert onnx.group_normalization(2).affine == ("C",)


# --- optional cross-check against PyTorch --------------------------------------------

def _torch():  # type: ignore[no-untyped-def]
    return pytest.importorskip("torch")


def test_torch_batch_norm2d_train_eval_and_running_stats() -> None:
    th = _torch()
    rng = np.random.default_rng(3)
    x = rng.normal(size=(3, 2, 2, 3)).round(3)
    layer = th.nn.BatchNorm2d(2).double()
    spec = torch.batch_norm2d()
    y_t = layer(th.tensor(x)).detach().numpy()
    out = forward(spec, x, backend="numpy")
    assert np.max(np.abs(out.y - y_t)) < 1e-12
    assert np.max(np.abs(out.state.mean - layer.running_mean.numpy())) < 1e-14
    assert np.max(np.abs(out.state.var - layer.running_var.numpy())) < 1e-14
    layer.eval()
    y_e = layer(th.tensor(x)).detach().numpy()
    assert np.max(np.abs(forward(spec, x, train=False, state=out.state, backend="numpy").y
                         - y_e)) < 1e-12


@pytest.mark.parametrize("kind", ["layer", "group", "instance", "rms"])
def test_torch_per_sample_layers(kind: str) -> None:
    th = _torch()
    rng = np.random.default_rng(5)
    x = rng.normal(size=(2, 4, 2, 3))
    if kind == "layer":
        layer, spec = th.nn.LayerNorm([4, 2, 3]), torch.layer_norm(layout="N C H W", axes=3)
    elif kind == "group":
        layer, spec = th.nn.GroupNorm(2, 4), torch.group_norm(2)
    elif kind == "instance":
        layer, spec = th.nn.InstanceNorm2d(4), torch.instance_norm2d()
    else:
        layer = th.nn.RMSNorm([2, 3], eps=2.0**-23)
        spec = torch.rms_norm(layout="N C H W", axes=2)
    y_t = layer.double()(th.tensor(x)).detach().numpy()
    assert np.max(np.abs(forward(spec, x, backend="numpy").y - y_t)) < 1e-12


def test_torch_cumulative_running_average() -> None:
    th = _torch()
    rng = np.random.default_rng(11)
    layer = th.nn.BatchNorm1d(2, momentum=None).double()
    spec = torch.batch_norm1d(momentum=None)
    st = None
    for _ in range(3):
        x = rng.normal(size=(4, 2))
        layer(th.tensor(x))
        st = forward(spec, x, state=st, backend="numpy").state
    assert np.max(np.abs(st.mean - layer.running_mean.numpy())) < 1e-14
    assert np.max(np.abs(st.var - layer.running_var.numpy())) < 1e-14


# --- every preset on a hand-computable tensor -------------------------------------------
# Each normalization group holds exactly the two numbers 3 and -3 (mean 0, variance and
# mean square 9), so every preset must return x / sqrt(9 + eps) with its own eps.
A = 3
PAIR_INPUTS = {
    "torch.batch_norm1d": ({"sizes": "N=2 C=1"}, [[A], [-A]]),
    "torch.batch_norm2d": ({}, [[[[A]]], [[[-A]]]]),
    "torch.instance_norm2d": ({}, [[[[A, -A]]]]),
    "torch.layer_norm": ({}, [[[A, -A]]]),
    "torch.group_norm": ({"num_groups": 1}, [[[[A]], [[-A]]]]),
    "torch.rms_norm": ({}, [[[A, -A]]]),
    "keras.batch_normalization": ({}, [[[[A]]], [[[-A]]]]),
    "keras.layer_normalization": ({}, [[[A, -A]]]),
    "keras.group_normalization": ({"groups": 1}, [[[[A, -A]]]]),
    "keras.rms_normalization": ({}, [[[A, -A]]]),
    "flax.batch_norm": ({}, [[[[A]]], [[[-A]]]]),
    "flax.layer_norm": ({}, [[[A, -A]]]),
    "flax.group_norm": ({"num_groups": 1}, [[[[A, -A]]]]),
    "flax.instance_norm": ({}, [[[[A], [-A]]]]),
    "flax.rms_norm": ({}, [[[A, -A]]]),
    "onnx.batch_normalization": ({}, [[[[A]]], [[[-A]]]]),
    "onnx.instance_normalization": ({}, [[[[A, -A]]]]),
    "onnx.layer_normalization": ({}, [[[A, -A]]]),
    "onnx.group_normalization": ({"num_groups": 1}, [[[[A]], [[-A]]]]),
    "onnx.rms_normalization": ({}, [[[A, -A]]]),
    "hf.t5_layer_norm": ({}, [[[A, -A]]]),
    "hf.llama_rms_norm": ({}, [[[A, -A]]]),
    "hf.gemma_rms_norm": ({}, [[[A, -A]]]),
}
EPS_OF = {**EPS, **{k: v[0] for k, v in BN.items()}}
# running variance after one training step from (0, 1): the batch {3, -3} has biased
# variance 9 and unbiased variance 18
RUN_VAR = {"torch.batch_norm1d": R(9, 10) + R(18, 10), "torch.batch_norm2d": R(27, 10),
           "keras.batch_normalization": R(99, 100) + R(9, 100), "flax.batch_norm": R(108, 100),
           "onnx.batch_normalization": R(9, 10) + R(9, 10)}


def test_pair_inputs_cover_every_preset() -> None:
    assert set(PAIR_INPUTS) == set(catalog())


@pytest.mark.parametrize("name", sorted(PAIR_INPUTS))
def test_every_preset_on_a_hand_tensor(name: str) -> None:
    from sympy import sqrt
    kwargs, x = PAIR_INPUTS[name]
    spec = catalog()[name](**kwargs)
    out = forward(spec, x)
    want = np.array(x, dtype=object) / sqrt(9 + EPS_OF[name])
    assert out.y.tolist() == want.tolist()
    if spec.running is not None:
        assert out.state.mean.ravel().tolist() == [0]
        assert out.state.var.ravel().tolist() == [RUN_VAR[name]]
    # inference mode: running statistics for BatchNorm, the same map otherwise
    ev = forward(spec, x, train=False, state=out.state).y
    if spec.running is None:
        assert ev.tolist() == out.y.tolist()
    else:
        assert ev.tolist() == (np.array(x, dtype=object)
                               / sqrt(RUN_VAR[name] + EPS_OF[name])).tolist()
