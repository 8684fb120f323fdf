"""Spec inference by probing: the acceptance table, near misses, and refusals."""

from __future__ import annotations

import numpy as np
import pytest
from audit_support import need_torch, torch_case
from hypothesis import given, settings
from hypothesis import strategies as st

from symnorm.audit import infer, spec_differences
from symnorm.audit.examples import NumpyNorm, numpy_cases

TORCH_NAMES = ["F.layer_norm", "nn.LayerNorm(bias=False)", "F.group_norm", "nn.GroupNorm",
               "F.batch_norm (training)", "F.batch_norm (eval)", "nn.BatchNorm2d (training)",
               "nn.BatchNorm2d (eval)", "nn.BatchNorm1d(momentum=None)", "F.instance_norm",
               "nn.InstanceNorm2d", "F.rms_norm (eps=None, float64)", "nn.RMSNorm(eps=1e-6)"]


@pytest.mark.parametrize("case", numpy_cases(), ids=lambda c: c.name)
def test_numpy_variants_inferred_exactly(case):
    r = infer(case.make(), case.layout, case.sizes)
    assert r.spec is not None, r.text()
    assert spec_differences(r.spec, case.truth()) == [], r.text()
    assert r.evidence["consistency"].value is True


@pytest.mark.parametrize("name", TORCH_NAMES)
def test_torch_layers_inferred_exactly(name):
    case = torch_case(name)
    r = infer(case.make(), case.layout, case.sizes)
    assert r.spec is not None, r.text()
    assert spec_differences(r.spec, case.truth()) == [], r.text()


def test_variants_are_told_apart_from_the_plain_layer():
    """Each deliberate difference shows up in exactly the field it changes."""
    want = {"numpy eps outside sqrt": {"eps_inside", "eps"},
            "numpy unbiased variance": {"var_denominator"},
            "numpy no centering": {"name", "center", "bias", "batch_axis"},
            "numpy wrong axis (T, not D)": {"reduce", "affine", "sizes"},
            "numpy one-pass variance": {"fast_variance", "eps"}}
    from symnorm.spec import layer_norm
    plain = layer_norm(layout="N T D", axes=1, sizes="N=3 T=2 D=5", eps="1e-5", affine=True)
    for case in numpy_cases():
        if case.name not in want:
            continue
        r = infer(case.make(), case.layout, case.sizes)
        got = set(spec_differences(r.spec, plain))
        assert want[case.name] - {"sizes", "batch_axis"} <= got, (case.name, got)


def test_eps_value_and_placement_measured():
    for eps in (1e-2, 3e-4, 1e-8, 2.0 ** -23):
        for inside in (True, False):
            r = infer(NumpyNorm((1,), eps=eps, eps_inside=inside), "N D", "N=2 D=6")
            assert r.evidence["eps_inside"].value is inside
            assert abs(float(r.evidence["eps"].value) / eps - 1) < 1e-6


def test_eps_zero_is_reported_with_its_bound():
    r = infer(NumpyNorm((1,), eps=0.0), "N D", "N=2 D=4")
    assert r.spec is not None and r.spec.eps == 0
    assert r.evidence["eps"].confidence == "bounded"


def test_keras_momentum_needs_the_exposed_parameter():
    """Without a momentum attribute the convention cannot be observed: no spec."""
    impl = NumpyNorm((0,), running=True, channel=1, channels=3, momentum=0.99,
                     convention="old", expose_momentum=False)
    r = infer(impl, "N C", "N=4 C=3")
    assert r.spec is None
    assert "running" in r.unknown()
    assert r.evidence["running"].measured["batch weight"] == pytest.approx(0.01)


def test_hidden_gain_is_not_accepted():
    """A fixed gain the probes cannot see makes the consistency check fail: no spec."""
    inner = NumpyNorm((1,), eps=1e-5)
    r = infer(lambda x: 2.0 * inner(x) + 0.5, "N D", "N=2 D=5")
    assert r.spec is None


@pytest.mark.parametrize("fn,why", [
    (lambda x: 2.0 * x, "only the perturbed output moved"),
    (lambda x: x - x.mean(), "reduce"),
    (lambda x: np.tanh(x), "only the perturbed output moved"),
])
def test_non_normalizations_give_no_spec(fn, why):
    r = infer(fn, "N D", "N=3 D=4")
    assert r.spec is None
    assert why in r.text()


def test_size_one_axis_cannot_be_told():
    r = infer(NumpyNorm((2,)), "N T D", "N=2 T=1 D=4")
    assert r.spec is None and "size 1" in r.text()


def test_eval_only_callable_is_refused():
    impl = NumpyNorm((0,), running=True, channel=1, channels=3)
    r = infer(lambda x: impl(x, training=False), "N C", "N=4 C=3",
              buffers={"running_mean": impl.running_mean, "running_var": impl.running_var})
    assert r.spec is None


def test_caller_state_is_restored():
    impl = NumpyNorm((0, 1, 2), weight_shape=(3,), weight_axes=(3,), running=True, channel=3,
                     channels=3, momentum=0.99, convention="old")
    impl.weight[...] = [1.5, 2.0, 0.5]
    impl.running_mean[...] = [0.1, 0.2, 0.3]
    before = (impl.weight.copy(), impl.running_mean.copy(), impl.running_var.copy())
    infer(impl, "N H W C", "N=2 H=2 W=2 C=3")
    after = (impl.weight, impl.running_mean, impl.running_var)
    assert all(np.array_equal(a, b) for a, b in zip(before, after))
    assert impl.momentum == 0.99


def test_torch_module_is_not_modified():
    torch = need_torch()
    m = torch.nn.BatchNorm2d(3)
    with torch.no_grad():
        m.weight.fill_(2.0)
    infer(m, "N C H W", "N=2 C=3 H=2 W=2")
    assert m.weight.dtype == torch.float32 and float(m.weight.detach()[0]) == 2.0
    assert float(m.running_mean.abs().max()) == 0.0 and int(m.num_batches_tracked) == 0


def test_spec_differences_eps_tolerance():
    from symnorm.spec import layer_norm
    a = layer_norm(3, "1e-5")
    assert spec_differences(a, layer_norm(3, "1.009e-5")) == []
    assert spec_differences(a, layer_norm(3, "1.02e-5")) == ["eps"]
    assert spec_differences(a, layer_norm(3, 0)) == ["eps"]


def test_implementation_errors_are_reported():
    from symnorm.audit import AuditError

    def broken(x):
        raise RuntimeError("boom")

    with pytest.raises(AuditError, match="broken raised RuntimeError.*boom"):
        infer(broken, "N D", "N=2 D=3")
    with pytest.raises(AuditError, match="returned shape"):
        infer(lambda x: x.sum(-1), "N D", "N=2 D=3")


def test_group_norm_with_one_group_is_named_by_its_affine():
    torch = need_torch()
    from symnorm.presets import torch as pt
    r = infer(torch.nn.GroupNorm(1, 4), "N C H W", "N=2 C=4 H=2 W=2")
    assert spec_differences(r.spec, pt.group_norm(1, sizes="N=2 C=4 H=2 W=2")) == []
    # the same reduction with the gain over every normalized axis is a LayerNorm
    r = infer(torch.nn.LayerNorm((4, 2, 2)), "N C H W", "N=2 C=4 H=2 W=2")
    assert r.spec.name == "layer_norm" and r.spec.affine == ("C", "H", "W")


@pytest.mark.parametrize("eps", [1e-30, 1e-12, 1e3])
@pytest.mark.parametrize("inside", [True, False])
def test_eps_range_measured(eps, inside):
    r = infer(NumpyNorm((1,), eps=eps, eps_inside=inside), "N D", "N=2 D=4")
    assert r.spec is not None and r.spec.eps_inside is inside
    assert abs(float(r.spec.eps) / eps - 1) < 1e-6


def test_eps_too_large_to_measure_gives_no_spec():
    r = infer(NumpyNorm((1,), eps=1e5), "N D", "N=2 D=4")
    assert r.spec is None and "var_denominator" in r.unknown()


def test_fixed_training_mode_marks_the_eval_path_unobserved():
    torch = need_torch()
    r = infer(torch.nn.BatchNorm2d(3), "N C H W", "N=2 C=3 H=2 W=2", train=True)
    assert r.evidence["running"].confidence == "partial"
    assert "eval mode not observed" in r.evidence["running"].note
    r = infer(torch.nn.BatchNorm2d(3), "N C H W", "N=2 C=3 H=2 W=2", train=False)
    assert r.spec is None and "eval mode only" in r.text()


@settings(max_examples=25, deadline=None)
@given(sizes=st.tuples(*[st.integers(2, 4)] * 3),
       axes=st.sampled_from([(0,), (1,), (2,), (1, 2), (0, 2), (0, 1, 2)]),
       center=st.booleans(), unbiased=st.booleans(), inside=st.booleans(),
       one_pass=st.booleans(), eps_exp=st.integers(-9, -1), eps_digit=st.integers(1, 9))
def test_behavioural_fields_recovered_for_random_layers(sizes, axes, center, unbiased, inside,
                                                        one_pass, eps_exp, eps_digit):
    """Whatever a numpy layer's conventions, the fields that describe its behaviour are
    recovered exactly (the truth is the generator's parameters, not the code under test)."""
    eps = eps_digit * 10.0 ** eps_exp
    impl = NumpyNorm(axes, center=center, unbiased=unbiased and center, eps=eps,
                     eps_inside=inside, one_pass=one_pass and center)
    lay = ("N", "C", "L")
    r = infer(impl, "N C L", " ".join(f"{a}={n}" for a, n in zip(lay, sizes)))
    assert r.spec is not None, r.text()
    assert set(r.spec.reduce) | ({r.spec.channel_axis} if r.spec.groups else set()) == \
        {lay[i] for i in axes}
    assert r.spec.center is center
    assert r.spec.var_denominator == ("N-1" if unbiased and center else "N")
    assert r.spec.eps_inside is inside
    assert abs(float(r.spec.eps) / eps - 1) < 1e-6
    assert r.spec.fast_variance is (one_pass and center)


def test_float32_implementation_gets_no_spec():
    ln = NumpyNorm((1,), eps=1e-5)
    r = infer(lambda x: ln(x.astype(np.float32)).astype(np.float32), "N D", "N=2 D=6")
    assert r.spec is None
    assert r.evidence["fast_variance"].note == "centering unknown"


def test_keyword_partial_of_a_torch_functional_is_adapted():
    torch = need_torch()
    import functools

    import torch.nn.functional as F
    fn = functools.partial(F.layer_norm, normalized_shape=(5,), weight=torch.ones(5),
                           bias=torch.zeros(5), eps=1e-3)
    r = infer(fn, "N T D", "N=2 T=2 D=5")
    from fractions import Fraction
    assert r.spec is not None and r.spec.affine == ("D",) and r.spec.eps == Fraction(1, 1000)
