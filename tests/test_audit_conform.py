"""Conformance against specs: right implementations agree, each wrong one is caught."""

from __future__ import annotations

import numpy as np
import pytest
from audit_support import need_torch, torch_case

from symnorm.audit.conform import FAMILIES, conforms
from symnorm.audit.examples import NumpyNorm, numpy_cases
from symnorm.errors import SymnormError
from symnorm.spec import layer_norm

SPEC = layer_norm(layout="N T D", axes=1, sizes="N=3 T=2 D=5", eps="1e-5", affine=True)


def _ln(**kw):
    return NumpyNorm((2,), weight_shape=(5,), weight_axes=(2,), **kw)


def test_every_family_runs_and_agrees():
    res = conforms(_ln(), SPEC)
    assert res.agree, res.text()
    assert [r.family for r in res.rows] == list(FAMILIES)
    # float64 rounding only: the large mean (2**20, spread 1) costs the most
    assert all(r.scaled_error < 1e-9 for r in res.rows)
    assert all(r.mode == "train" for r in res.rows)  # it takes training=; no running stats


@pytest.mark.parametrize("kw,bad", [
    ({"eps": 1e-6}, {"tiny variance"}),
    ({"eps": 1e-5, "eps_inside": False}, {"tiny variance"}),
    ({"unbiased": True}, {"random", "batch of 2"}),
    ({"center": False}, {"large mean", "random"}),
    ({"one_pass": True}, {"large mean"}),
])
def test_each_deviation_is_caught_in_its_family(kw, bad):
    res = conforms(_ln(**kw), SPEC)
    assert not res.agree
    assert bad <= set(res.disagreeing()), res.text()


def test_wrong_axis_is_caught():
    res = conforms(NumpyNorm((1,), weight_shape=(5,), weight_axes=(2,)), SPEC)
    assert not res.agree and "random" in res.disagreeing()


def test_affine_parameters_are_randomized_and_compared():
    """A layer that ignores its weight passes with identity weights but not in the audit."""
    impl = _ln()

    def no_affine(x):
        return NumpyNorm((2,))(x)
    no_affine.weight = impl.weight
    no_affine.bias = impl.bias
    assert not conforms(no_affine, SPEC).agree
    assert conforms(no_affine, SPEC, random_params=False).agree
    assert np.all(impl.weight == 1) and np.all(impl.bias == 0)  # restored


def test_running_statistics_step_and_eval_compared():
    case = {c.name: c for c in numpy_cases()}["numpy Keras-style momentum"]
    assert conforms(case.make(), case.truth()).agree
    # the same layer with PyTorch's momentum convention disagrees in the buffers and eval
    wrong = NumpyNorm((0, 1, 2), eps=1e-3, weight_shape=(3,), weight_axes=(3,), running=True,
                      channel=3, channels=3, momentum=0.99, convention="new",
                      running_unbiased=False)
    res = conforms(wrong, case.truth())
    assert not res.agree
    whats = {(r.what, r.mode) for r in res.rows if r.agree is False}
    assert ("running_mean", "train") in whats and ("output", "eval") in whats
    assert ("output", "train") not in whats


def test_batch_of_one_is_skipped_when_illegal():
    from symnorm.spec import batch_norm
    spec = batch_norm("N C", "1e-5", sizes="N=4 C=3")
    impl = NumpyNorm((0,), running=True, channel=1, channels=3, running_unbiased=True)
    res = conforms(impl, spec)
    row = [r for r in res.rows if r.family == "batch of 1"]
    assert row[0].agree is None and "not legal" in row[0].note
    assert res.agree, res.text()


def test_unknown_family_and_bad_tolerance_refused():
    with pytest.raises(SymnormError, match="unknown input family 'huge'"):
        conforms(_ln(), SPEC, families=("huge",))
    for tol in (0, -1e-7, float("nan"), float("inf")):
        with pytest.raises(SymnormError, match="tol must be a positive number"):
            conforms(_ln(), SPEC, tol=tol)


def test_family_names_with_hyphens():
    res = conforms(_ln(), SPEC, families=("large-mean", "batch_of_2", "Near-Constant"))
    assert [r.family for r in res.rows] == ["large mean", "batch of 2", "near-constant"]


def test_mpmath_precision_is_left_alone():
    import mpmath
    conforms(_ln(), SPEC, dps=40)
    assert mpmath.mp.dps == 15


@pytest.mark.parametrize("name", ["F.layer_norm", "nn.GroupNorm", "nn.BatchNorm2d (training)",
                                  "nn.BatchNorm2d (eval)", "F.instance_norm",
                                  "nn.RMSNorm(eps=1e-6)", "nn.BatchNorm1d(momentum=None)"])
def test_torch_layers_conform_to_their_presets(name):
    case = torch_case(name)
    res = conforms(case.make(), case.truth())
    assert res.agree, res.text()


def test_torch_batchnorm_refutes_keras_conventions():
    torch = need_torch()
    from symnorm.presets import keras
    from symnorm.presets import torch as pt
    truth = pt.batch_norm2d(sizes="N=2 C=3 H=2 W=2")
    wrong = truth.with_(running=keras.batch_normalization().running)
    res = conforms(torch.nn.BatchNorm2d(3), wrong)
    assert not res.agree
    assert all(r.agree for r in res.rows if r.what == "output" and r.mode == "train")


def test_one_pass_spec_expects_its_cancellation_but_nothing_else():
    spec = SPEC.with_(fast_variance=True)
    res = conforms(_ln(one_pass=True), spec)
    assert res.agree, res.text()
    row = next(r for r in res.rows if r.family == "large mean")
    assert row.agree is False and row.expected and "expected" in res.text()
    # the expectation covers only the large mean: a wrong eps still fails
    assert not conforms(_ln(one_pass=True, eps=1e-6), spec).agree


def test_eval_only_mode_uses_the_initial_buffers():
    case = {c.name: c for c in numpy_cases()}["numpy Keras-style momentum"]
    impl = case.make()
    impl.running_mean[...] = 5.0  # whatever the caller left there
    res = conforms(impl, case.truth(), train=False)
    assert res.agree, res.text()
    assert {r.mode for r in res.rows if r.agree is not None} == {"eval"}
    assert np.all(impl.running_mean == 5.0)


def test_hostile_names_are_escaped_in_reports(tmp_path):
    import json

    from symnorm.audit.report import conform_section, write_audit_report
    impl = _ln()
    impl.__qualname__ = "<script>alert(1)</script>|*x*"
    files = write_audit_report([conform_section(conforms(impl, SPEC))], tmp_path / "r")
    page = files["audit.html"].read_text()
    assert "<script>" not in page and "&lt;script&gt;" in page
    md = files["audit.md"].read_text()
    assert "<script>" not in md and "\\|\\*x\\*" in md
    assert json.loads(files["audit.json"].read_text())["sections"][0]["data"]["target"] \
        == impl.__qualname__


def test_float64_audit_sees_rmsnorm_default_eps_of_its_dtype():
    """nn.RMSNorm(eps=None) in float64 uses 2**-52, not the float32 eps of the preset: the
    audit (float64) sees the difference where eps matters, and only there."""
    torch = need_torch()
    from fractions import Fraction

    from symnorm.presets import torch as pt
    res = conforms(torch.nn.RMSNorm(5), pt.rms_norm(sizes="N=2 T=2 D=5"))
    assert res.disagreeing() == ["tiny variance"]
    assert conforms(torch.nn.RMSNorm(5),
                    pt.rms_norm(sizes="N=2 T=2 D=5", eps=Fraction(1, 2 ** 52))).agree


def test_public_api():
    import symnorm.audit as A
    assert A.conforms is conforms and callable(A.infer)
    assert {"conforms", "infer", "functional", "torch_module", "as_target"} <= set(A.__all__)
