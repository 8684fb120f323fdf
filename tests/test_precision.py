"""The precision audit (symnorm.audit.precision): arithmetic, reference, analytic error laws.

Every expected number here comes from floating-point analysis or exact arithmetic done in
the test, never from the code under test: correct rounding is checked against the two
neighbours of each result, the exact statistics against Fractions, the one-pass error
against Higham-style bounds and its u (mean/spread)^2 growth, and PyTorch issue 51102
against what the issue reports (a float32 variance that is wildly wrong, often <= 0).
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest

from symnorm.audit.precision import (
    METHODS,
    Case,
    StudyParams,
    _reference_outputs,
    configs,
    dtype,
    exact_stats,
    inputs,
    run_study,
    short,
    unit_roundoff,
    variance,
)
from symnorm.errors import SymnormError

NARROW = ("float16", "bfloat16", "float32")
_UINT = {"float16": np.uint16, "bfloat16": np.uint16, "float32": np.uint32}


def _neighbours(r: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray]:
    bits = r.view(_UINT[name])
    return (bits + 1).view(dtype(name)), (bits - 1).view(dtype(name))


def _check_correctly_rounded(result: np.ndarray, exact: list[F], name: str) -> None:
    up, down = _neighbours(result, name)
    for r, a, b, q in zip(result, up, down, exact):
        r, a, b = (float(t) for t in (r, a, b))
        if not all(math.isfinite(t) for t in (r, a, b)):
            continue
        err = abs(F(r) - q)
        assert err <= abs(F(a) - q) and err <= abs(F(b) - q), (name, r, q)


def _random_values(name: str, size: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(size) * np.exp2(rng.integers(-6, 7, size))
    return x.astype(dtype(name))


@pytest.mark.parametrize("name", NARROW)
@pytest.mark.parametrize("op", ["add", "sub", "mul", "sqrt"])
def test_each_operation_is_correctly_rounded(name: str, op: str) -> None:
    """The study's arithmetic is IEEE round-to-nearest in the format, not float64 in disguise."""
    a, b = _random_values(name, 400, 1), _random_values(name, 400, 2)
    fa, fb = [F(float(t)) for t in a], [F(float(t)) for t in b]
    with np.errstate(all="ignore"):
        if op == "add":
            r, q = a + b, [x + y for x, y in zip(fa, fb)]
        elif op == "sub":
            r, q = a - b, [x - y for x, y in zip(fa, fb)]
        elif op == "mul":
            r, q = a * b, [x * y for x, y in zip(fa, fb)]
        else:
            a = np.abs(a)
            r = np.sqrt(a)
            # sqrt is irrational in general: compare squares of the result and neighbours
            up, down = _neighbours(r, name)
            for x, s, hi, lo in zip(a, r, up, down):
                x, s, hi, lo = (F(float(t)) for t in (x, s, hi, lo))
                mid_hi, mid_lo = (s + hi) / 2, (s + lo) / 2
                assert mid_lo ** 2 <= x <= mid_hi ** 2 or s == 0
            return
    assert r.dtype == dtype(name)
    _check_correctly_rounded(r, q, name)


@pytest.mark.parametrize("name", NARROW)
def test_division_by_a_count_is_correctly_rounded_even_past_the_format(name: str) -> None:
    from symnorm.audit.precision import _div
    a = _random_values(name, 300, 3)
    for k in (3, 7, 257, 1023, 4097):  # bfloat16 cannot hold 257, float16 cannot hold 4097
        _check_correctly_rounded(_div(a, k), [F(float(t)) / k for t in a], name)


def test_exact_stats_agree_with_fractions() -> None:
    for name in ("float16", "bfloat16", "float32", "float64"):
        row = _random_values(name, 37, 4).astype(np.float64)
        vals = [F(float(t)) for t in row]
        mean = sum(vals) / len(vals)
        var = sum((t - mean) ** 2 for t in vals) / len(vals)
        st = exact_stats(row)
        assert (st.mean, st.var) == (mean, var)
        assert [k * st.scale for k in st.num] == [t - mean for t in vals]


def test_reference_outputs_match_a_direct_high_precision_evaluation() -> None:
    row = np.array([1.0, 2.0, 4.0, 2000.5, -3.25])
    st = exact_stats(row)
    eps = F(1, 10)
    hi, lo = _reference_outputs(st, eps, 30)
    with mpmath.workdps(60):
        xs = [mpmath.mpf(t) for t in row]
        m = mpmath.fsum(xs) / 5
        s = mpmath.sqrt(mpmath.fsum((t - m) ** 2 for t in xs) / 5 + mpmath.mpf(1) / 10)
        for t, h, low in zip(xs, hi, lo):
            y = (t - m) / s
            assert abs((mpmath.mpf(h) + mpmath.mpf(low)) - y) <= abs(y) * mpmath.mpf(2) ** -100


def test_inputs_are_seeded_rationals_rounded_to_the_format() -> None:
    case = Case("ratio", "ratio 100", "random", F(100), F(1), F(1, 10**5), F(100))
    a = inputs(case, "float32", 64, 3, seed=5)
    b = inputs(case, "float32", 64, 3, seed=5)
    c = inputs(case, "float32", 64, 3, seed=6)
    assert a.dtype == np.float32 and np.array_equal(a, b) and not np.array_equal(a, c)
    # the same rational points for every format: float16 holds their rounding
    h = inputs(case, "float16", 64, 3, seed=5)
    assert np.array_equal(h, a.astype(np.float64).astype(np.float16)) or np.max(
        np.abs(h.astype(np.float64) - a.astype(np.float64))) <= 2 ** -4


@pytest.mark.parametrize("name", NARROW)
def test_near_constant_inputs_are_c_and_its_neighbours(name: str) -> None:
    case = Case("near-constant", "1e3 +- 1 ulp", "ulp", F(1000), F(0), F(1, 10**5))
    x = inputs(case, name, 256, 2, seed=0).astype(np.float64)
    c = 1000.0
    up = float(np.nextafter(np.float32(c), np.float32(2000))) if name == "float32" else None
    values = set(np.unique(x))
    assert c in values and len(values) == 3
    if up is not None:
        assert up in values
    const = Case("near-constant", "constant 1e3", "constant", F(1000), F(0), F(1, 10**5))
    assert np.all(inputs(const, name, 16, 1, seed=0).astype(np.float64) == c)


# --- analytic error laws -------------------------------------------------------------


def _gamma(k: int, u: float) -> float:
    return k * u / (1 - k * u)


@pytest.mark.parametrize("name,ratios", [("float32", (10, 100, 1000)),
                                         ("float64", (10**3, 10**4, 10**5))])
def test_one_pass_error_grows_like_u_times_mean_over_spread_squared(name: str,
                                                                     ratios: tuple) -> None:
    """Median relative error of E[x^2]-E[x]^2 scales as (mean/spread)^2 and exceeds u ratio^2/100."""
    n, u = 64, unit_roundoff(name)
    r = run_study(StudyParams(dtypes=(name,), methods=("one-pass",),
                              ratios=tuple(F(q) for q in ratios), eps_values=(), constants=(),
                              include_51102=False, n=n, samples=24))
    med = [r.summary(name, f"ratio {short(F(q))}", "one-pass").var_err_median for q in ratios]
    slope = np.polyfit(np.log10(ratios), np.log10(med), 1)[0]
    assert 1.5 <= slope <= 2.5, (med, slope)
    for q, e in zip(ratios, med):
        assert e >= u * q * q / 100, (q, e)


@pytest.mark.parametrize("method,depth", [("one-pass", None), ("one-pass-pairwise", "log")])
@pytest.mark.parametrize("name", ["float16", "float32", "float64"])
def test_one_pass_error_is_within_the_rounding_error_bound(method: str, depth, name: str
                                                           ) -> None:
    """|v_hat - v| <= (1+u)(g E[x^2] + 4 g a^2) + u v with g = gamma_{k+1}, a = mean |x|."""
    n, u = 100, unit_roundoff(name)
    k = n if depth is None else math.ceil(math.log2(n)) + 1
    g = _gamma(k + 1, u)
    mean = F(8) if name == "float16" else F(1000)  # float16: sum x^2 must stay below 65504
    case = Case("ratio", "r", "random", mean, F(1), F(1, 10**5), mean)
    x = inputs(case, name, n, 20, seed=1)
    _, v_hat = variance(x, method, name)
    checked = 0
    for row, vh in zip(x.astype(np.float64), v_hat):
        st = exact_stats(row)
        ex2 = st.var + st.mean ** 2
        a = sum(abs(F(float(t))) for t in row) / n
        bound = (1 + F(u)) * (F(g) * ex2 + 4 * F(g) * a * a) + F(u) * st.var
        assert abs(F(float(vh)) - st.var) <= bound
        checked += 1
    assert checked == 20


def test_two_pass_and_welford_do_not_lose_the_variance_at_large_mean() -> None:
    r = run_study(StudyParams(dtypes=("float32",), methods=METHODS, ratios=(F(1000),),
                              eps_values=(), constants=(), include_51102=False, n=64,
                              samples=16))
    for m in ("two-pass", "two-pass-pairwise", "welford"):
        assert r.summary("float32", "ratio 1e3", m).var_err_max < 1e-4
    assert r.summary("float32", "ratio 1e3", "one-pass").var_err_median > 1e-3


# --- PyTorch issue 51102 ---------------------------------------------------------------


def _study_51102(name: str = "float32"):
    return run_study(StudyParams(dtypes=(name,), methods=("one-pass", "welford"), ratios=(),
                                 eps_values=(), constants=(), include_51102=True, n=1024,
                                 samples=8))


def test_pytorch_51102_is_reproduced_in_float32() -> None:
    """Mean 2000, std 1: sum of squares in float32 is wildly wrong, Welford is accurate."""
    r = _study_51102()
    one = r.summary("float32", "51102: mean 2000, std 1", "one-pass")
    wel = r.summary("float32", "51102: mean 2000, std 1", "welford")
    assert one.var_err_median > 0.5  # not a few ulps: the variance itself is lost
    assert one.negative + one.zero >= 1  # and some computed variances are not even positive
    # the issue saw output variances up to 48425 instead of 1
    assert one.out_nonfinite >= 1 or one.out_var_max > 100
    assert wel.var_err_max < 1e-3 and wel.negative == wel.zero == wel.nonfinite == 0
    assert abs(wel.out_var_max - 1) < 1e-3
    from symnorm.audit.precision_report import headline
    assert any(line.startswith("PyTorch #51102 reproduced") for line in headline(r))


def test_pytorch_51102_does_not_appear_in_float64() -> None:
    """The same inputs in float64: the one-pass route is fine (so the float32 loss is real)."""
    one = _study_51102("float64").summary("float64", "51102: mean 2000, std 1", "one-pass")
    assert one.var_err_max < 1e-6 and one.negative == 0


def test_torch_var_mean_is_accurate_on_the_51102_inputs() -> None:
    """Today's PyTorch kernels (Welford) get the 51102 inputs right in float32."""
    torch = pytest.importorskip("torch")
    case = Case("pytorch-51102", "51102", "random", F(2000), F(1), F(1, 10**5))
    x = inputs(case, "float32", 1024, 4, seed=0)
    var, _ = torch.var_mean(torch.from_numpy(x), dim=1, unbiased=False)
    for row, vt in zip(x.astype(np.float64), var.numpy()):
        v = exact_stats(row).var
        assert abs(F(float(vt)) - v) / v < 1e-3


# --- study behaviour ---------------------------------------------------------------------


def test_overflowing_inputs_and_squares_are_reported_not_hidden() -> None:
    r = run_study(StudyParams(dtypes=("float16",), accumulate="same", methods=("one-pass",
                              "welford"), ratios=(F(1000), F(10**5)), eps_values=(),
                              constants=(), include_51102=False, n=32, samples=2))
    assert ("float16", "ratio 1e5") in r.unrepresentable  # 1e5 > 65504
    s = r.summary("float16", "ratio 1e3", "one-pass")  # 1000^2 overflows float16
    assert s.nonfinite == 2 and math.isinf(s.var_err_max) and s.out_nonfinite == 2
    with pytest.raises(KeyError):
        r.summary("float16", "ratio 1e5", "one-pass")


def test_eps_below_the_format_is_reported_as_lost() -> None:
    r = run_study(StudyParams(dtypes=("float16",), accumulate="same", methods=("two-pass",),
                              ratios=(), eps_values=(F(1, 10**12), F(1, 100)), constants=(),
                              include_51102=False, n=32, samples=2))
    assert r.summary("float16", "eps 1e-12", "two-pass").eps_stored == 0.0
    big = r.summary("float16", "eps 1/100", "two-pass")
    assert big.eps_stored != 0 and big.eps_dominates and not r.summary(
        "float16", "eps 1e-12", "two-pass").eps_dominates


def test_study_is_deterministic_and_leaves_mpmath_alone() -> None:
    before = mpmath.mp.dps
    p = StudyParams(dtypes=("bfloat16",), methods=("welford",), ratios=(F(10),),
                    eps_values=(), constants=(F(1),), include_51102=False, n=16, samples=3)
    a, b = run_study(p), run_study(p)
    assert [(r.var_hat, r.out_err) for r in a.rows] == [(r.var_hat, r.out_err) for r in b.rows]
    assert mpmath.mp.dps == before


def test_configs_pair_narrow_formats_with_float32_arithmetic() -> None:
    labels = [c.label for c in configs(["bfloat16", "float32", "float64"], "both")]
    assert labels == ["bfloat16", "bfloat16 (float32 arithmetic)", "float32", "float64"]
    assert [c.label for c in configs(["float16"], "float32")] == [
        "float16 (float32 arithmetic)"]


@pytest.mark.parametrize("change,needle", [
    ({"dtypes": ("float8",)}, "unknown dtype 'float8'"),
    ({"methods": ("kahan",)}, "unknown method 'kahan'"),
    ({"n": 1}, "--n must lie in [2, 65536] (got 1)"),
    ({"samples": 0}, "--samples must lie in [1, 1000] (got 0)"),
    ({"ratios": (F(1, 2),)}, "--ratios values must lie in [1, 1e9] (got 1/2)"),
    ({"eps": F(0)}, "eps values must lie in (0, 1] (got 0)"),
    ({"eps_values": (F(-1),)}, "(got -1)"),
    ({"constants": (F(10**5),)}, "--constants values must lie in [1e-3, 1e4]"),
    ({"ratios": (F(10), F(10))}, "--ratios lists a value twice"),
    ({"dtypes": ("float16", "float16")}, "--dtypes lists a value twice"),
    ({"methods": ("welford", "welford")}, "--methods lists a value twice"),
    ({"accumulate": "float64"}, "--accumulate must be same, float32 or both"),
    ({"n": 65536, "samples": 1000}, "above the limit"),
    ({"dps": 5}, "--dps must lie in [15, 200] (got 5)"),
    ({"ratios": (), "eps_values": (), "constants": (), "include_51102": False},
     "no input case left"),
])
def test_bad_parameters_are_refused_with_the_value(change: dict, needle: str) -> None:
    with pytest.raises(SymnormError) as info:
        StudyParams(**change).check()
    assert needle in str(info.value)


def test_torch_method_measures_pytorch_kernels_only_in_their_own_arithmetic() -> None:
    pytest.importorskip("torch")
    r = run_study(StudyParams(dtypes=("float16", "float32"), methods=("one-pass", "torch"),
                              ratios=(), eps_values=(), constants=(), n=256, samples=2))
    s = r.summary("float32", "51102: mean 2000, std 1", "torch")
    assert s.var_err_max < 1e-5 and s.out_err_max < 1e-3 and s.samples == 2
    assert r.summary("float16", "51102: mean 2000, std 1", "torch").samples == 2
    with pytest.raises(KeyError):  # torch chooses its own arithmetic: no mixed configuration
        r.summary("float16 (float32 arithmetic)", "51102: mean 2000, std 1", "torch")
    from symnorm.audit.precision_report import output_table, variance_table
    cfg = next(c for c in r.configs if c.label == "float16 (float32 arithmetic)")
    assert variance_table(r, cfg)[0][-1] == "one-pass" and output_table(r, cfg)[0][-1] == (
        "one-pass")
