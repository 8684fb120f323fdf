"""The forward map of every spec against hand-computed small tensors.

Every expected number below was worked out by hand (means, sums of squares, square roots)
and is written in the comments; none comes from the code under test.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
from sympy import Rational as R
from sympy import sqrt

from symnorm.errors import LimitError, SpecError
from symnorm.family.apply import (
    RunningState,
    affine_of_inference,
    fold_linear,
    forward,
    initial_state,
)
from symnorm.presets import flax, keras, torch
from symnorm.spec import batch_norm, group_norm, instance_norm, layer_norm, rms_norm


@pytest.fixture(autouse=True)
def _mp_precision():  # type: ignore[no-untyped-def]
    dps = mpmath.mp.dps
    yield
    assert mpmath.mp.dps == dps, "precision leaked"
    mpmath.mp.dps = dps


def vec(spec, x, **kw):  # type: ignore[no-untyped-def]
    return forward(spec, x, **kw).y.tolist()


# --- one group: axes, denominator, eps placement, affine ---------------------------------

def test_layer_norm_population_vs_unbiased_denominator() -> None:
    # x = 1,2,3,4: mean 5/2, squared deviations 9/4,1/4,1/4,9/4 sum to 5
    x = [1, 2, 3, 4]
    # var = 5/4: y1 = (-3/2)/sqrt(5/4) = -3/sqrt(5)
    assert vec(layer_norm(4), x)[0] == -3 / sqrt(5)
    # var = 5/3: y1 = (-3/2)*sqrt(3/5) = -3*sqrt(15)/10
    assert vec(layer_norm(4, var_denominator="N-1"), x)[0] == -3 * sqrt(15) / 10
    assert vec(layer_norm(4), x)[0] != vec(layer_norm(4, var_denominator="N-1"), x)[0]


def test_eps_inside_vs_outside() -> None:
    # x = 0, 2: mean 1, var 1, eps 1: inside -1/sqrt(2), outside -1/(1 + 1)
    assert vec(layer_norm(2, 1), [0, 2]) == [-sqrt(2) / 2, sqrt(2) / 2]
    assert vec(layer_norm(2, 1, eps_inside=False), [0, 2]) == [R(-1, 2), R(1, 2)]


def test_paper_pair_and_sign_flip() -> None:
    # BN(0; {0, 2}) at eps = 1/100: -1/sqrt(1 + 1/100) = -10/sqrt(101)
    spec = batch_norm("N C", "1/100", sizes="N=2 C=1")
    y = vec(spec, [[0], [2]])[0][0]
    assert y == -10 / sqrt(101)
    assert abs(float(y) - -0.9950371902099893) < 1e-15
    assert vec(spec, [[0], [-2]])[0][0] == 10 / sqrt(101)  # the other sample flips it


def test_batch_of_two_without_eps_is_plus_minus_one() -> None:
    spec = batch_norm("N C", sizes="N=2 C=1")
    for b in (R(1, 7), 3, -5, R(10**6)):
        assert vec(spec, [[0], [b]]) == ([[-1], [1]] if b > 0 else [[1], [-1]])


def test_affine_gain_bias_shape() -> None:
    spec = layer_norm(layout="N D", sizes="D=2", affine=True)
    # normalized [-1, 1], gain (2, 3), bias (1, -1): [-2 + 1, 3 - 1]
    assert vec(spec, [[0, 2]], gain=[2, 3], bias=[1, -1]) == [[-1, 2]]
    with pytest.raises(SpecError, match=r"gain must have shape \(2,\)"):
        forward(spec, [[0, 2]], gain=[2, 3, 4])
    with pytest.raises(SpecError, match="no affine"):
        forward(layer_norm(2), [0, 2], gain=[1, 1])


def test_gemma_one_plus_w_gain() -> None:
    # x = 3, 4: mean square 25/2, r = 5/sqrt(2); w = (0, 1) -> gain (1, 2)
    spec = rms_norm(layout="N D", sizes="D=2", gain_offset=1)
    assert vec(spec, [[3, 4]], gain=[0, 1]) == [[3 * sqrt(2) / 5, 8 * sqrt(2) / 5]]
    assert vec(spec, [[3, 4]]) == [[3 * sqrt(2) / 5, 4 * sqrt(2) / 5]]  # w = 0 is identity
    with pytest.raises(SpecError, match="no bias"):
        forward(spec, [[3, 4]], bias=[0, 0])


def test_rms_norm_is_not_shift_invariant_but_layer_norm_is() -> None:
    # RMS(1, 3) = (1, 3)/sqrt(5); RMS(0, 2) = (0, 2)/sqrt(2)
    assert vec(rms_norm(2), [1, 3]) == [1 / sqrt(5), 3 / sqrt(5)]
    assert vec(rms_norm(2), [0, 2]) == [0, sqrt(2)]
    assert vec(layer_norm(2), [1, 3]) == vec(layer_norm(2), [0, 2]) == [-1, 1]


def test_batch_norm_2d_reduces_n_h_w() -> None:
    # channel 0 holds 1,3 (sample 0) and 5,7 (sample 1): mean 4, deviations -3,-1,1,3,
    # sum of squares 20, var 5; channel 1 holds 0,0,2,2: mean 1, var 1
    x = [[[[1, 3]], [[0, 0]]], [[[5, 7]], [[2, 2]]]]
    y = np.array(vec(batch_norm("N C H W"), x), dtype=object)
    assert y[:, 0, 0, :].tolist() == [[-3 / sqrt(5), -1 / sqrt(5)], [1 / sqrt(5), 3 / sqrt(5)]]
    assert y[:, 1, 0, :].tolist() == [[-1, -1], [1, 1]]


def test_instance_norm_reduces_h_w_only() -> None:
    # (n=0, c=0): 1, 3 -> -1, 1 ; (n=0, c=1): 0, 4 -> -1, 1; (n=1, c=0): 5, 9 -> -1, 1
    x = [[[[1, 3]], [[0, 4]]], [[[5, 9]], [[2, 6]]]]
    y = vec(instance_norm(), x)
    assert y == [[[[-1, 1]], [[-1, 1]]], [[[-1, 1]], [[-1, 1]]]]


def test_group_norm_groups_contiguous_channels() -> None:
    # C=4, G=2, H=1, W=1: one sample 1, 3, 10, 30 -> groups {1, 3} and {10, 30}
    x = [[[[1]], [[3]], [[10]], [[30]]]]
    y = np.array(vec(group_norm(2), x), dtype=object).ravel().tolist()
    assert y == [-1, 1, -1, 1]
    # G=1: one group 1,3,10,30 (mean 11, deviations -10,-8,-1,19, squares sum 526,
    # var 263/2): y1 = -10/sqrt(263/2)
    y1 = np.array(vec(group_norm(1), x), dtype=object).ravel().tolist()
    assert y1[0] == -10 / sqrt(R(263, 2))


def test_group_norm_channels_last_groups_the_last_axis() -> None:
    spec = group_norm(2, "N H W C")
    x = [[[[1, 3, 10, 30]]]]
    assert np.array(vec(spec, x), dtype=object).ravel().tolist() == [-1, 1, -1, 1]


TENSOR = [[[[1, 2], [0, 5]], [[3, -1], [4, 4]], [[0, 7], [2, 2]], [[1, 1], [6, -2]]],
          [[[2, 2], [1, 9]], [[0, 0], [3, 1]], [[5, 1], [1, 1]], [[-3, 4], [0, 8]]]]


def test_group_norm_extremes_equal_instance_and_layer_norm() -> None:
    eps = R(1, 10)
    gc = forward(group_norm(4, eps=eps), TENSOR).y
    inn = forward(instance_norm(eps=eps), TENSOR).y
    g1 = forward(group_norm(1, eps=eps), TENSOR).y
    ln = forward(layer_norm(layout="N C H W", axes="C H W", eps=eps), TENSOR).y
    assert gc.tolist() == inn.tolist()
    assert g1.tolist() == ln.tolist()
    assert gc.tolist() != g1.tolist()


def test_layer_norm_over_last_axis_is_not_group_norm_one() -> None:
    ln_w = forward(layer_norm(layout="N C H W", axes="W", eps="1/10"), TENSOR).y
    g1 = forward(group_norm(1, eps="1/10"), TENSOR).y
    # row (0, 0, 0, :) = 1, 2 over W alone: mean 3/2, var 1/4, (-1/2)/sqrt(1/4 + 1/10)
    half = R(1, 2) / sqrt(R(7, 20))
    assert ln_w[0, 0, 0].tolist() == [-half, half]
    assert g1[0, 0, 0].tolist() != [-half, half]


# --- batch coupling ------------------------------------------------------------------

def sample0(spec, batch):  # type: ignore[no-untyped-def]
    return forward(spec, batch).y[0].tolist()


def test_batch_norm_depends_on_batch_size_and_composition() -> None:
    spec = batch_norm("N C")
    # {0, 2}: sample 0 -> -1; {0, 2, 4}: mean 2, var 8/3, -2/sqrt(8/3) = -sqrt(3/2)
    assert sample0(spec, [[0], [2]]) == [-1]
    assert sample0(spec, [[0], [2], [4]]) == [-sqrt(R(3, 2))]
    # split 0,1,5,2,3,9 into {0,1,5} (mean 2, var 14/3) or {0,2,3} (mean 5/3, var 14/9)
    assert sample0(spec, [[0], [1], [5]]) == [-2 / sqrt(R(14, 3))]
    assert sample0(spec, [[0], [2], [3]]) == [-5 / sqrt(14)]


def test_batch_norm_is_permutation_equivariant_within_a_batch() -> None:
    spec = batch_norm("N C")
    a = forward(spec, [[0], [1], [5]]).y.ravel().tolist()
    b = forward(spec, [[5], [0], [1]]).y.ravel().tolist()
    assert b == [a[2], a[0], a[1]]


@pytest.mark.parametrize("spec", [
    layer_norm(layout="N C H W", axes="C H W", eps="1/10"), instance_norm(eps="1/10"),
    group_norm(2, eps="1/10"), rms_norm(layout="N C H W", axes="C H W", eps="1/10"),
])
def test_per_sample_layers_ignore_the_batch(spec) -> None:  # type: ignore[no-untyped-def]
    alone = forward(spec, TENSOR[:1]).y[0].tolist()
    both = forward(spec, TENSOR).y
    swapped = forward(spec, TENSOR[::-1]).y
    assert both[0].tolist() == alone == swapped[1].tolist()
    # train and eval are the same map for layers without running statistics
    assert forward(spec, TENSOR, train=False).y.tolist() == both.tolist()


# --- train vs eval, running statistics --------------------------------------------------

def test_pytorch_train_step_and_eval() -> None:
    spec = torch.batch_norm1d(sizes="C=1", eps=0)
    out = forward(spec, [[0], [2]])
    assert out.y.tolist() == [[-1], [1]]
    # mean 1, unbiased var 2: r_mean = 0.9*0 + 0.1*1, r_var = 0.9*1 + 0.1*2
    assert out.state.mean.tolist() == [R(1, 10)]
    assert out.state.var.tolist() == [R(11, 10)]
    assert out.state.steps == 1
    # eval from the fresh state (0, 1) is the identity; from the updated state it is not
    assert vec(spec, [[0], [2]], train=False) == [[0], [2]]
    ev = vec(spec, [[0], [2]], train=False, state=out.state)
    assert ev == [[(0 - R(1, 10)) / sqrt(R(11, 10))], [(2 - R(1, 10)) / sqrt(R(11, 10))]]
    used = forward(spec, [[0], [2]], train=False, state=out.state)
    assert used.mean.tolist() == [R(1, 10)] and used.var.tolist() == [R(11, 10)]
    assert out.mean.tolist() == [1] and out.var.tolist() == [1]  # batch mean 1, var 1
    # eval is per-sample: sample 0 alone gives the same
    assert vec(spec, [[0]], train=False, state=out.state)[0] == ev[0]


def test_keras_train_step() -> None:
    spec = keras.batch_normalization(sizes="N=2 C=1", layout="N C", epsilon=0)
    st = forward(spec, [[0], [2]]).state
    # mean 1, biased var 1: r_mean = 0.99*0 + 0.01*1, r_var = 0.99*1 + 0.01*1
    assert st.mean.tolist() == [R(1, 100)] and st.var.tolist() == [1]


def test_torch_momentum_point_one_equals_keras_point_nine() -> None:
    pt = batch_norm("N C", momentum="0.1", convention="new", running_var_denominator="N")
    ks = batch_norm("N C", momentum="0.9", convention="old", running_var_denominator="N")
    x = [[1, 0], [4, 2], [R(1, 3), 7]]
    s0 = RunningState(np.array([R(1, 2), 3], dtype=object), np.array([2, R(1, 5)], dtype=object))
    a, b = forward(pt, x, state=s0).state, forward(ks, x, state=s0).state
    assert a.mean.tolist() == b.mean.tolist() and a.var.tolist() == b.var.tolist()
    wrong = batch_norm("N C", momentum="0.1", convention="old", running_var_denominator="N")
    assert forward(wrong, x, state=s0).state.mean.tolist() != a.mean.tolist()


def test_torch_running_var_is_n_over_n_minus_one_times_keras() -> None:
    # batch 0, 2, 4: mean 2, squared deviations sum to 8; unbiased 4, biased 8/3
    pt = torch.batch_norm1d(sizes="N=3 C=1", momentum=1)
    ks = keras.batch_normalization(sizes="N=3 C=1", layout="N C", momentum=0)
    x = [[0], [2], [4]]
    vp, vk = forward(pt, x).state.var[0], forward(ks, x).state.var[0]
    assert (vp, vk) == (4, R(8, 3))
    assert vp == R(3, 2) * vk


def test_instance_norm_running_stats_average_over_batch() -> None:
    spec = torch.instance_norm2d(sizes="N=2 C=1 H=1 W=2", eps=0, track_running_stats=True)
    st = forward(spec, [[[[0, 2]]], [[[4, 8]]]]).state
    # instance means 1, 6 -> 7/2; unbiased vars 2, 8 -> 5; r = 0.9 r + 0.1 b
    assert st.mean.tolist() == [R(7, 20)] and st.var.tolist() == [R(7, 5)]


def test_running_state_shape_checked() -> None:
    spec = batch_norm("N C", sizes="C=2")
    bad = initial_state(batch_norm("N C", sizes="C=3"), (2, 3))
    with pytest.raises(SpecError, match="running state has shape"):
        forward(spec, [[1, 2], [3, 4]], state=bad)


# --- folding inference BatchNorm into a linear layer ------------------------------------

def test_fold_into_linear_layer() -> None:
    spec = batch_norm("N C", sizes="C=2", affine=True)
    st = RunningState(np.array([1, 2], dtype=object), np.array([4, 9], dtype=object))
    # scale = gain/sqrt(var) = (2/2, 1/3); shift = beta - scale*mean = (0 - 1, 1 - 2/3)
    scale, shift = affine_of_inference(spec, st, gain=[2, 1], bias=[0, 1])
    assert scale.tolist() == [1, R(1, 3)] and shift.tolist() == [-1, R(1, 3)]
    w, b = [[1, 2], [3, -1]], [1, 0]
    w2, b2 = fold_linear(spec, st, w, b, gain=[2, 1], bias=[0, 1])
    assert w2.tolist() == [[1, 2], [1, R(-1, 3)]] and b2.tolist() == [0, R(1, 3)]
    for u in ([1, 1], [R(2, 3), -5]):
        z = [[sum(wi * ui for wi, ui in zip(row, u)) + bi for row, bi in zip(w, b)]]
        bn = forward(spec, z, train=False, state=st, gain=[2, 1], bias=[0, 1]).y[0]
        folded = [sum(wi * ui for wi, ui in zip(row, u)) + bi for row, bi in zip(w2, b2)]
        assert bn.tolist() == folded
    with pytest.raises(SpecError, match="running statistics"):
        affine_of_inference(layer_norm(2), st)


# --- backends ------------------------------------------------------------------------

@pytest.mark.parametrize("spec", [batch_norm("N C H W", "1/7"), group_norm(2, eps="1/3"),
                                  rms_norm(layout="N C H W", axes=3, eps="1/9")])
def test_backends_agree(spec) -> None:  # type: ignore[no-untyped-def]
    exact = forward(spec, TENSOR).y
    mp = forward(spec, TENSOR, backend="mpmath", dps=60).y
    fl = forward(spec, TENSOR, backend="numpy").y
    with mpmath.workdps(60):
        worst = max(abs(mpmath.mpf(e.evalf(70)) - m) for e, m in zip(exact.ravel(), mp.ravel()))
    assert worst < mpmath.mpf(10) ** -55
    assert np.max(np.abs(fl - exact.astype(float))) < 1e-14


def test_float_input_is_read_as_its_decimal() -> None:
    assert vec(layer_norm(2, 0.1), [0.0, 2.0]) == vec(layer_norm(2, R(1, 10)), [0, 2])


@pytest.mark.parametrize("call, error, fragment", [
    (lambda: forward(batch_norm("N C", sizes="C=2"), [[1, 2, 3]]), SpecError, "'C' has size 3"),
    (lambda: forward(batch_norm("N C"), [1, 2]), SpecError, "1 axes"),
    (lambda: forward(layer_norm(2), [1, 1]), SpecError, "zero variance"),
    (lambda: forward(torch.batch_norm1d(), [[1, 2]]), SpecError, "more than 1 value"),
    (lambda: forward(layer_norm(2), [1, 2], backend="gpu"), SpecError, "backend"),
    (lambda: forward(layer_norm(2), [1, 2], backend="mpmath", dps=10**6), LimitError, "dps"),
    (lambda: forward(group_norm(3), [[[[1]], [[2]], [[3]], [[4]]]]), SpecError, "groups=3"),
    (lambda: forward(layer_norm(2), [1, "x"]), SpecError, "tensor entry"),
])
def test_apply_errors(call, error, fragment) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error, match=fragment):
        call()


def test_pytorch_cumulative_average_momentum_none() -> None:
    spec = torch.batch_norm1d(sizes="N=2 C=1", eps=0, momentum=None)
    st = None
    # batches {0, 2}, {3, 5}, {6, 8}: means 1, 4, 7 and unbiased variances 2, 2, 2
    for batch in ([[0], [2]], [[3], [5]], [[6], [8]]):
        st = forward(spec, batch, state=st).state
    assert st.mean.tolist() == [4] and st.var.tolist() == [2] and st.steps == 3
    with pytest.raises(SpecError, match="cumulative"):
        batch_norm("N C", convention="sum")


# --- one-pass variance (Flax's use_fast_variance, Keras 3's ops.moments) -----------------

def test_one_pass_variance_is_exact_in_exact_arithmetic() -> None:
    fast = layer_norm(4).with_(fast_variance=True)
    # 1, 2, 3, 4: E[x^2] = 30/4, E[x]^2 = 25/4, difference 5/4 = the two-pass variance
    assert forward(fast, [1, 2, 3, 4]).var.tolist() == R(5, 4)
    assert vec(fast, [1, 2, 3, 4]) == vec(layer_norm(4), [1, 2, 3, 4])


def test_one_pass_variance_cancels_in_float64() -> None:
    x = 1e8 + np.array([0.0, 1.0, 2.0, 3.0])  # spread 1.25 on a mean of 1e8
    two = forward(layer_norm(4, "1e-5"), x, backend="numpy")
    one = forward(flax.layer_norm(sizes="D=4").with_(affine=()), x.reshape(1, 1, 4),
                  backend="numpy")
    assert float(two.var) == 1.25
    assert abs(float(one.var.ravel()[0]) - 1.25) > 0.5
    assert np.max(np.abs(one.y.ravel() - two.y)) > 0.1


def test_one_pass_variance_is_clipped_at_zero() -> None:
    # 7e7 + (0, 1, 1, 1): true variance 3/16, one-pass float64 gives -1 before clipping
    x = 7e7 + np.array([0.0, 1.0, 1.0, 1.0])
    fast = layer_norm(4, "1e-5").with_(fast_variance=True)
    assert float(forward(fast, x, backend="numpy").var) == 0.0
    assert forward(fast, [7 * 10**7, 7 * 10**7 + 1, 7 * 10**7 + 1, 7 * 10**7 + 1]).var == R(3, 16)
    with pytest.raises(SpecError, match="zero variance"):
        forward(fast.with_(eps=0), x, backend="numpy")


def test_presets_variance_algorithm() -> None:
    assert flax.batch_norm().fast_variance and flax.layer_norm().fast_variance
    assert keras.batch_normalization().fast_variance
    assert not keras.batch_normalization(one_pass=False).fast_variance
    assert not torch.layer_norm().fast_variance and not torch.batch_norm2d().fast_variance
