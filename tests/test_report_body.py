"""The report body as a reviewer reads it: evidence tables, derivation steps, status, reproduce.

Verdicts are built by hand (no checker), so each test states exactly what the printers get.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from symnorm.check.verdict import DocumentResult, Verdict
from symnorm.report.build import path_from
from symnorm.report.evidence import evidence_rows, evidence_summary, value_tex
from symnorm.report.html import HtmlPrinter
from symnorm.report.latex import LatexPrinter, needs_xelatex
from symnorm.report.markdown import MarkdownPrinter
from symnorm.report.mathml import to_mathml
from symnorm.report.model import ClaimCard, build_model, reproduce_for, status_sentence
from symnorm.report.steps import wrap_math

DOC = "# T\n\n```symnorm\nuse layernorm\nclaim a: J*c == eps/s**3*c\nclaim b: x == x\n```\n"
PRINTERS = (HtmlPrinter, MarkdownPrinter, LatexPrinter)


def row(point: dict, lhs: str = "0.5", result: str = "agree", d: int = 3,
        digits: float = 50.0) -> dict:
    return {"d": d, "point": {"d": str(d), **point}, "dps": 50, "second_dps": 70,
            "lhs": lhs, "rhs": lhs, "digits": digits, "result": result}


def cards(*verdicts: Verdict, **kw) -> list[ClaimCard]:
    m = build_model(DOC, DocumentResult("t.md", list(verdicts)), date="", **kw)
    return [i for i in m.items if isinstance(i, ClaimCard)]


def render(*verdicts: Verdict, **kw) -> dict[str, str]:
    m = build_model(DOC, DocumentResult("t.md", list(verdicts)), date="", **kw)
    return {p.filename: p().doprint(m) for p in PRINTERS}


# --- evidence ------------------------------------------------------------------------------

def test_identical_samples_make_one_row() -> None:
    same = row({"eps": "1/100"})
    rows = evidence_rows([same] * 24 + [row({"eps": "1/10"})])
    assert len(rows) == 2 and [r.samples for r in rows] == [24, 1]
    assert evidence_summary(rows) == ("2 points at d = 3 agree to 50 digits (each compared "
                                      "at 50 and 70 digits)")


def test_rows_differ_by_point_or_result_only() -> None:
    rows = evidence_rows([row({"eps": "0"}), row({"eps": "0"}, result="unclear"),
                          row({"eps": "0"}, d=4)])
    assert len(rows) == 3  # a different result or d is a different row, never merged away


def test_summary_names_every_kind_of_row() -> None:
    rows = evidence_rows([row({"x": ["1", "2"]}, d=2), row({"x": ["1", "2", "3"]}, d=3),
                          row({"x": ["5", "1", "2", "3"]}, d=4, digits=48.5),
                          row({"x": ["1", "1", "1"]}, result="unclear"),
                          {**row({"x": ["2", "2", "2"]}, result="singular"),
                           "reason": "division by zero"},
                          row({"x": ["9", "1", "1"]}, result="differ")])
    assert evidence_summary(rows) == (
        "3 points at d = 2..4 agree to 48.5 digits; 1 point differs; 1 point unclear "
        "(neither agreement nor a difference stable across precisions); 1 point skipped "
        "where the claim is not defined (singular or not real) (each compared at 50 and 70 "
        "digits)")
    assert [r.word for r in rows][3:] == ["unclear", "skipped: singular", "differs"]


def test_inequality_rows_say_the_relation_holds() -> None:
    rows = evidence_rows([row({"eps": "1/100"}, digits=0.0)])
    assert evidence_summary(rows).startswith("1 point at d = 3 satisfies the relation")


def test_a_row_without_a_result_is_never_called_agreement() -> None:
    bare = {"d": 2, "point": {"b": "1"}, "lhs": "1", "rhs": "1", "digits": 50.0}
    assert evidence_rows([bare])[0].result == "unclear"


@pytest.mark.parametrize(("text", "tex"), [
    ("0.66666666666666666667", "0.666667"),
    ("-0.7071067811865475244", "-0.707107"),
    ("1.0", "1"), ("0.0", "0"), ("-3.0", "-3"), ("50", "50"),
    ("-1.3758210268297397764e-135", r"-1.37582 \times 10^{-135}"),
    ("123456789.5", r"1.23457 \times 10^{8}"),
    ("-21/5", r"-\frac{21}{5}"),
    ("[['1.0'], ['-1.0']]", r"\left(1,\ -1\right)^\top"),
    ("[['0.5', '-0.5'], ['-0.5', '0.5']]", (r"\begin{pmatrix}0.5 & -0.5 \\ -0.5 & 0.5"
                                           r"\end{pmatrix}")),
    (["1", "2"], r"\left(1,\ 2\right)^\top"),
    ([["1", "2"]], r"\left(1,\ 2\right)"),
])
def test_values_are_typeset_to_six_digits(text: object, tex: str) -> None:
    assert value_tex(text) == tex


@pytest.mark.parametrize("text", ["nan", "__import__('os')", "1e5e5", "[['1', 'x']]",
                                  "\\input{x}", "[1, 2", ""])
def test_anything_else_is_not_typeset(text: str) -> None:
    assert value_tex(text) is None


def test_long_vectors_are_elided() -> None:
    tex = value_tex([str(k) for k in range(1, 11)])
    assert tex == r"\left(1,\ 2,\ 3,\ 4,\ \cdots,\ 10\right)^\top"


def test_tables_have_a_result_column_and_full_values_on_hover() -> None:
    v = Verdict("t.md", 5, "a", "J*c == eps/s**3*c", "proved", engine="any-d",
                scope="every d >= 2",
                evidence=[row({"x": ["1", "2", "4"], "eps": "1/10"},
                              lhs="[['0.66666666666666666667'], ['0.1']]")] * 4
                + [{**row({"x": ["1", "1", "1"], "eps": "0"}, lhs="", result="singular"),
                    "reason": "division by zero"}])
    out = render(v)
    page = out["report.html"]
    assert page.count("<tr><td>3</td>") == 2  # one row per distinct point
    assert "<th>result</th>" in page and ">agrees</span> (4 samples)" in page
    assert 'title="division by zero">skipped: singular</span>' in page
    assert 'title="(0.66666666666666666667, 0.1)"' in page  # every digit, on hover
    assert "<details class=\"evidence\"><summary>" in page  # collapsed by default
    assert "<details class=\"evidence\" open" not in page
    md = out["report.md"]
    assert "| d | point | left side | right side | digits | result |" in md
    assert r"$\left(0.666667,\ 0.1\right)^\top$" in md
    assert md.count("| 3 |") == 2 and "skipped: singular" in md
    tex = out["report.tex"]
    assert "skipped: singular" in tex and r"$\left(0.666667,\ 0.1\right)^\top$" in tex


# --- derivation steps ----------------------------------------------------------------------

#: What SymPy's str() and the engines' plain text look like: powers, calls, Gram brackets
RAW = re.compile(r"[\w)]\*\*[\w(]|sqrt\(|<ones|ones\*|\.T\b|\bI \+ \(|<x,")


def test_steps_print_once_as_maths_with_a_sentence() -> None:
    from symnorm.check.run import check_parsed
    from symnorm.lang.document import parse_text

    doc = parse_text(DOC, "t.md")
    result = check_parsed(doc, timeout=60)
    m = build_model(DOC, result, date="")
    card = next(i for i in m.items if isinstance(i, ClaimCard))
    assert card.verdict.status == "proved" and len(card.steps) >= 3
    for text, tex in card.steps:
        assert text and text[0].isupper() and not RAW.search(text), text
    left = next(tex for text, tex in card.steps if text.startswith("Write the left side"))
    assert left and left.removeprefix(r"\begin{array}{l}").startswith(r"J\,c = ")  # named
    assert card.legend  # the first use of the Gram notation explains it
    # the recurring square root is named once, and the conclusion names the identity used
    assert card.steps[0] == ("Abbreviate the square root that recurs:",
                             (r"s = \sqrt{\epsilon + v},\quad v = \frac{- \frac{\langle x, "
                             r"\mathbf{1}\rangle^{2}}{d} + \langle x, x\rangle}{d}"))
    assert left == (r"J\,c = \left(\frac{1}{s} - \frac{v}{s^{3}}\right)x - \left(\frac{"
                    r"\langle x, \mathbf{1}\rangle}{d s} - \frac{\langle x, \mathbf{1}"
                    r"\rangle v}{d s^{3}}\right)\mathbf{1}")
    derivative = next(tex for text, tex in card.steps if text.startswith("Differentiate"))
    assert derivative and derivative.removeprefix(r"\begin{array}{l}{\displaystyle ").startswith(
        r"\frac{\partial}{\partial x}\left(\frac{\left(I - ")  # what is differentiated
    assert card.steps[-1][1] == (r"s^{2} = \epsilon + v\ \Rightarrow\ \text{left} - "
                                 r"\text{right} = 0")
    for printer in PRINTERS:
        out = printer().doprint(m)
        body = out.split("How it was reached", 1)[1]
        assert not RAW.search(body.split("Numeric evidence", 1)[0]), printer.filename
        tex = card.steps[1][1]
        needle = to_mathml(tex, True) if printer is HtmlPrinter else tex
        assert out.count(needle) == 1, printer.filename  # each step once, as maths
        assert "inner products as Gram symbols" in out


def test_the_legend_appears_once() -> None:
    step = {"text": "Write the left side:", "latex": r"\langle x, \mathbf{1}\rangle"}
    a = Verdict("t.md", 5, "a", "x == x", "proved", engine="any-d", steps=[step])
    b = Verdict("t.md", 6, "b", "x == x", "proved", engine="any-d", steps=[step])
    assert [c.legend for c in cards(a, b)] == [True, False]
    for text in render(a, b).values():
        assert text.count("Gram symbols") == 1


def test_long_sums_wrap_into_lines() -> None:
    term = r"\frac{\langle x, \mathbf{1}\rangle^{2}}{d \sqrt{\epsilon + v}}"
    long = " + ".join([term] * 6)
    wrapped = wrap_math(long, width=40)
    assert wrapped.startswith(r"\begin{array}{l}") and wrapped.count(r"\\") >= 2
    assert wrap_math(r"\frac{" + long + "}{2}") == r"\frac{" + long + "}{2}"  # no top-level +


def test_a_claim_without_steps_says_how_it_was_reached() -> None:
    smt = Verdict("t.md", 5, "a", "x == x", "proved", engine="smt (z3, confirmed by cvc5)",
                  scope="all values of the free symbols")
    exact = Verdict("t.md", 6, "b", "x == x", "proved", engine="exact",
                    scope="exact evaluation (no free symbols)")
    a, b = cards(smt, exact)
    assert "z3" in a.steps[0][0] and "cvc5" in a.steps[0][0]
    assert "exact arithmetic" in b.steps[0][0]


# --- status sentence -----------------------------------------------------------------------

@pytest.mark.parametrize(("engine", "scope", "sentence"), [
    ("any-d", "every d >= 2", "proved symbolically by the any-d engine for every d >= 2"),
    ("explicit", "d = 2", "proved exactly in coordinates by the explicit engine for d = 2"),
    ("exact", "exact evaluation (no free symbols)",
     "proved by exact evaluation (exact evaluation (no free symbols))"),
    ("smt (z3, confirmed by cvc5)", "all values of the free symbols",
     "proved by the SMT step (z3, confirmed by cvc5) for all values of the free symbols"),
    ("any-d", "all values of the other symbols at t = 3",
     "proved symbolically by the any-d engine for all values of the other symbols at t = 3"),
])
def test_status_sentence_is_the_scope_word_for_word(engine: str, scope: str,
                                                    sentence: str) -> None:
    v = Verdict("t.md", 5, "a", "x == x", "proved", engine=engine, scope=scope)
    assert status_sentence(v) == sentence
    for text in render(v).values():
        assert "every dimension" not in text  # only what the scope says


# --- reproduce commands --------------------------------------------------------------------

def test_the_built_in_paper_is_reproduced_with_paper() -> None:
    v = Verdict("symnorm/data/paper.md", 5, "a b", "x == x", "proved")
    assert reproduce_for(None, paper=True)(v) == "symnorm check --paper --only 'a b'"
    card = cards(v, reproduce=reproduce_for(None, paper=True))[0]
    assert card.reproduce == "symnorm check --paper --only 'a b'"


def test_a_user_document_is_reproduced_from_the_report_folder(tmp_path: Path) -> None:
    doc = tmp_path / "notes" / "my doc.md"
    out = tmp_path / "notes" / "out"
    rel = path_from(out, doc)
    assert rel == os.path.join("..", "my doc.md")
    assert (out / rel).resolve() == doc.resolve()  # it names the document from there
    far = path_from(tmp_path / "a" / "b" / "c" / "d", doc)
    assert os.path.isabs(far) and Path(far) == doc  # too far up: absolute
    v = Verdict("notes/my doc.md", 5, "a", "x == x", "proved")
    assert reproduce_for(rel)(v) == "symnorm check '../my doc.md' --only a"


def test_report_document_writes_commands_that_work_from_its_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from symnorm.report.build import report_document

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "d.md").write_text(DOC.replace("J*c == eps/s**3*c", "P*P == P"))
    monkeypatch.chdir(tmp_path)
    report_document("docs/d.md", "out/r", timeout=60)
    md = (tmp_path / "out" / "r" / "report.md").read_text()
    assert "`symnorm check ../../docs/d.md --only a`" in md
    assert (tmp_path / "out" / "r" / "../../docs/d.md").resolve().is_file()


# --- CJK -----------------------------------------------------------------------------------

def test_cjk_text_switches_report_tex_to_xelatex() -> None:
    cjk = "# 归一化改变学习的几何\n\n一个已声明的解析模型。\n"
    v = Verdict("t.md", 5, "a", "x == x", "proved")
    m = build_model(cjk, DocumentResult("t.md", [v]), date="")
    assert needs_xelatex(m)
    tex = LatexPrinter().doprint(m)
    assert r"\usepackage{xeCJK}" in tex and "inputenc" not in tex
    assert "归一化改变学习的几何" in tex and "[U+5F52]" not in tex
    latin = build_model("# T\n\ncaf\u00e9\n", DocumentResult("t.md", [v]), date="")
    assert not needs_xelatex(latin)
    plain = LatexPrinter().doprint(latin)
    assert r"\usepackage[utf8]{inputenc}" in plain and "xeCJK" not in plain
    assert "[U+00E9]" in plain  # pdfLaTeX output stays ASCII


def test_html_names_cjk_fonts() -> None:
    page = render(Verdict("t.md", 5, "a", "x == x", "proved"))["report.html"]
    css = page.split("<style>", 1)[1].split("</style>", 1)[0]
    for font in ("Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei"):
        assert f'"{font}"' in css
    assert "math[display=block]{margin:.3rem 0}" in css  # no overflow on the math itself
    assert ".math-block{overflow-x:auto;overflow-y:hidden" in css


def test_counterexample_values_are_typeset_and_text_stays_text() -> None:
    v = Verdict("t.md", 5, "a", "x == x", "refuted", engine="numeric", scope="d = 2",
                counterexample={"eps": "9/2", "x": ["0", "5"],
                                "lhs": "[['-0.92057461789832336643'], ['0.92']]",
                                "confirmed_at_dps": [50, 70],
                                "proof": "the sides differ at [['1']] exactly"})
    out = render(v)
    page = out["report.html"]
    assert '<span title="[[&#x27;-0.92057461789832336643&#x27;], [&#x27;0.92&#x27;]]">' \
        "<math" in page  # typeset, every digit on hover
    assert '<td class="num">(50, 70)</td>' in page  # precisions are a list, not a vector
    assert '<td class="num">the sides differ at [[&#x27;1&#x27;]] exactly</td>' in page
    assert r"| `x` | $\left(0,\ 5\right)^\top$ |" in out["report.md"]
    assert r"$\frac{9}{2}$" in out["report.tex"]


def test_evidence_rows_stay_inside_the_claims_assumptions() -> None:
    """Sampled and skipped points alike satisfy `assume`, `document assume` and `given`."""
    from fractions import Fraction

    from symnorm.check.run import check_parsed
    from symnorm.lang.document import parse_text

    doc = ("# T\n\n```symnorm\nuse layernorm\nassume eps >= 0\n"
           "claim a: J*c == eps/s**3*c\nclaim b: BN(0; [0, b]) == -b/sqrt(b**2 + 4*eps)\n```\n"
           "\n```symnorm\nuse layernorm\nscalar b\ndocument assume eps > 0\n"
           "claim c: N(x + b*ones) == N(x)\n```\n"
           "\n```symnorm\nuse layernorm\nclaim e: N(x) == c/s given eps >= 1/2\n```\n")
    result = check_parsed(parse_text(doc.replace("BN(0; [0, b])", "BN(0; [0, 2])")
                                     .replace("-b/sqrt(b**2", "-2/sqrt(4"), "t.md"), timeout=60)
    low = {"a": 0, "b": 0, "c": 0, "e": Fraction(1, 2)}
    for v in result.verdicts:
        assert v.status == "proved", (v.label, v.status, v.message)
        assert v.evidence, v.label
        for r in v.evidence:
            eps = Fraction(r["point"]["eps"])
            assert eps >= low[v.label] and (v.label != "c" or eps > 0), (v.label, r)


@pytest.mark.parametrize(("scope", "sentence"), [
    ("witness", ("proved by an exhibited witness, an exact point where the two sides differ, "
                "re-verified in exact arithmetic")),
    ("witness at d = 2", ("proved by an exhibited witness, an exact point where the two sides "
                         "differ (at d = 2), re-verified in exact arithmetic")),
])
def test_a_witness_says_where_it_was_found(scope: str, sentence: str) -> None:
    v = Verdict("t.md", 5, "a", "x != y", "proved", engine="numeric witness", scope=scope)
    assert status_sentence(v) == sentence


@pytest.mark.slow  # checks the whole paper derivation
def test_the_paper_report_reads_as_maths_in_every_format(tmp_path: Path) -> None:
    from symnorm.report.build import PAPER, report_document

    files, result = report_document(PAPER, tmp_path / "out")
    md = files["report.md"].read_text(encoding="utf-8")
    tex = files["report.tex"].read_text(encoding="utf-8")
    author_md = re.sub(r"~~~symnorm.*?~~~|`[^`]*`", "", md, flags=re.DOTALL)
    author_tex = re.sub(r"\\begin\{flushleft\}\\ttfamily.*?\\end\{flushleft\}|\\texttt\{[^}]*\}",
                        "", tex, flags=re.DOTALL)
    for name, text in (("report.md", author_md), ("report.tex", author_tex)):
        assert not RAW.search(text) and "[['" not in text, (name, RAW.search(text))
    labels = [v.label for v in result.verdicts]
    assert md.count("**How it was reached**") == len(labels)  # every claim says how
    assert md.count("<details><summary>Numeric evidence: ") == len(labels)
    for label in labels:
        assert f"`symnorm check --paper --only {label}`" in md
    assert r"\usepackage{xeCJK}" in tex  # the title is Chinese
    assert "every dimension" not in md


def test_digits_are_shown_for_agreement_only() -> None:
    rows = evidence_rows([row({"b": "1"}, digits=50.0), row({"b": "2"}, digits=48.54),
                          row({"b": "3"}, result="differ", digits=-0.3),
                          row({"b": "4"}, digits=0.0)])
    assert [r.shown_digits for r in rows] == ["50", "48.5", "", ""]
