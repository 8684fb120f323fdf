"""``symnorm derive``: the paper's example, JSON evidence, options, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from symnorm.cli import main

ROOT = Path(__file__).resolve().parents[1]
PAPER_J = [[0.23993835872757036, -0.3286112304312372, 0.08867287170366717],
           [-0.3286112304312372, 0.5007409225618855, -0.17212969213064816],
           [0.08867287170366717, -0.17212969213064816, 0.08345682042698094]]
PAPER_FLOAT64_ERROR = 1.384497516632166e-10
PAPER_COMPANION = [-0.9950371902099893, 0.9950371902099893]


def _json(capsys, *args):
    assert main(["derive", "--json", "--no-any-d", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_default_json_matches_paper(capsys):
    out = _json(capsys)
    assert out["d"] == 3 and out["x"] == ["1", "2", "4"] and out["eps"] == "1/10"
    for row, paper in zip(out["jacobian"], PAPER_J):
        assert all(abs(a - b) < 1e-15 for a, b in zip(row, paper))
    assert out["max_finite_difference_error"] < 1e-45
    assert out["float64_finite_difference_error"] == pytest.approx(PAPER_FLOAT64_ERROR,
                                                                    rel=1e-15)
    assert all(abs(a - b) < 1e-15 for a, b in zip(out["companion_outputs"], PAPER_COMPANION))
    assert out["dps"] == 50 and out["step"] < 1e-50
    assert len(out["jacobian_exact"]) == 3 and "sqrt(1490)" in out["jacobian_exact"][0][0]
    assert min(out["eigenvalues"]) == 0.0 and len(out["eigenvalues"]) == 3
    assert all(c["holds"] for c in out["proofs"]["at_point"] + out["proofs"]["symbolic_x"])
    assert set(out["timings"]) >= {"differentiate", "cross_check"}


def test_default_text(capsys):
    assert main(["derive", "--no-any-d"]) == 0
    text = capsys.readouterr().out
    for fragment in ["x = (1, 2, 4)", "sqrt(1490)/30", "0.2399383587275701",
                     "27*sqrt(1490)/22201", "J == P/s - c c^T/(d s**3)", "1.384497516632166e-10",
                     "-0.9950371902099893", "agreeing digits", "proved"]:
        assert fragment in text
    assert "FAILED" not in text


def test_any_d_section_reads_the_checker(capsys):
    pytest.importorskip("symnorm.check.run")
    assert main(["derive"]) == 0
    text = capsys.readouterr().out
    section = text.split("Proved for every d")[1].split("Numeric cross-check")[0]
    assert "jacobian.closed_form" in section and "proved" in section


def test_eps_decimal_is_exact(capsys):
    a = _json(capsys, "--eps", "0.1")
    b = _json(capsys, "--eps", "1/10")
    assert a["jacobian_exact"] == b["jacobian_exact"] and a["eps"] == "1/10"


def test_random_x_is_reproducible_and_rational(capsys):
    a = _json(capsys, "--random-x", "7", "--d", "4")
    b = _json(capsys, "--random-x", "7", "--d", "4")
    c = _json(capsys, "--random-x", "8", "--d", "4")
    assert a["x"] == b["x"] != c["x"] and len(a["x"]) == 4
    assert a["max_finite_difference_error"] < 1e-45


def test_other_options(capsys):
    out = _json(capsys, "--x=-1,2,7/2,0.5", "--dps", "30")
    assert out["d"] == 4 and out["x"] == ["-1", "2", "7/2", "1/2"]
    assert out["max_finite_difference_error"] < 1e-25
    out = _json(capsys, "--rms", "--d", "3")
    assert out["layer"] == "rms_norm" and len(out["eigen"]) == 2


@pytest.mark.parametrize("args, fragment", [
    (["--d", "1"], "--d must be an integer >= 2 (got 1)"),
    (["--d", "three"], "--d must be an integer >= 2"),
    (["--eps", "-1"], "--eps must be >= 0 (got -1)"),
    (["--eps", "1/0"], "--eps must be an exact number"),
    (["--x", "1,2", "--d", "3"], "--x has 2 entries but --d is 3"),
    (["--x", "3,3,3", "--eps", "0"], "zero variance and eps = 0"),
    (["--x", "1,two,3"], "--x entry 2 must be an exact number"),
    (["--x", "1,,3"], "comma-separated"),
    (["--random-x", "s"], "--random-x must be an integer seed"),
    (["--d", "100000"], "at most"),
])
def test_bad_input_one_line_exit_2(capsys, args, fragment):
    assert main(["derive", "--no-any-d", *args]) == 2
    err = capsys.readouterr().err
    assert fragment in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("value", ["10000000", "many", "29", "10"])
def test_bad_dps_prints_derive_usage_and_the_one_range(capsys, value):
    """derive, check and report accept the same --dps range, and say it (issue 11)."""
    assert main(["derive", "--no-any-d", "--dps", value]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[0].startswith("usage: symnorm derive ")
    assert err[-1] == ("symnorm derive: error: argument --dps: must be a whole number of "
                       f"digits from 30 to 1000 (got {value if value != 'many' else repr(value)})")
    assert not any("Traceback" in line for line in err)


def test_bad_input_subprocess_no_traceback():
    proc = subprocess.run([sys.executable, "-m", "symnorm", "derive", "--x", "3,3,3", "--eps",
                           "0"], capture_output=True, text=True, cwd=ROOT, timeout=120,
                          check=False)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert proc.stdout == ""


def test_any_d_section_without_checker(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "symnorm.check.run", None)  # import now fails
    assert main(["derive"]) == 0
    text = capsys.readouterr().out
    assert "not run: the claim checker (symnorm.check.run) is not available" in text
    assert "jacobian.closed_form" not in text


def test_any_d_section_not_claimed_for_other_variants(capsys):
    assert main(["derive", "--rms"]) == 0
    section = capsys.readouterr().out.split("Proved for every d")[1]
    assert "not run" in section.splitlines()[1]
