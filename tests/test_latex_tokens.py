"""Every token of the LaTeX subset contributes to the meaning or is an error that names it.

Tested by mutation: for each construct of the subset (docs/latex.md), a token is changed
(subscript, bound, index, decoration, argument) and the test shows that the reading changes
(the "read as" form ``symnorm check -v`` prints) or that an error names the token.  The
second half checks the verdicts of the silent misreadings of issue 9 (function subscripts,
sum bounds, differentials, a function's body using the document's x) and the ``defined``
status that keeps definitions visible.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from symnorm.check.run import check_text
from symnorm.check.verdict import DEFINED, PROVED, STATUSES, check_payload, exit_code, summarize
from symnorm.errors import SourceError
from symnorm.lang.document import parse_text

ROOT = Path(__file__).resolve().parent.parent

VOCAB = ("```symnorm\nuse layernorm\nscalar a, b, m, gamma, beta, x_1, x_2, mu_B, mu_C, "
         "xhat, xbar, xtilde\nvector y, u, dl_dxhat, dl_dxbar\nlet n = d\n```\n")
PLAIN = "```symnorm\nvector x, y\nscalar a, b, eps\n```\n"


def reading(latex: str, head: str = VOCAB) -> str | SourceError:
    """How one equation was read (definitions, claims and their assumptions) or its error."""
    doc = parse_text(head + f"\n```latex t\n{latex}\n```\n", "t.md")
    if doc.errors:
        return doc.errors[0]
    defs = [d.text for d in doc.definitions]
    claims = [c.statement + "".join(f" assuming {a}" for a in c.assumption_text)
              for c in doc.scope.claims if c.label.startswith("t")]
    return " ; ".join(defs + claims)


# (original, mutant): the original is read; the mutant is read differently
CHANGES = [
    (r"J\mathbf1=0", r"J\mathbf0=0"),                                     # ones / zero
    (r"J\mathbf1=0", r"J\mathbb1=0"),                                     # (same: both ones)
    (r"a x^\top y = 0", r"a y^\top x = 0"),                               # transpose operand
    (r"a x^\top y = 0", r"a x^{\mathsf T} u = 0"),                        # argument
    (r"\|Px\|_2^2 = a", r"\|Px\|_2^3 = a"),                               # exponent
    (r"\|Px\|_2 = a", r"|a| = a"),                                        # norm / abs
    (r"\sqrt{a} = b", r"\sqrt[4]{a} = b"),                                # root index
    (r"\frac{a}{b} = 1", r"\frac{b}{a} = 1"),                             # fraction
    (r"\frac12 = a", r"\frac13 = a"),                                     # one-digit args
    (r"\hat x = a", r"\bar x = a"),                                       # accents
    (r"\hat x = a", r"\tilde x = a"),
    (r"x_1 = a", r"x_2 = a"),                                             # name subscript
    (r"\mu_\mathcal{B} = a", r"\mu_\mathcal{C} = a"),
    (r"\mathcal N_\epsilon(x) = y", r"\mathcal N_0(x) = y"),              # map parameter
    (r"\mathcal N_\epsilon(x) = y", r"\mathcal N_{2\epsilon}(x) = y"),
    (r"\mathcal N_{4\epsilon}(x) = y", r"\mathcal N_{\epsilon}(x) = y"),
    (r"\mathcal N_0(x) = y", r"\mathcal N_1(x) = y"),
    (r"\mathcal N_{\epsilon=0}(x) = y", r"\mathcal N_{\epsilon=a}(x) = y"),
    (r"\operatorname{BN}_\epsilon(0;\{0,b\}) = a",
     r"\operatorname{BN}_0(0;\{0,b\}) = a"),
    (r"\log(a) = b", r"\log_2(a) = b"),                                   # log base
    (r"\log_2(a) = b", r"\log_3(a) = b"),
    (r"\exp(a) = b", r"\log(a) = b"),
    (r"\sum_{i=1}^{d} y_i = a", r"\sum_{i=1}^{d} u_i = a"),               # summand
    (r"\sum_i y_i u_i = a", r"\sum_i y_i y_i = a"),
    (r"\sum_{i=1}^{n} y_i = a", r"\sum_{i=1}^{n} y_i^2 = a"),
    (r"\sum_{i=0}^{d-1} y_i = a", r"\sum_{i=0}^{d-1} u_i = a"),
    (r"\langle x, y\rangle = a", r"\langle y, x\rangle = a"),             # order matters
    (r"\left( a+b \right) x = y", r"\left( a-b \right) x = y"),
    (r"0.1 = a", r"0.2 = a"),                                             # exact decimals
    (r"a = b", r"a \neq b"),                                              # relations
    (r"a \le b", r"a \ge b"),
    (r"a < b", r"a > b"),
    (r"d\,a = b", r"d\cdot b = b"),
    (r"\frac{1}{d s^3} = a", r"\frac{1}{d s^2} = a"),
    (r"\frac{\partial \ell}{\partial \hat x_i} = y_i",                    # named derivative
     r"\frac{\partial \ell}{\partial \bar x_i} = y_i"),
    (r"I_d x = y", r"I_d u = y"),
    (r"\mathbf 1_d^\top x = a", r"\mathbf 1_d^\top y = a"),
    # a prime is part of the name: x' is xprime, never x
    (r"\hat x = a", r"\hat x' = a"),
    (r"y_i = u_i", r"y'_i = u_i"),
    (r"x^{\prime} = a", r"x^{\prime\prime} = a"),
    # a gloss carries nothing, the labelled group and a math label do
    (r"\text{(sum)}\ a = b \quad \text{(gloss)}", r"\text{(sum)}\ a = m \quad \text{(gloss)}"),
    (r"a = \underbrace{b m}_{\text{(x)}}", r"a = \underbrace{b a}_{\text{(x)}}"),
    (r"a = \underbrace{b m}_{=\,m b}", r"a = \underbrace{b m}_{=\,b b}"),
    (r"a = \underbrace{b m}_{=\,m b}", r"a = \underbrace{b m}_{\text{(m b)}}"),
]


@pytest.mark.parametrize("orig, mutant", CHANGES, ids=[m for _, m in CHANGES])
def test_a_changed_token_changes_the_reading(orig: str, mutant: str) -> None:
    before, after = reading(orig), reading(mutant)
    assert isinstance(before, str), before
    if orig.replace("mathbf", "mathbb") == mutant:  # \mathbb 1 is documented as \mathbf 1
        assert after == before
        return
    assert isinstance(after, str), after
    assert after != before


# (original, mutant, text the error must contain): the mutant is refused, naming the token
REFUSED = [
    (r"J\mathbf1=0", r"J\mathbb R=0", r"\mathbb R"),
    (r"a x^{\mathsf T} y = 0", r"a x^{\mathsf S} y = 0", r"\mathsf"),
    (r"I_d x = x", r"I_b x = x", "_b"),  # (I_n is I: the document has let n = d)
    (r"\mathbf 1_d^\top x = a", r"\mathbf 1_m^\top x = a", "_m"),
    (r"\|Px\|_2 = a", r"\|Px\|_1 = a", "_1"),
    (r"\hat x = a", r"\check x = a", r"\check"),
    (r"\hat x = a", r"\hat x^{\prime 2} = a", "a prime and a power"),
    (r"\mathcal N_\epsilon(x) = y", r"\mathcal N_\gamma(x) = y", "does not depend on gamma"),
    (r"\mathcal N_\epsilon(x) = y", r"\mathcal N_{\gamma\beta}(x) = y", "gamma * beta"),
    (r"\mathcal N_0(x) = y", r"\mathcal N_{0,1}(x) = y", "at most one value"),
    (r"\mathcal N_\epsilon(x) = y", r"\mathcal N^2(x) = y", "'^' before the arguments"),
    (r"\mathcal N_\epsilon(x) = y", r"\mathcal N_{\epsilon=0,\epsilon=1}(x) = y", "twice"),
    (r"\exp(a) = b", r"\exp_2(a) = b", r"subscript on \exp"),
    (r"\sqrt{a} = b", r"\operatorname{sqrt}_2(a) = b", "subscript"),
    (r"\sum_{i=1}^{d} y_i = a", r"\sum_{i=1}^{m} y_i = a", "upper bound m"),
    (r"\sum_{i=1}^{n} y_i = a", r"\sum_{i=1}^{b} y_i = a", "upper bound b"),
    (r"\sum_{i=1}^{d} y_i = a", r"\sum_{i=2}^{d} y_i = a", "sum from 2"),
    (r"\sum_{i=1}^{d} y_i = a", r"\sum_{i=0}^{d} y_i = a", "not every entry"),
    (r"\sum_{i=0}^{d-1} y_i = a", r"\sum_{i=0}^{d-2} y_i = a", "d-2"),
    (r"\sum_{i=1}^{d} y_i = a", r"\sum_{i=1}^{d-1} y_i = a", "not every entry"),
    (r"\sum_{i=1}^{d} y_i = a", r"\sum_{i=1}^{3} y_i = a", "'3'"),
    (r"\sum^{d}_{i=1} y_i = a", r"\sum^{d}_{i=0} y_i = a", "from 0 to d is not every entry"),
    (r"d^2\,y = u", r"d^2y = u", "'dy' looks like a differential"),
    (r"\sum_i y_i = a", r"\sum_j y_i = a", "index i inside a sum over j"),
    # \sum\limits y_i is the sum over i (latex_implied_sum.py); over y_i u_j it is ambiguous
    (r"\sum\limits_i y_i u_i = a", r"\sum\limits y_i u_j = a", "which one it sums over"),
    # without the sum, y_i u_i = a is the entrywise product (hadamard(y, u) == a*ones)
    (r"\sum_i y_i u_i = a", r"y_i / u_i = a", "two indexed quantities"),
    (r"d\,y = u", r"dy = u", "'dy' looks like a differential"),
    (r"d\,y_i = u_i", r"dy_i = u_i", "'dy' looks like a differential"),
    (r"d\,\gamma = a", r"d\gamma = a", r"'d\gamma' looks like a differential"),
    (r"d\,a = b", r"\mathrm{d}a = b", "differential"),
    (r"\frac{a}{b} = 1", r"\frac{d}{dx} a = 1", "derivative notation"),
    (r"\left( a+b \right) x = y", r"\left( a+b \right] x = y", "expected ')'"),
    (r"\log(a) = b", r"\log^2(a) = b", "'^' before the arguments"),
    (r"q = a + b,\quad a = b", r"q = a + b,\quad a > 0", "qualifies no claim"),
    (r"a = b \quad \text{(gloss)}", r"a = b \text{(gloss)}", "prose"),
    (r"a = b \quad \text{(gloss)}", r"a = b \quad \text{(if b)}", "states a condition"),
    (r"a = \underbrace{b m}_{=\,m b}", r"a = \underbrace{b m}_{m b}", "neither text nor"),
]


@pytest.mark.parametrize("orig, mutant, named", REFUSED, ids=[m for _, m, _ in REFUSED])
def test_a_changed_token_is_refused_by_name(orig: str, mutant: str, named: str) -> None:
    before, after = reading(orig), reading(mutant)
    assert isinstance(before, str), before
    assert isinstance(after, SourceError), after
    assert named in str(after)
    assert after.file == "t.md" and after.line >= 1 and after.column >= 1


def test_value_subscripts_are_local_to_their_call() -> None:
    text = reading(r"\mathcal N_0(\epsilon x) = \mathcal N_{2\epsilon}(x)")
    assert text == "N[eps=0](eps * x) == N[eps=2 * eps](x)"


def test_a_subscript_on_a_definition_must_be_used_by_its_body() -> None:
    ok = reading(r"\mathcal N_\epsilon(x)=\frac{Px}{\sqrt{\|Px\|^2/d+\epsilon}}",
                 "```symnorm\nvector x\nscalar eps\nlet P = I - ones*ones.T/d\n```\n")
    assert isinstance(ok, str) and ok.startswith("let N(x) = P * x / sqrt(")
    bad = reading(r"\mathcal N_\epsilon(x)=\frac{Px}{\sqrt{\|Px\|^2/d}}",
                  "```symnorm\nvector x\nscalar eps\nlet P = I - ones*ones.T/d\n```\n")
    assert isinstance(bad, SourceError) and "does not use eps" in str(bad)
    bad = reading(r"\mathcal N_0(x)=\frac{Px}{\sqrt{\|Px\|^2/d}}",
                  "```symnorm\nvector x\nscalar eps\nlet P = I - ones*ones.T/d\n```\n")
    assert isinstance(bad, SourceError) and "value in its subscript" in str(bad)


def test_a_function_must_use_its_own_parameter() -> None:
    head = ("```symnorm\nvector x\nscalar eps\n```\n\n```latex c\n"
            "c=x-\\frac{\\mathbf1^\\top x}{d}\\mathbf1\n```\n")
    # c was defined from the document's x in an earlier equation: N would ignore its argument
    bad = reading(r"\mathcal N(x)=\frac{c}{\sqrt{c^\top c/d+\epsilon}}", head)
    assert isinstance(bad, SourceError)
    assert "uses the document's x" in str(bad) and "not the parameter x" in str(bad)
    # the same definitions in one equation are expanded into the body: accepted
    ok = reading(r"e=x-\frac{\mathbf1^\top x}{d}\mathbf1,\quad "
                 r"\mathcal N(x)=\frac{e}{\sqrt{e^\top e/d+\epsilon}}", head)
    assert isinstance(ok, str) and "let N(x) = (x - ones.T * x / d * ones) / sqrt(" in ok
    unused = reading(r"F(y) = \epsilon", head)
    assert isinstance(unused, SourceError) and "does not use the parameter y" in str(unused)


def test_plain_let_functions_get_the_same_parameter_check() -> None:
    doc = parse_text("```symnorm\nvector x\nlet c = x - ones*ones.T*x/d\n"
                     "let F(x) = c/sqrt(c.T*c)\n```\n", "t.md")
    assert doc.errors and "uses the document's x" in str(doc.errors[0])


# --- verdicts of the misreadings found by the red team (issue 9, class 3) ----------------

def verdicts(latex: str, head: str = VOCAB) -> dict[str, object]:
    result = check_text(head + f"\n```latex t\n{latex}\n```\n", "t.md", sandbox=False,
                        timeout=20.0)
    return {v.label: v for v in result.verdicts}


@pytest.mark.parametrize("latex, want", [
    (r"\mathcal N_{4\epsilon}(x)=\mathcal N_{\epsilon}(x)", "refuted"),
    (r"\mathcal N_0(3x)=\mathcal N_0(x)", "proved"),
    (r"\mathcal N_{2\epsilon}(2x)=\mathcal N_{\epsilon/2}(x)", "proved"),
    (r"\mathcal N_{\epsilon}(2x)=\mathcal N_{\epsilon/2}(x)", "refuted"),
    (r"\operatorname{BN}_0(0;\{0,b\})=\frac{-b}{\sqrt{b^2}}, b>0", "proved"),
    (r"\operatorname{BN}_\epsilon(0;\{0,b\})=\frac{-b}{\sqrt{b^2}}, b>0", "refuted"),
])
def test_function_subscripts_are_read_and_checked(latex: str, want: str) -> None:
    v = verdicts(latex)
    assert v["t.1"].status == want, (v["t.1"].status, v["t.1"].message)


def test_a_sum_up_to_a_free_bound_is_an_error_not_a_proof() -> None:
    v = verdicts(r"\sum_{i=1}^{m} x_i = \mathbf 1^\top x")
    (err,) = v.values()
    assert err.status == "error" and "upper bound m" in err.message
    v = verdicts(r"\sum_{i=1}^{n} x_i = \mathbf 1^\top x")  # n is defined as d
    assert v["t.1"].status == PROVED


# --- definitions are visible (issue 9, class 4) ------------------------------------------

DERIV = ("```symnorm\nvector x\nscalar eps, gamma, beta\nlet mu = ones.T*x/d\n"
         "let v = (x - mu*ones).T*(x - mu*ones)/d\n```\n")


def test_definitions_have_their_own_status_and_count() -> None:
    result = check_text(DERIV + "\n```latex bad\n"
                        r"w = \frac{-1}{2}" "\n```\n", "t.md", sandbox=False)
    (v,) = result.verdicts
    assert v.status == DEFINED and v.label == "bad.w"
    assert v.statement == "let w = (-1) / 2" and v.line == 9
    assert "defines w" in v.message and v.ok
    summary = summarize(result.verdicts)
    assert summary[DEFINED] == 1 and summary[PROVED] == 0
    assert exit_code(result.verdicts) == 0
    payload = check_payload(result.verdicts)
    assert payload["claims"][0]["status"] == "defined" and payload["summary"]["defined"] == 1
    assert DEFINED in STATUSES


def test_a_second_equation_for_a_defined_quantity_is_checked_against_the_first() -> None:
    text = (DERIV + "\n```latex first\n"
            r"s = \sqrt{v+\epsilon}" "\n```\n\n```latex second\n"
            r"s = \sqrt{v+2\epsilon}" "\n```\n\n```latex third\n"
            r"s \coloneqq \sqrt{v}" "\n```\n")
    result = check_text(text, "t.md", sandbox=False)
    got = {v.label: v for v in result.verdicts}
    assert got["first.s"].status == DEFINED
    assert got["second.1"].status == "refuted"  # judged against the first, never skipped
    errors = [v for v in result.verdicts if v.status == "error"]
    assert len(errors) == 1 and "redefines 's'" in errors[0].message


def test_within_one_equation_the_second_equation_for_a_name_is_a_claim() -> None:
    assert reading(r"s = \sqrt{v}, \quad s = \sqrt{v+\epsilon}", DERIV) == \
        "let s = sqrt(v) ; s == sqrt(v + eps)"
    err = reading(r"s = \sqrt{v}, \quad s := \sqrt{v+\epsilon}", DERIV)
    assert isinstance(err, SourceError) and "redefines 's'" in str(err)


def test_plain_let_statements_get_no_rows() -> None:
    result = check_text("```symnorm\nvector x\nlet c = x - ones*ones.T*x/d\n"
                        "claim z: ones.T*c == 0\n```\n", "t.md", sandbox=False)
    assert [(v.label, v.status) for v in result.verdicts] == [("z", PROVED)]


def test_check_cli_table_and_json_show_definitions(tmp_path: Path) -> None:
    f = tmp_path / "d.md"
    f.write_text(DERIV + "\n```latex eq\n" r"s = \sqrt{v+\epsilon},\quad s^2 = v + \epsilon"
                 "\n```\n")
    run = lambda *a: subprocess.run([sys.executable, "-m", "symnorm", "check", *a, str(f)],
                                    capture_output=True, text=True, check=False, timeout=300,
                                    env={**os.environ, "PYTHONPATH": str(ROOT)})
    p = run()
    assert p.returncode == 0, p.stdout + p.stderr
    assert "defined    eq.s" in p.stdout and "1 proved" in p.stdout
    assert "1 defined" in p.stdout and "(1 claim and 1 definition in 1 document" in p.stdout
    data = json.loads(run("--json").stdout)
    assert [c["status"] for c in data["claims"]] == ["defined", "proved"]
    assert data["summary"]["defined"] == 1 and data["summary"]["proved"] == 1


def test_pytest_plugin_passes_definitions_and_reports_them(tmp_path: Path) -> None:
    f = tmp_path / "d.md"
    f.write_text(DERIV + "\n```latex eq\n" r"s = \sqrt{v+\epsilon},\quad s^2 = v + \epsilon"
                 "\n```\n")
    from importlib.metadata import entry_points
    installed = any(ep.name == "symnorm" for ep in entry_points(group="pytest11"))
    plugin = [] if installed else ["-p", "symnorm.check.pytest_plugin"]
    p = subprocess.run([sys.executable, "-m", "pytest", *plugin, str(f), "-q", "-p",
                        "no:cacheprovider", "--rootdir", str(tmp_path)],
                       capture_output=True, check=False, text=True, timeout=300, cwd=tmp_path,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "2 passed" in p.stdout, p.stdout + p.stderr
    assert "symnorm definitions (passed, not checked)" in p.stdout
    assert "defined eq.s: let s = sqrt(v + eps)" in p.stdout


def test_reports_show_definitions_as_definitions(tmp_path: Path) -> None:
    from symnorm.report.build import write_report
    text = DERIV + "\n```latex eq\n" r"s = \sqrt{v+\epsilon},\quad s^2 = v + \epsilon" "\n```\n"
    result = check_text(text, "d.md", sandbox=False)
    files = write_report(text, result, tmp_path, date="2026-01-01")
    md = files["report.md"].read_text()
    assert "= DEFINED \u2014 Definition 1 `eq.s`" in md and "PROVED \u2014 Claim 2" in md
    assert "<strong>Definition 1</strong>" in files["report.html"].read_text()
    assert r"\textbf{Definition 1}" in files["report.tex"].read_text()
    data = json.loads(files["evidence.json"].read_text())
    assert data["summary"]["defined"] == 1 and data["claims"][0]["status"] == "defined"


# --- every token, mechanically: delete it or change it, and the reading must notice -------

EQUATIONS = [
    r"J=\frac{P}{s}-\frac{cc^\top}{d s^3},\quad J\mathbf1=0,\quad Jc=\frac{\epsilon}{s^3}c",
    r"\mathcal N_\epsilon(ax+b\mathbf1)=\frac{aPx}{\sqrt{a^2v+\epsilon}},\quad a>0",
    r"\operatorname{BN}_\epsilon(0;\{0,b\})=\frac{-b}{\sqrt{b^2+4\epsilon}}",
    r"\frac{1}{n}\sum_{i=1}^{n} y_i^2 = \frac{\|y\|_2^2}{d}",
    r"\sum_{i=0}^{d-1} (y_i-a)^2 = \left\langle y - a\mathbf 1_d, y-a\mathbf1 \right\rangle",
    r"\hat x^\top a = \log_2(a) + \exp(b) + \sqrt[4]{a} + |b| + 0.5",
    r"\mathcal N_{2\epsilon}(2x) = \mathcal N_{\epsilon=\epsilon/2}(x)",
    r"\frac{\partial \ell}{\partial \hat x_i} = y_i \cdot a",
    r"x^{\mathsf T} I_d = x^T \times I",
    r"\mu_\mathcal{B} \neq x_1 - x_2",
]
# Deleting these may leave the reading unchanged, as documented in docs/latex.md: a separator
# next to another separator, a font on a letter (\mathcal N and N are one function), the
# product signs (juxtaposition is the same product) and \mathsf in the transpose ^{\mathsf T}.
NO_MEANING = {",", "\\quad", "\\mathcal", "\\cdot", "\\times", "*", "\\mathsf"}
SWAP = {"a": "b", "b": "a", "x": "y", "y": "x", "c": "x", "s": "a", "v": "a", "P": "J",
        "J": "P", "d": "q", "n": "q", "m": "q", "H": "q", "g": "q", "w": "q", "i": "j",
        "T": "S", "I": "P", "N": "R", "B": "C"}


def _tokens(eq: str):
    from symnorm.lang.latex_tokens import tokenize
    return tokenize(eq, "t", 1, 1)


@pytest.mark.parametrize("eq", EQUATIONS)
def test_deleting_any_token_changes_the_reading_or_fails(eq: str) -> None:
    base = reading(eq)
    assert isinstance(base, str), base
    silent = []
    for t in _tokens(eq):
        if t.text in NO_MEANING:
            continue
        after = reading(eq[:t.start] + eq[t.end:])
        if after == base:
            silent.append(t.text)
    assert not silent, f"deleting {silent} went unnoticed in {eq}"


@pytest.mark.parametrize("eq", EQUATIONS)
def test_changing_any_letter_or_digit_changes_the_reading_or_fails(eq: str) -> None:
    base = reading(eq)
    assert isinstance(base, str), base
    silent = []
    for t in _tokens(eq):
        new = SWAP.get(t.text) or (str((int(t.text) + 1) % 10) if t.text.isdigit() else None)
        if new is None:
            continue
        after = reading(eq[:t.start] + new + eq[t.end:])
        if after == base:
            silent.append(f"{t.text}->{new}@{t.start}")
    assert not silent, f"changing {silent} went unnoticed in {eq}"


def _latex_lines(path: Path):
    """(first line, last line, text) of every equation in the ``latex LABEL`` blocks of a
    document (an environment over several lines is one equation, as the reader sees it)."""
    from symnorm.lang.document import _latex_equations
    lines = path.read_text().split("\n")
    block: list[str] = []
    start = 0
    for k, line in enumerate(lines, 1):
        if line.startswith("```latex "):
            block, start = [], k + 1
        elif line.startswith("```") and start:
            for i, text in _latex_equations(block):
                yield start + i, start + i + text.count("\n"), text
            start = 0
        elif start:
            block.append(line)


def _read_lines(src: str, first: int, last: int) -> str:
    doc = parse_text(src, "t.md")
    if doc.errors:
        return "error at " + ",".join(str(e.line) for e in doc.errors)
    out = [d.text for d in doc.definitions if first <= d.line <= last]
    out += [c.statement + "|" + ",".join(c.assumption_text) for c in doc.scope.claims
            if first <= c.pos.line <= last]
    return " ; ".join(out)


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted((ROOT / "derivations").glob("*.md")), ids=lambda p: p.name)
def test_every_token_of_the_derivations_counts(path: Path) -> None:
    """Each token of each LaTeX equation in derivations/, deleted or changed, is noticed."""
    src = path.read_text()
    lines = src.split("\n")
    silent = []
    for k0, k1, eq in _latex_lines(path):
        base = _read_lines(src, k0, k1)
        assert not base.startswith("error"), (k0, base)
        for t in _tokens(eq):
            # \limits after \sum is layout, as docs/latex.md lists it among the exceptions
            # \mathrm is a font (\mathrm{eps} and eps are one word: docs/latex.md), and so is
            # \mathbb on the expectation: \mathbb{E}[x] and {E}[x] (braces around one atom
            # are dropped, latex_mathtype.py) are both E[x]
            if t.text in NO_MEANING | {"\\mathbf", "\\mathrm", "\\mathbb", "\\qquad", ".",
                                       "\\\\", "\\limits"}:
                continue
            swap = SWAP.get(t.text) or (str((int(t.text) + 1) % 10) if t.text.isdigit()
                                        else None)
            if t.text in ("i", "j", "k") and [u.text for u in _tokens(eq)].count(t.text) == 1:
                swap = None  # the only use of an index letter: renaming it is alpha-renaming
            news = ("", swap) if swap else ("",)
            if t.text == "\\odot":
                # a per-element product written by juxtaposition (gamma_i xhat_i, docs/latex.md)
                # is the same product: deleting \odot is not a change, replacing it is
                news = ("+",)
            for new in news:
                mutant = "\n".join(lines[:k0 - 1] + (eq[:t.start] + new + eq[t.end:]).split(
                    "\n") + lines[k1:])
                if _read_lines(mutant, k0, k1) == base:
                    silent.append(f"{k0}: {t.text!r} -> {new!r}")
    assert not silent, silent
