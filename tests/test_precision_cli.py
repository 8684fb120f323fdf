"""`symnorm precision` end to end: files, tables, JSON, and refusal of bad arguments."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from symnorm.cli import main
from symnorm.safeio import MANIFEST

SMALL = ["--dtypes", "float16,float32", "--methods", "one-pass,welford", "--n", "64",
         "--samples", "2", "--ratios", "1,100", "--eps-values", "1e-8,1e-2",
         "--constants", "1"]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("prec") / "rep"
    import contextlib
    import io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["precision", *SMALL, "-o", str(out)]) == 0
    return out, buf.getvalue()


def test_writes_every_file(report: tuple[Path, str]) -> None:
    out, printed = report
    names = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()
             and p.name != MANIFEST}
    figs = {f"figures/precision_{kind}_{cfg}.{ext}" for kind in ("variance", "eps")
            for cfg in ("float16", "float16_float32", "float32") for ext in ("svg", "png", "csv")}
    assert names == {"precision.md", "precision.html", "precision.tex", "precision.json",
                     "precision.csv"} | figs
    assert printed.rstrip().endswith(f"report: {out / 'precision.html'}")


def test_terminal_tables_name_every_configuration_and_method(report: tuple[Path, str]) -> None:
    _, printed = report
    for cfg in ("float16", "float16 (float32 arithmetic)", "float32"):
        assert f"== {cfg}: variance relative error" in printed
        assert f"== {cfg}: normalized output error" in printed
    assert "one-pass" in printed and "welford" in printed
    assert "PyTorch #51102" in printed  # included unless --no-51102


def test_json_is_strict_and_matches_the_csv(report: tuple[Path, str]) -> None:
    out, _ = report
    text = (out / "precision.json").read_text()
    assert "Infinity" not in text and "NaN" not in text
    data = json.loads(text)["precision"]
    rows = (out / "precision.csv").read_text().splitlines()
    # configs x cases x methods summaries; samples x that many CSV rows (+ header)
    n_cases = 2 + 1 + 2 + 2  # ratios, 51102, constant + ulp, eps values
    assert len(data["summaries"]) == 3 * n_cases * 2
    assert len(rows) == 1 + 2 * 3 * n_cases * 2
    one = next(s for s in data["summaries"] if s["config"] == "float16"
               and s["case"] == "ratio 100" and s["method"] == "one-pass")
    assert one["var_err_max"] == "inf" and one["nonfinite"] == 2  # 100^2 * 64 > 65504
    assert data["reproduce"].startswith("symnorm precision --dtypes float16,float32")


def test_html_is_self_contained(report: tuple[Path, str]) -> None:
    html = (report[0] / "precision.html").read_text()
    assert "Content-Security-Policy" in html and "<script" not in html
    assert html.count("<figure>") == 6 and "data:image/svg+xml;base64," in html


def test_latex_compiles(report: tuple[Path, str], tmp_path: Path) -> None:
    import shutil
    if not shutil.which("pdflatex"):
        pytest.skip("pdflatex is not installed")
    out = tmp_path / "tex"
    shutil.copytree(report[0], out)
    proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                           "-no-shell-escape", "precision.tex"], cwd=out, capture_output=True,
                          text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert (out / "precision.pdf").stat().st_size > 10_000  # tables and six figures
    tex = (out / "precision.tex").read_text()
    assert tex.count("\\includegraphics") == 6 and "v\\_hat" in tex


def test_figure_csv_has_one_column_per_method(report: tuple[Path, str]) -> None:
    head = (report[0] / "figures/precision_variance_float32.csv").read_text().splitlines()
    assert head[0] == "ratio,one-pass,welford,guide: u (mean/spread)^2"
    assert [line.split(",")[0] for line in head[1:]] == ["1.0", "100.0"]


def test_two_runs_write_identical_files(report: tuple[Path, str], tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = report
    assert main(["precision", *SMALL, "-o", str(tmp_path / "again")]) == 0
    capsys.readouterr()
    for p in out.rglob("*"):
        if p.is_file():
            assert (tmp_path / "again" / p.relative_to(out)).read_bytes() == p.read_bytes(), p


def test_json_mode_prints_one_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["precision", *SMALL, "--no-files", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["files"] == {} and data["precision"]["params"]["n"] == 64


@pytest.mark.parametrize("args,needle", [
    (["--dtypes", "float8"], "unknown dtype 'float8'"),
    (["--dtypes", "float16,"], "--dtypes: empty entry"),
    (["--methods", "kahan"], "unknown method 'kahan'"),
    (["--n", "1"], "--n must lie in [2, 65536] (got 1)"),
    (["--n", "abc"], "argument --n: expected an integer (got 'abc')"),
    (["--samples", "0"], "--samples must lie in [1, 1000] (got 0)"),
    (["--ratios", "0.5"], "--ratios values must lie in [1, 1e9] (got 1/2)"),
    (["--ratios", "1e3x"], "--ratios: not a number: '1e3x'"),
    (["--eps", "0"], "eps values must lie in (0, 1] (got 0)"),
    (["--eps-values", "1e-3,-1"], "(got -1)"),
    (["--spread", "1/0"], "--spread: zero denominator"),
    (["--constants", "1e7"], "--constants values must lie in [1e-3, 1e4] (got 1e7)"),
    (["--accumulate", "float64"], "--accumulate must be same, float32 or both"),
    (["--n", "65536", "--samples", "1000"], "above the limit"),
    (["--seed", "-1"], "--seed must lie in [0, 2**63) (got -1)"),
])
def test_bad_arguments_exit_2_with_a_clear_message(args: list[str], needle: str, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "never"
    try:
        code = main(["precision", *args, "-o", str(out)])
    except SystemExit as exc:  # argparse's own refusals (not an integer) exit directly
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err
    assert not out.exists()  # refused before anything is written


def test_a_link_in_the_output_folder_is_refused(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rep"
    out.mkdir()
    (out / "precision.md").symlink_to(tmp_path / "elsewhere")
    assert main(["precision", *SMALL, "-o", str(out)]) == 2
    assert "symbolic link" in capsys.readouterr().err
    assert not (tmp_path / "elsewhere").exists()


def test_the_installed_command_refuses_without_a_traceback(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    proc = subprocess.run([sys.executable, "-m", "symnorm", "precision", "--dtypes", "int8",
                           "-o", str(tmp_path / "x")], capture_output=True, text=True, env=env,
                          timeout=120, check=False)
    assert proc.returncode == 2
    assert proc.stderr.strip() == ("symnorm precision: error: unknown dtype 'int8' "
                                   "(accepted: float16, bfloat16, float32, float64)")


@pytest.mark.parametrize("params", [
    {},
    {"dtypes": ("bfloat16",), "accumulate": "same", "methods": ("welford", "torch"),
     "ratios": (), "spread": "1/3", "eps": "1/7", "eps_values": (), "constants": (),
     "include_51102": False, "n": 17, "samples": 3, "seed": 9, "dps": 40},
    {"ratios": ("1", "2000/3"), "eps_spread": "1e-9", "constants": ("1/1000", "7")},
])
def test_the_printed_command_reruns_the_same_study(params: dict) -> None:
    from fractions import Fraction

    from symnorm.audit.precision import PrecisionResult, StudyParams
    from symnorm.audit.precision_report import reproduce
    from symnorm.cli import build_parser
    from symnorm.commands.precision import params_from_args

    rational = {"ratios", "spread", "eps", "eps_values", "eps_spread", "constants"}

    def exact(k: str, v):
        if k not in rational:
            return v
        return tuple(Fraction(x) for x in v) if isinstance(v, tuple) else Fraction(v)
    p = StudyParams(**{k: exact(k, v) for k, v in params.items()})
    line = reproduce(PrecisionResult(p, [], []))
    words = line.split()
    assert words[:2] == ["symnorm", "precision"]
    assert params_from_args(build_parser().parse_args(words[1:])) == p
