"""`symnorm report` end to end, with the real checker."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from symnorm.cli import main
from symnorm.report.build import PAPER
from symnorm.safeio import MANIFEST

DOC = """# Small derivation

Two claims about the centered map $\\mathcal N_\\epsilon$.

```symnorm
use layernorm
claim mean: J*ones == 0
claim wrong: J*c == c/s
figure batch_flip points=9
```
"""


@pytest.fixture(scope="module")
def doc(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "small.md"
    path.write_text(DOC, encoding="utf-8")
    return path


def test_report_writes_every_file_and_prints_the_html_path(
        doc: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rep"
    assert main(["report", str(doc), "-o", str(out)]) == 0
    printed = capsys.readouterr().out.strip()
    assert printed == str(out / "report.html")
    names = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert names == {"report.html", "report.md", "report.tex", "evidence.json",
                     "figures/batch_flip.svg", "figures/batch_flip.png",
                     "figures/batch_flip.csv",
                     # the manifests of what symnorm wrote (safeio.MANIFEST)
                     ".symnorm-files", "figures/.symnorm-files"}
    data = json.loads((out / "evidence.json").read_text())
    assert [(c["label"], c["status"]) for c in data["claims"]] == [("mean", "proved"),
                                                                  ("wrong", "refuted")]
    html = (out / "report.html").read_text()
    assert "\u2717 REFUTED" in html and "\u2713 PROVED" in html
    assert "Counterexample" in html


def test_evidence_json_has_the_check_json_schema(
        doc: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", "--json", str(doc)])
    checked = json.loads(capsys.readouterr().out)
    main(["report", str(doc), "-o", str(tmp_path)])
    capsys.readouterr()
    reported = json.loads((tmp_path / "evidence.json").read_text())
    assert reported["summary"] == checked["summary"]
    assert len(reported["claims"]) == len(checked["claims"])
    for mine, theirs in zip(reported["claims"], checked["claims"]):
        assert list(mine) == list(theirs)  # same keys in the same order
        mine.pop("seconds"), theirs.pop("seconds")
        assert mine == theirs
    assert {"symnorm", "sympy", "mpmath"} <= set(reported["versions"])
    assert len(reported["date"]) == 10


def test_strict_exits_like_check(doc: Path, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(doc), "-o", str(tmp_path), "--strict"]) == 1
    assert main(["report", str(doc), "-o", str(tmp_path), "--only", "mean",
                 "--strict"]) == 0


def test_user_mistakes_are_one_line_and_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(tmp_path / "missing.md"), "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("symnorm report: error: no such document") and "\n" not in err


def test_a_bad_figure_is_an_error_card_not_a_crash(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.md"
    bad.write_text("# B\n\n```symnorm\nfigure eps_scale colour=red\nfigure pie_chart\n"
                   "figure batch_flip points=5\n```\n", encoding="utf-8")
    assert main(["report", str(bad), "-o", str(tmp_path / "o")]) == 0
    data = json.loads((tmp_path / "o" / "evidence.json").read_text())
    errors = {c["label"]: c["message"] for c in data["claims"] if c["status"] == "error"}
    assert "unknown option 'colour'" in errors["figure eps_scale"]
    assert "bad.md:4" in errors["figure eps_scale"] and "accepted:" in errors["figure eps_scale"]
    assert "unknown figure 'pie_chart'" in errors["figure pie_chart"]
    assert [f["name"] for f in data["figures"]] == ["batch_flip"]  # the valid one is drawn
    html = (tmp_path / "o" / "report.html").read_text()
    assert html.count("<article class=\"claim st-error\"") == 2
    assert main(["report", str(bad), "-o", str(tmp_path / "o"), "--strict"]) == 2


@pytest.mark.slow  # checks the whole paper derivation (about 8 s)
def test_no_arguments_reports_the_paper(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    if not PAPER.is_file():
        pytest.skip("symnorm/data/paper.md is not shipped yet")
    monkeypatch.chdir(tmp_path)
    assert main(["report"]) == 0
    out = tmp_path / "symnorm-report"
    assert capsys.readouterr().out.strip() == str(Path("symnorm-report") / "report.html")
    for name in ("report.html", "report.md", "report.tex", "evidence.json"):
        assert (out / name).is_file(), name
    data = json.loads((out / "evidence.json").read_text())
    assert data["claims"] and not [c for c in data["claims"]
                                   if c["status"] in ("refuted", "error")]
    figures = {p.name for p in (out / "figures").iterdir()} - {MANIFEST}
    for name in ("eps_scale", "batch_flip"):
        assert {f"{name}.svg", f"{name}.png", f"{name}.csv"} <= figures


def test_two_runs_differ_only_in_timings(doc: Path, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("a", "b"):
        assert main(["report", str(doc), "-o", str(tmp_path / name)]) == 0
    a_files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*")
                     if p.is_file())
    assert a_files == sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*")
                             if p.is_file())
    for rel in a_files:
        left, right = (tmp_path / "a" / rel).read_bytes(), (tmp_path / "b" / rel).read_bytes()
        if rel.name == "evidence.json":
            left_json, right_json = json.loads(left), json.loads(right)
            for claim in left_json["claims"] + right_json["claims"]:
                claim.pop("seconds")
            assert left_json == right_json
        else:
            assert left == right, rel
