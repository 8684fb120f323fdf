"""The report model and its printers, over verdicts built by hand (no checker involved)."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from symnorm.check.verdict import DocumentResult, Verdict
from symnorm.lang.syntax import Figure, Pos
from symnorm.report.build import figure_requests, write_report
from symnorm.report.html import HtmlPrinter
from symnorm.report.latex import LatexPrinter
from symnorm.report.markdown import MarkdownPrinter, code_span
from symnorm.report.model import (
    ClaimCard,
    FigureBlock,
    Heading,
    Prose,
    SourceBlock,
    build_model,
    statement_latex,
)
from symnorm.safeio import MANIFEST

DOC = """# Demo derivation

The map $\\mathcal N_\\epsilon(x) = \\frac{c}{s}$ and

$$
J = \\frac{P}{s} - \\frac{c c^\\top}{d s^3}
$$

```symnorm
use layernorm
claim radial: J*c == eps/s**3*c
claim wrong: J*c == c/s
```

Between the blocks.

```python
print("not a claim block")
```

```symnorm
figure batch_flip points=5
```
"""


def verdicts() -> list[Verdict]:
    return [
        Verdict("demo.md", 11, "radial", "J*c == eps/s**3*c", "proved", scope="every d >= 2",
                assumptions=["eps > 0"], engine="any-d",
                steps=[{"text": "left side in the basis {1, c}",
                        "latex": r"\frac{\epsilon}{s^3} c"},
                       {"text": "difference", "latex": "0"}],
                evidence=[{"d": 3, "point": {"x": ["1", "2", "4"], "eps": "1/10"}, "dps": 50,
                           "second_dps": 70, "lhs": "0.1", "rhs": "0.1", "digits": 50.0,
                           "result": "agree"}]),
        Verdict("demo.md", 12, "wrong", "J*c == c/s", "refuted", scope="d = 3",
                counterexample={"x": ["1", "2", "4"], "eps": "1/10"}, engine="explicit",
                message="sides differ"),
        Verdict("demo.md", 99, "stray", "x == x", "undecided", message="time limit"),
    ]


FIGURE = Figure("batch_flip", (("points", "5"),), Pos(22, 1))  # as the checker collects it


def result(figures: list | None = None) -> DocumentResult:
    return DocumentResult("demo.md", verdicts(), [FIGURE] if figures is None else figures,
                          1.25)


def test_items_follow_document_order() -> None:
    m = build_model(DOC, result(), date="2026-01-01")
    kinds = [type(i).__name__ for i in m.items]
    assert kinds == ["Prose", "SourceBlock", "ClaimCard", "ClaimCard", "Prose", "SourceBlock",
                     "Heading", "ClaimCard"]
    cards = [i for i in m.items if isinstance(i, ClaimCard)]
    assert [(c.number, c.verdict.label) for c in cards] == [(1, "radial"), (2, "wrong"),
                                                            (3, "stray")]
    assert m.title == "Demo derivation"
    assert m.summary["proved"] == 1 and m.summary["refuted"] == 1 and m.summary["undecided"] == 1
    prose = [i for i in m.items if isinstance(i, Prose)]
    assert prose[0].line == 1 and "Between the blocks." in prose[1].source
    assert isinstance(m.items[6], Heading)
    assert isinstance(m.items[1], SourceBlock) and m.items[1].line == 9


def test_figures_are_placed_in_their_block() -> None:
    fig = FigureBlock(1, "batch_flip", "T", "C", {"svg": "figures/batch_flip.svg"}, "<svg/>",
                      22)
    m = build_model(DOC, result(), figures=[fig], date="")
    assert m.items.index(fig) == 6  # after the second symnorm block, before "Further claims"


def test_figure_requests_come_from_the_checker() -> None:
    assert figure_requests(result()) == [("batch_flip", (("points", "5"),), 22)]
    node = Figure("eps_scale", (("d", "3"),), Pos(5, 1))
    assert figure_requests(result([node])) == [("eps_scale", (("d", "3"),), 5)]
    assert figure_requests(result([])) == []


def test_statement_latex_prefers_safe_own_latex_then_the_parse_tree() -> None:
    own = Verdict("f", 1, "a", "x == x", "proved", latex=r"\frac{a}{b} = c")
    assert statement_latex(own) == r"\frac{a}{b} = c"
    hostile = Verdict("f", 1, "a", "J*c == eps/s**3*c", "proved", latex=r"\input{x}")
    tex = statement_latex(hostile)
    assert tex is not None and r"\input" not in tex and r"\frac{\epsilon}{s^{3}}" in tex
    authored = Verdict("f", 1, "a", "c == P * x", "proved", origin="latex", source="c=Px")
    assert statement_latex(authored) == "c=Px"
    hostile_source = Verdict("f", 1, "a", "c == P * x", "proved", origin="latex",
                             source=r"c=Px\input{x}")
    assert statement_latex(hostile_source) == r"c = P\,x"
    given = Verdict("f", 1, "a", "BN(0; [0, 2]) < -199/200 given eps == 1/100", "proved")
    assert statement_latex(given) == (
        r"\mathrm{BN}\left(0;\ \left\{0, 2\right\}\right) < \frac{-199}{200}"
        r"\quad\text{given } \epsilon = \frac{1}{100}")
    unparsable = Verdict("f", 1, "a", "J*c == == )", "error")
    assert statement_latex(unparsable) is None


def test_html_has_a_badge_math_and_tables_per_claim() -> None:
    html = HtmlPrinter().doprint(build_model(DOC, result(), date="2026-01-01"))
    for status, word in (("proved", "PROVED"), ("refuted", "REFUTED"),
                         ("undecided", "UNDECIDED")):
        assert re.search(rf'<span class="badge st-{status}"[^>]*>[^<]*{word}</span>', html)
    assert html.count('<article class="claim') == 3
    assert html.count("<math") >= 3 + 2  # prose math + statements + steps
    # collapsed evidence under its summary, a result column, the point typeset (eps = 1/10)
    assert '<details class="evidence"><summary>Numeric evidence: 1 point at d = 3 agrees to 50 '\
        "digits (each compared at 50 and 70 digits)</summary>" in html
    assert "<th>result</th>" in html and ">agrees</span>" in html
    assert "<mfrac><mrow><mn>1</mn></mrow><mrow><mn>10</mn></mrow></mfrac>" in html
    assert '<table class="counterexample">' in html
    assert "<code>symnorm check demo.md --only wrong</code>" in html
    assert "<script" not in html and "http://" not in html.replace(
        "http://www.w3.org/1998/Math/MathML", "")
    assert "2026-01-01" in html


def test_a_proved_claims_example_is_a_witness() -> None:
    v = Verdict("f", 1, "differs", "x != y", "proved", counterexample={"x": "1", "y": "2"})
    page = HtmlPrinter().doprint(build_model("", DocumentResult("f", [v]), date=""))
    assert "<caption>Witness</caption>" in page and "Counterexample" not in page


def test_markdown_has_math_and_gfm_tables() -> None:
    md = MarkdownPrinter().doprint(build_model(DOC, result(), date="2026-01-01"))
    assert "#### \u2713 PROVED \u2014 Claim 1 `radial`" in md
    assert "$$\n\\frac{\\epsilon}{s^{3}}" not in md  # statements print as one relation
    assert "$$\nJ\\,c = \\frac{\\epsilon}{s^{3}}\\,c\n$$" in md
    assert "| d | point | left side | right side | digits | result |" in md
    assert "<details><summary>Numeric evidence: 1 point at d = 3 agrees to 50 digits" in md
    assert "**Counterexample**" in md and "| `x` | $\\left(1,\\ 2,\\ 4\\right)^\\top$ |" in md
    prose = DOC.split("```symnorm")[0].rstrip("\n").split("\n")
    quoted = "\n".join("> " + ln if ln.strip() else ">" for ln in prose)
    assert quoted in md  # prose kept, as a quotation the report's own lines never are


def test_code_span_survives_backticks_and_pipes() -> None:
    assert code_span("a`b") == "``a`b``"
    assert code_span("`x`") == "`` `x` ``"
    assert code_span("a|b") == "`a\\|b`"


def test_latex_document_structure() -> None:
    tex = LatexPrinter().doprint(build_model(DOC, result(), date="2026-01-01"))
    assert tex.startswith("\\documentclass") and tex.rstrip().endswith("\\end{document}")
    assert tex.count("\\begin{") == tex.count("\\end{")
    assert "\\fitmath{J = \\frac{P}{s} - \\frac{c c^\\top}{d s^3}}" in tex
    assert "\\badge{strefuted}{REFUTED}" in tex


def test_json_matches_the_check_schema(tmp_path: Path) -> None:
    files = write_report(DOC, result(), tmp_path, date="2026-01-01")
    data = json.loads(files["evidence.json"].read_text())
    assert [c["label"] for c in data["claims"]] == ["radial", "wrong", "stray"]
    assert data["claims"][0] == {**verdicts()[0].to_json()}
    assert list(data["claims"][0])[:5] == ["file", "line", "label", "statement", "status"]
    assert data["summary"] == {"proved": 1, "proved-for": 0, "confirmed": 0, "defined": 0,
                               "refuted": 1,
                               "undecided": 1, "error": 0}
    assert {"symnorm", "sympy", "mpmath"} <= set(data["versions"])
    assert data["date"] == "2026-01-01" and data["exit_code"] == 1
    assert data["figures"][0]["files"]["csv"] == "figures/batch_flip.csv"
    assert sorted(p.name for p in (tmp_path / "figures").iterdir() if p.name != MANIFEST) == [
        "batch_flip.csv", "batch_flip.png", "batch_flip.svg"]


def test_two_runs_give_identical_files(tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01
    a = write_report(DOC, result(), tmp_path / "a")
    b = write_report(DOC, result(), tmp_path / "b")
    for name in a:
        assert a[name].read_bytes() == b[name].read_bytes(), name
    for f in (tmp_path / "a" / "figures").iterdir():
        assert f.read_bytes() == (tmp_path / "b" / "figures" / f.name).read_bytes(), f.name
    assert "2026-01-01" in a["report.html"].read_text()


def test_only_the_date_differs_between_days(tmp_path: Path) -> None:
    a = write_report(DOC, result(), tmp_path / "a", date="2026-01-01")
    b = write_report(DOC, result(), tmp_path / "b", date="2026-01-02")
    for name in a:
        left = a[name].read_text().replace("2026-01-01", "DATE")
        assert left == b[name].read_text().replace("2026-01-02", "DATE"), name


def test_error_without_statement_shows_its_source_line() -> None:
    doc = "```symnorm\nclaim bad: J*q == 0\n```\n"
    v = Verdict("f", 2, "bad", "", "error", message="unknown name 'q'")
    page = HtmlPrinter().doprint(build_model(doc, DocumentResult("f", [v]), date=""))
    assert '<div class="statement math-block"><code class="tex">claim bad: J*q == 0</code></div>' \
        in page
    md = MarkdownPrinter().doprint(build_model(doc, DocumentResult("f", [v]), date=""))
    assert "```text\nclaim bad: J*q == 0\n```" in md


def test_evidence_values_are_formatted_exactly() -> None:
    v = Verdict("f", 1, "a", "x == x", "confirmed",
                evidence=[{"d": 2, "point": {"b": Fraction(1, 3)}, "dps": 50, "lhs": 0.5,
                           "rhs": "0.5", "digits": 49.7, "result": "agree"}])
    html = HtmlPrinter().doprint(build_model("```symnorm\nclaim a: x == x\n```\n",
                                             DocumentResult("f", [v]), date=""))
    # the point typeset exactly (b = 1/3), the value with its full text on hover, the digits
    assert "<mi>b</mi><mo>=</mo><mfrac><mrow><mn>1</mn></mrow><mrow><mn>3</mn>" in html
    assert '<span title="0.5"><math' in html and "<td>49.7</td>" in html


def test_docs_describe_every_figure_and_option() -> None:
    from symnorm.report.figures import FIGURES

    doc = (Path(__file__).resolve().parents[1] / "docs" / "report.md").read_text()
    for kind in FIGURES.values():
        row = next((line for line in doc.splitlines() if line.startswith(f"| `{kind.name}`")),
                   "")
        assert row, kind.name
        for option in kind.options:
            assert f"`{option}`" in row, (kind.name, option)
