"""`symnorm zoo`: the teaching table, its numbers worked out by hand for seed 003's sizes."""

from __future__ import annotations

import json

import pytest

from symnorm.cli import main
from symnorm.errors import SpecError
from symnorm.family.zoo import zoo

# N=16, C=64, H*W = 28*28 = 784
SEED_ROWS = {
    "BatchNorm": (("N", "H", "W"), 16 * 784, 64, True),
    "LayerNorm": (("C", "H", "W"), 64 * 784, 16, False),
    "InstanceNorm": (("H", "W"), 784, 16 * 64, False),
    "GroupNorm(32)": (("H", "W"), 2 * 784, 16 * 32, False),
    "RMSNorm": (("C", "H", "W"), 64 * 784, 16, False),
}


def test_default_table_matches_seed_003() -> None:
    rows = {r.layer: r for r in zoo()}
    assert list(rows) == list(SEED_ROWS)
    for name, (reduced, size, pairs, coupled) in SEED_ROWS.items():
        r = rows[name]
        assert (r.reduced, r.group_size, r.stat_pairs, r.cross_sample) == (
            reduced, size, pairs, coupled), name
    assert rows["BatchNorm"].running_stats and not rows["LayerNorm"].running_stats
    assert rows["RMSNorm"].statistics == "mean square"


def test_group_norm_extremes_are_flagged() -> None:
    rows = {r.layer: r for r in zoo(groups=[1, 64])}
    assert rows["GroupNorm(1)"].group_size == rows["LayerNorm"].group_size
    assert rows["GroupNorm(64)"].group_size == rows["InstanceNorm"].group_size == 784
    assert "LayerNorm" in rows["GroupNorm(1)"].note and "Instance" in rows["GroupNorm(64)"].note


def test_sequence_layout() -> None:
    rows = {r.layer: r for r in zoo("N T D", "N=8 T=128 D=512", groups=[8])}
    assert rows["BatchNorm"].reduced == ("N", "T") and rows["BatchNorm"].group_size == 1024
    assert rows["LayerNorm"].reduced == ("D",) and rows["LayerNorm"].stat_pairs == 8 * 128
    assert rows["GroupNorm(8)"].group_size == 64 * 128


def test_two_axis_layout_has_no_instance_norm() -> None:
    assert "InstanceNorm" not in [r.layer for r in zoo("N C", "N=4 C=6", groups=[2])]


def test_symbolic_sizes() -> None:
    r = zoo("N C H W", "C=8", groups=[2])[0]
    assert r.group_size is None and r.stat_pairs == 8 and r.group_formula == "N*H*W"


@pytest.mark.parametrize("kwargs, fragment", [
    ({"groups": [3]}, "groups=3 does not divide C=64"),
    ({"layout": "N C C"}, "duplicate axis 'C'"),
    ({"channel": "Q"}, "'Q'"),
    ({"ln_axes": "C Z"}, "'Z' is not in the layout"),
    ({"groups": list(range(1, 40))}, "at most"),
])
def test_zoo_errors(kwargs, fragment) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SpecError, match=fragment):
        zoo(**kwargs)


def test_cli_text(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["zoo"]) == 0
    out = capsys.readouterr().out
    assert "12,544 = N*H*W" in out and "50,176 = C*H*W" in out and "1,568" in out
    assert out.count("\n") >= 7


def test_cli_json(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["zoo", "--size", "N=2", "--groups", "1", "64", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sizes"] == {"N": 2, "C": 64, "H": 28, "W": 28}
    layers = {row["layer"]: row for row in data["layers"]}
    assert layers["BatchNorm"]["group_size"] == 2 * 784
    assert layers["BatchNorm"]["cross_sample"] is True
    assert [k for k, v in layers.items() if v["cross_sample"]] == ["BatchNorm"]
    assert set(layers) == {"BatchNorm", "LayerNorm", "InstanceNorm", "GroupNorm(1)",
                           "GroupNorm(64)", "RMSNorm"}


@pytest.mark.parametrize("argv, fragment", [
    (["zoo", "--groups", "5"], "groups=5"),
    (["zoo", "--layout", "N 3x"], "token '3x'"),
    (["zoo", "--size", "N=0"], "positive integer"),
    (["zoo", "--sizes", "Q=3"], "'Q' is not in the layout"),
])
def test_cli_errors_are_one_line(capsys, argv, fragment) -> None:  # type: ignore[no-untyped-def]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1 and "Traceback" not in err


def test_group_of_one_number_is_shown_with_a_note() -> None:
    rows = {r.layer: r for r in zoo("N C", "N=32 C=8", groups=[8])}
    assert rows["GroupNorm(8)"].group_size == 1 and rows["GroupNorm(8)"].stat_pairs == 256
    assert "0/0" in rows["GroupNorm(8)"].note
    bn = zoo("N C H W", "N=1 C=4 H=1 W=1", groups=[2])[0]
    assert (bn.layer, bn.group_size, bn.stat_pairs) == ("BatchNorm", 1, 4)


@pytest.mark.parametrize("sizes, expected", [("N=4 C=8", 4), ("N=4 C=96", 32), ("N=4 C=7", 1),
                                             ("N=4 C=48", 24)])
def test_cli_default_groups_divide_c(capsys, sizes: str, expected: int) -> None:  # type: ignore[no-untyped-def]
    assert main(["zoo", "--layout", "N C", "--sizes", sizes, "--json"]) == 0
    layers = [row["layer"] for row in json.loads(capsys.readouterr().out)["layers"]]
    assert f"GroupNorm({expected})" in layers
