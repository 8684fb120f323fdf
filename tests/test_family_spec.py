"""The extended layer spec: layouts, constructors, derived counts, validation messages."""

from __future__ import annotations

import pytest
import sympy

from symnorm.errors import SpecError
from symnorm.family.layout import parse_axes, parse_layout, parse_sizes
from symnorm.spec import (
    NormSpec,
    RunningStats,
    batch_norm,
    group_norm,
    instance_norm,
    layer_norm,
    rms_norm,
)

SEED = "N=16 C=64 H=28 W=28"


@pytest.mark.parametrize("text, axes", [
    ("N C H W", ("N", "C", "H", "W")),
    ("  N   T  D ", ("N", "T", "D")),
    ("N,C", ("N", "C")),
    ("batch chan_1 x", ("batch", "chan_1", "x")),
])
def test_valid_layouts(text: str, axes: tuple[str, ...]) -> None:
    assert parse_layout(text) == axes


@pytest.mark.parametrize("text, fragment", [
    ("", "empty"),
    ("N C C", "duplicate axis 'C'"),
    ("N 3x", "token '3x'"),
    ("N C-1", "token 'C-1'"),
    ("N (C H)", "token '(C'"),
    (" ".join(f"a{i}" for i in range(13)), "at most 12"),
])
def test_invalid_layouts_name_the_token(text: str, fragment: str) -> None:
    with pytest.raises(SpecError, match=fragment.replace("(", r"\(")):
        parse_layout(text)


def test_parse_axes_rejects_non_names() -> None:
    with pytest.raises(SpecError, match="axis names"):
        parse_axes([1, 2])


@pytest.mark.parametrize("value, fragment", [
    ("N=0", "positive integer"), ("N=-2", "positive integer"), ("N=x", "positive integer"),
    ("Q=3", "'Q' is not in the layout"), ("N=2 N=3", "given twice"), ("N:2", "AXIS=SIZE"),
    ({"N": True}, "positive integer"),
])
def test_invalid_sizes(value: object, fragment: str) -> None:
    with pytest.raises(SpecError, match=fragment):
        parse_sizes(value, ("N", "C"))  # type: ignore[arg-type]


def test_sizes_accept_mapping_string_and_symbolic() -> None:
    assert parse_sizes("N=2, C=?", ("N", "C")) == (("N", 2), ("C", None))
    assert parse_sizes({"C": 3}, ("N", "C")) == (("N", None), ("C", 3))


# Hand counts for seed 003's N=16, C=64, H=W=28: (reduce, group size, statistics, coupled)
@pytest.mark.parametrize("spec, reduce, size, pairs, coupled", [
    (batch_norm("N C H W", sizes=SEED), ("N", "H", "W"), 16 * 784, 64, True),
    (layer_norm(layout="N C H W", axes="C H W", sizes=SEED), ("C", "H", "W"), 64 * 784, 16,
     False),
    (instance_norm(sizes=SEED), ("H", "W"), 784, 1024, False),
    (group_norm(32, sizes=SEED), ("H", "W"), 2 * 784, 512, False),
    (group_norm(1, sizes=SEED), ("H", "W"), 64 * 784, 16, False),
    (group_norm(64, sizes=SEED), ("H", "W"), 784, 1024, False),
    (rms_norm(layout="N T D", axes=1, sizes="N=4 T=5 D=8"), ("D",), 8, 20, False),
    (batch_norm("N T D", sizes="N=4 T=5 D=8", channel="D"), ("N", "T"), 20, 8, True),
])
def test_constructor_counts(spec: NormSpec, reduce: tuple[str, ...], size: int, pairs: int,
                            coupled: bool) -> None:
    assert spec.reduce == reduce
    assert spec.group_size == size
    assert spec.d == size
    assert spec.stat_pairs == pairs
    assert spec.couples_samples is coupled


def test_layer_norm_trailing_axes_count_like_normalized_shape() -> None:
    assert layer_norm(layout="N C H W", axes=2).reduce == ("H", "W")
    assert layer_norm(layout="N T D", axes=1, affine=True).affine == ("D",)
    assert layer_norm(layout="N D").reduce == ("D",)  # only one non-batch axis


def test_symbolic_sizes_give_none() -> None:
    spec = batch_norm("N C H W")
    assert spec.group_size is None and spec.stat_pairs is None


def test_lead_api_unchanged() -> None:
    spec = layer_norm(3, "1/10", eps_inside=False, var_denominator="N-1", affine=True)
    assert (spec.d, spec.eps, spec.center, spec.eps_inside, spec.var_denominator) == (
        3, sympy.Rational(1, 10), True, False, "N-1")
    assert spec.affine == ("D",)
    r = rms_norm(4, "1e-6", affine=True)
    assert (r.d, r.eps, r.center) == (4, sympy.Rational(1, 1000000), False)
    assert layer_norm().d is None


def test_gemma_gain_offset_implies_affine() -> None:
    spec = rms_norm(layout="N T D", axes=1, gain_offset=1)
    assert spec.affine == ("D",) and spec.gain_offset == 1 and not spec.bias


def test_running_stats_conventions() -> None:
    assert RunningStats().weight_of_batch == sympy.Rational(1, 10)
    assert RunningStats("0.99", "old").weight_of_batch == sympy.Rational(1, 100)


@pytest.mark.parametrize("make, fragment", [
    (lambda: group_norm(3, sizes="C=64"), "groups=3 does not divide C=64"),
    (lambda: group_norm(0, sizes="C=4"), "groups must be a positive integer"),
    (lambda: layer_norm(layout="N C H W", axes="C Q"), "axis 'Q' is not in the layout"),
    (lambda: layer_norm(layout="N C H W", axes="N C"), "'N' is the batch axis"),
    (lambda: layer_norm(layout="N C H W"), "axes must be given"),
    (lambda: layer_norm(layout="N C H W", axes=4), "axes=4"),
    (lambda: layer_norm(3, layout="N D"), "either d"),
    (lambda: batch_norm("N C", channel="K"), "channel: axis 'K'"),
    (lambda: batch_norm("N C", channel="N"), "different axes"),
    (lambda: batch_norm("N C", sizes="N=1 C=3"), "needs >= 2 numbers"),
    (lambda: batch_norm("N C", eps=-1), "eps must be >= 0"),
    (lambda: batch_norm("N C", eps="abc"), "eps must be an exact number"),
    (lambda: batch_norm("N C", momentum=2), "momentum must lie in"),
    (lambda: batch_norm("N C", convention="sideways"), "convention"),
    (lambda: batch_norm("N C", running_var_denominator="N+1"), "var_denominator"),
    (lambda: instance_norm("N C"), "instance_norm needs an axis"),
    (lambda: NormSpec("x", layout="N C", reduce="C", sizes={}, affine="Z"),
     "affine: axis 'Z'"),
    (lambda: NormSpec("x", layout="N C", reduce="C", sizes={}, gain_offset=1),
     "gain_offset=1 needs affine"),
    (lambda: NormSpec("x", layout="N C", reduce="", sizes={}), "reduce must name"),
    (lambda: NormSpec("x", layout="N C H", reduce="H", sizes={}, groups=2, channel_axis="C",
                      running=RunningStats()), "running"),
    (lambda: NormSpec("x", layout="N C", reduce="C", sizes={}, groups=2, channel_axis="C"),
     "already split"),
    (lambda: NormSpec("x", layout="N C", reduce="C", sizes={}, center=1), "center must be"),
    (lambda: layer_norm(1), "d must be an integer >= 2"),
])
def test_validation_names_the_field(make, fragment: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SpecError, match=fragment):
        make()


def test_with_revalidates() -> None:
    spec = group_norm(2, sizes="C=4")
    assert spec.with_(groups=4).group_size is None  # H, W symbolic
    with pytest.raises(SpecError, match="groups=3"):
        spec.with_(groups=3)


def test_group_description() -> None:
    assert batch_norm("N C H W").group_description() == "N x H x W per C"
    assert group_norm(4).group_description() == "C/4 x H x W per N, group"
