"""Figure data checked against hand-derived closed forms, read back from the written CSV.

Expected values come from the formulas in the paper (guides/math.md), evaluated here with
``math``; the figure code computes them by running the normalization map itself.
"""

from __future__ import annotations

import csv
import io
import math
from itertools import pairwise
from pathlib import Path

import pytest

from symnorm.errors import SourceError
from symnorm.report.draw import csv_text, write_figure
from symnorm.report.figures import FIGURES, compute


def table(name: str, **options: str) -> tuple[list[str], list[list[float | None]]]:
    rows = list(csv.reader(io.StringIO(csv_text(compute(name, options)))))
    return rows[0], [[float(x) if x else None for x in r] for r in rows[1:]]


# --- eps_scale ----------------------------------------------------------------------------

def test_eps_scale_matches_closed_form_and_limits() -> None:
    head, rows = table("eps_scale")
    assert head[0] == "a" and head[1:3] == ["eps = 1/10", "eps = 1/100"]
    assert "eps = 0" in head[3]
    assert rows[0][0] == pytest.approx(1e-3) and rows[-1][0] == pytest.approx(1e3)
    for a, r10, r100, r0 in rows:
        # |N_eps(a x)| / sqrt(d) = a sqrt(v) / sqrt(a^2 v + eps) with v = 1
        assert r10 == pytest.approx(a / math.sqrt(a * a + 0.1), rel=1e-12)
        assert r100 == pytest.approx(a / math.sqrt(a * a + 0.01), rel=1e-12)
        assert r0 == 1.0
    assert rows[-1][1] > 1 - 1e-7 and rows[-1][2] > 1 - 1e-8  # large a: ratio -> 1
    assert rows[0][1] < 0.0032 and rows[0][2] < 0.01  # small a: ratio -> 0
    assert all(r1[1] < r2[1] for r1, r2 in pairwise(rows))  # increasing in a


def test_eps_scale_does_not_depend_on_d_or_parity() -> None:
    _, odd = table("eps_scale", d="3", eps="1/4", points="7")
    _, even = table("eps_scale", d="8", eps="1/4", points="7")
    for (a, r, _), (_, r2, _) in zip(odd, even):
        assert r == pytest.approx(a / math.sqrt(a * a + 0.25), rel=1e-12)
        assert r2 == pytest.approx(r, rel=1e-12)


# --- batch_flip ---------------------------------------------------------------------------

def test_batch_flip_passes_through_the_paper_values() -> None:
    head, rows = table("batch_flip")
    assert head == ["b", "eps = 1/100", "eps = 1/10"]
    by_b = {round(r[0], 9): r for r in rows}
    # BN_eps(0; {0, b}) = -b / sqrt(b^2 + 4 eps); at eps = 1/100, b = -+2: +-2/sqrt(4.04)
    assert by_b[-2.0][1] == pytest.approx(0.9950371902099893, abs=1e-15)
    assert by_b[2.0][1] == pytest.approx(-0.9950371902099893, abs=1e-15)
    assert by_b[0.0][1] == 0.0
    for b, y100, y10 in rows:
        assert y100 == pytest.approx(-b / math.sqrt(b * b + 0.04), abs=1e-15)
        assert y10 == pytest.approx(-b / math.sqrt(b * b + 0.4), abs=1e-15)
        assert math.copysign(1, y100) == -math.copysign(1, b) or b == 0  # the sign flip


def test_batch_flip_eps_zero_is_plus_minus_one_and_undefined_at_zero() -> None:
    _, rows = table("batch_flip", eps="0", bmin="-1", bmax="1", points="5")
    assert [r[1] for r in rows] == [1.0, 1.0, None, -1.0, -1.0]


# --- jacobian_spectrum --------------------------------------------------------------------

def test_jacobian_spectrum_against_eps_is_0_eps_over_s3_and_1_over_s() -> None:
    head, rows = table("jacobian_spectrum")
    assert head[0] == "eps" and "complement (1 dim)" in head[3]
    v = 14 / 9  # x = (1, 2, 4): c = (-4/3, -1/3, 5/3), c.c/d = (42/9)/3
    for eps, along1, radial, rest in rows:
        s = math.sqrt(v + eps)
        assert along1 == 0.0
        assert radial == pytest.approx(eps / s**3, rel=1e-12)
        assert rest == pytest.approx(1 / s, rel=1e-12)
    assert any(abs(r[0] - 1) < 1e-12 for r in rows)  # the grid hits eps = 1 exactly


def test_jacobian_spectrum_against_scale() -> None:
    head, rows = table("jacobian_spectrum", against="scale", x="1,2,4,8", eps="1/10",
                       points="9")
    assert head[0] == "a" and "complement (2 dim)" in head[3]
    v = sum(t * t for t in (-11 / 4, -7 / 4, 1 / 4, 17 / 4)) / 4
    for a, along1, radial, rest in rows:  # mean 15/4: c = (-11, -7, 1, 17)/4
        s = math.sqrt(a * a * v + 0.1)
        assert along1 == 0.0
        assert radial == pytest.approx(0.1 / s**3, rel=1e-12)
        assert rest == pytest.approx(1 / s, rel=1e-12)


@pytest.mark.parametrize("x", ["1,2", "3,3,3", "1,2,x"])
def test_jacobian_spectrum_rejects_degenerate_x(x: str) -> None:
    with pytest.raises(SourceError):
        compute("jacobian_spectrum", {"x": x})


# --- batch_spread -------------------------------------------------------------------------

def test_batch_spread_probe_c() -> None:
    head, rows = table("batch_spread")
    assert head == ["batch size", "BN: std of the output over batches",
                    "BN: mean |train - inference| output", "GN / LN (per sample): spread 0",
                    "BN: mean output"]
    first, last = rows[0], rows[-1]
    assert first[0] == 2 and last[0] == 256
    # batch of two with eps = 0: the output is always +1 or -1, so std^2 = 1 - mean^2;
    # P(output = +1) = P(partner < 3) = Phi((3 - 1.5)/2) = 0.7734 -> mean 0.5468
    assert first[1] == pytest.approx(math.sqrt(1 - first[4] ** 2), abs=1e-9)
    assert abs(first[4] - 0.5468) < 0.2
    # large batches: statistics settle at the population ones, output -> (3 - 1.5)/2
    assert abs(last[4] - 0.75) < 0.05 and last[1] < 0.15 and last[1] < first[1] / 5
    assert all(r[3] == 0.0 for r in rows)


def test_batch_spread_is_seeded() -> None:
    assert csv_text(compute("batch_spread", {"seed": "7"})) == csv_text(
        compute("batch_spread", {"seed": "7"}))
    assert csv_text(compute("batch_spread", {"seed": "7"})) != csv_text(
        compute("batch_spread", {"seed": "8"}))


# --- options ------------------------------------------------------------------------------

@pytest.mark.parametrize("name, options, needle", [
    ("nope", {}, "unknown figure 'nope'"),
    ("eps_scale", {"colour": "red"}, "unknown option 'colour'"),
    ("eps_scale", {"eps": "__import__('os')"}, "not a number"),
    ("eps_scale", {"eps": "-1/10"}, "must lie in"),
    ("eps_scale", {"points": "0"}, "must lie in"),
    ("eps_scale", {"points": "10**9"}, "not a number"),
    ("eps_scale", {"points": "2.5"}, "integer"),
    ("eps_scale", {"amin": "10", "amax": "1"}, "amin must be below amax"),
    ("batch_flip", {"eps": ",".join(["1"] * 17)}, "at most 16"),
    ("batch_flip", {"bmin": "1/0"}, "zero denominator"),
    ("jacobian_spectrum", {"against": "time"}, "expected one of eps, scale"),
    ("batch_spread", {"sizes": "1,2"}, "must lie in"),
    ("batch_spread", {"sizes": "4096,4095", "draws": "10000"}, "exceeds the limit"),
    ("eps_scale", {"d": "4096", "points": "2001"}, "exceeds the limit"),
])
def test_bad_options_name_the_problem(name: str, options: dict, needle: str) -> None:
    with pytest.raises(SourceError) as err:
        compute(name, options, "doc.md", 12)
    assert needle in str(err.value) and "doc.md:12" in str(err.value)


def test_duplicate_option_is_an_error() -> None:
    with pytest.raises(SourceError, match="given twice"):
        compute("eps_scale", (("d", "3"), ("d", "4")))


def test_decimal_options_are_exact_rationals() -> None:
    assert csv_text(compute("batch_flip", {"eps": "0.01"})).splitlines()[1:] == \
        csv_text(compute("batch_flip", {"eps": "1/100"})).splitlines()[1:]


# --- drawing ------------------------------------------------------------------------------

def test_figure_files_are_reproducible_and_labelled(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    for name in FIGURES:
        data = compute(name, {"points": "11"} if name != "batch_spread" else {"draws": "20"})
        a, b = write_figure(data, one), write_figure(data, two)
        for ext in ("svg", "png", "csv"):
            assert a[ext].read_bytes() == b[ext].read_bytes(), (name, ext)
        svg = a["svg"].read_text()
        assert "<dc:date>" not in svg
        # with svg.fonttype=path matplotlib records each drawn text in a comment
        for text in (data.title, data.xlabel, data.ylabel, *(s.label for s in data.series)):
            assert f"<!-- {text} -->" in svg, (name, text)
        assert a["png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_validate_checks_without_computing() -> None:
    from fractions import Fraction

    from symnorm.report.figures import validate

    values = validate("eps_scale", {"d": "3", "eps": "0.5"})
    assert values["d"] == 3 and values["eps"] == (Fraction(1, 2),)
    assert values["points"] == 121  # the default
    with pytest.raises(SourceError, match="unknown figure"):
        validate("pie", {}, "d.md", 4)
