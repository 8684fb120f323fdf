"""Mutants of the paper's LaTeX equations must be refuted; the verbatim equations proved."""

from __future__ import annotations

from pathlib import Path

import pytest

from symnorm.check.run import check_document, check_text

ROOT = Path(__file__).resolve().parent.parent
EQ = {
    "eq1": (r"P=I-\frac{\mathbf1\mathbf1^\top}{d},\quad c=Px,\quad "
            r"\mathcal N_\epsilon(x)=\frac{c}{\sqrt{c^\top c/d+\epsilon}}"),
    "eq2": (r"\mathcal N_\epsilon(ax+b\mathbf1)=\frac{aPx}{\sqrt{a^2v+\epsilon}},\quad "
            r"v=\|Px\|_2^2/d,\ a>0"),
    "eq3": r"J=\frac{P}{s}-\frac{cc^\top}{d s^3},\quad J\mathbf1=0,\quad Jc=\frac{\epsilon}{s^3}c",
    "eq4": r"\operatorname{BN}_\epsilon(0;\{0,b\})=\frac{-b}{\sqrt{b^2+4\epsilon}}",
}
HEAD = {
    True: "```symnorm\nuse layernorm\nscalar a, b\n```\n",
    False: "```symnorm\nvector x\nscalar eps, a, b\n```\n",
}
NOVOCAB_LETS = "```symnorm\nlet J = jacobian(N(x), x)\nlet s = sqrt(v + eps)\n```\n"


def document(vocab: bool, replace: dict[str, str] | None = None) -> str:
    """The four equations as a document, with some replaced by mutants."""
    parts = [HEAD[vocab]]
    for label, text in EQ.items():
        if label == "eq3" and not vocab:
            parts.append(NOVOCAB_LETS)
        text = (replace or {}).get(label, text)
        parts.append(f"```latex {label}\n{text}\n```\n")
    return "\n".join(parts)


def status(text: str, label: str) -> str:
    result = check_text(text, "mutant.md", only=label, timeout=20.0)
    found = {v.label: v for v in result.verdicts}
    assert label in found, [(v.label, v.status, v.message) for v in result.verdicts]
    return found[label].status


# (equation, original fragment, mutant fragment, claim label with a vocabulary, without one)
MUTANTS = [
    ("eq2", "a^2v", "a^3v", "eq2.1", "eq2.1"),                          # wrong exponent
    ("eq2", r"\|Px\|_2^2/d", r"\|Px\|_2^3/d", "eq2.2", None),           # wrong exponent
    ("eq4", r"4\epsilon", r"2\epsilon", "eq4.1", "eq4.1"),               # wrong constant
    ("eq4", r"\frac{-b}", r"\frac{b}", "eq4.1", None),                   # wrong sign
    ("eq3", r"{d s^3}", r"{d s^2}", "eq3.1", "eq3.1"),                   # s^2 for s^3
    ("eq3", r"Jc=\frac{\epsilon}{s^3}c", r"Jc=\frac{\epsilon}{s^2}c", "eq3.3", "eq3.3"),
    ("eq3", r"J\mathbf1=0", r"J=0", "eq3.2", None),                      # dropped \mathbf1
    ("eq3", r"\frac{P}{s}-", r"\frac{P}{s^2}-", "eq3.1", None),          # wrong exponent
    ("eq1", r"c^\top c/d", r"c^\top c/(d-1)", "eq1.3", None),            # wrong denominator
    ("eq1", r"I-\frac{\mathbf1\mathbf1^\top}{d}", r"I-\frac{\mathbf1\mathbf1^\top}{d^2}",
     "eq1.1", None),                                                     # wrong exponent
]


def _mutate(eq: str, old: str, new: str) -> str:
    assert old in EQ[eq], (eq, old)
    return EQ[eq].replace(old, new, 1)


@pytest.mark.parametrize("eq, old, new, label, _", MUTANTS,
                         ids=[f"{m[0]}:{m[2]}" for m in MUTANTS])
def test_mutant_with_vocabulary_is_refuted(eq: str, old: str, new: str, label: str,
                                           _: str | None) -> None:
    text = document(True, {eq: _mutate(eq, old, new)})
    assert status(text, label) == "refuted"


NOVOCAB = [m for m in MUTANTS if m[4] is not None]


@pytest.mark.parametrize("eq, old, new, _, label", NOVOCAB,
                         ids=[f"{m[0]}:{m[2]}" for m in NOVOCAB])
def test_mutant_without_vocabulary_is_refuted(eq: str, old: str, new: str, _: str,
                                              label: str) -> None:
    text = document(False, {eq: _mutate(eq, old, new)})
    assert status(text, label) == "refuted"


def test_mutated_definition_without_vocabulary_is_refuted_downstream() -> None:
    # without a vocabulary eq1 defines N; a wrong definition surfaces in the scale law
    text = document(False, {"eq1": _mutate("eq1", r"c^\top c/d", r"c^\top c/(d-1)")})
    assert status(text, "eq2.1") == "refuted"


@pytest.mark.parametrize("vocab, label", [(True, "eq2.1"), (True, "eq3.3"), (True, "eq4.1"),
                                          (False, "eq2.1"), (False, "eq3.1")])
def test_unmutated_equation_is_proved(vocab: bool, label: str) -> None:
    assert status(document(vocab), label) == "proved"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["paper_latex.md", "paper_latex_novocab.md",
                                  "published_equations.md", "real_world_latex.md",
                                  "real_world_batchnorm.md", "real_world_rmsnorm.md"])
def test_derivation_documents_prove_every_claim(name: str) -> None:
    # published_invariances.md is left out: its free-matrix claims are only `confirmed`
    result = check_document(ROOT / "derivations" / name)
    claims = [v for v in result.verdicts if v.status != "defined"]  # definitions are listed
    assert claims and all(v.status == "proved" for v in claims), [
        (v.label, v.status, v.message) for v in result.verdicts]


# Mutants of the published equations (derivations/published_equations.md): one changed
# exponent, constant or factor each; the label is the claim that must turn refuted.
PUBLISHED = ROOT / "derivations" / "published_equations.md"
PUBLISHED_MUTANTS = [
    (r"\cdot\frac{2(x_i-\mu_\mathcal{B})}{m}", r"\cdot\frac{(x_i-\mu_\mathcal{B})}{m}",
     "bn.backward-4.1"),                                                 # dropped factor 2
    # wrong exponent: refuted at its own line, the partial by sigma^2 (a claim along the graph
    # of Algorithm 1); before graph partials had values it was a definition and only the
    # input gradient that used it, bn.backward-4.1, was refuted
    (r"(\sigma^2_\mathcal{B}+\epsilon)^{-3/2}", r"(\sigma^2_\mathcal{B}+\epsilon)^{-1/2}",
     "bn.backward-2.1"),
    (r"\frac{\partial \ell}{\partial y_i}\cdot\widehat{x}_i",
     r"\frac{\partial \ell}{\partial y_i}\cdot x_i", "bn.backward-5.1"),  # x for x-hat
    (r"{\sqrt{\sigma_\mathcal{B}^2 + \epsilon}}", r"{\sqrt{\sigma_\mathcal{B} + \epsilon}}",
     "alg1.props.2"),                                                    # sigma for sigma^2
    (r"\sqrt{\frac{1}{n}\sum", r"\sqrt{\frac{1}{n-1}\sum", "rms.is_ln"),  # wrong denominator
    (r"\frac{\mathbf{w}\mathbf{w}^\top}{||\mathbf{w}||^2}",
     r"\frac{\mathbf{w}\mathbf{w}^\top}{||\mathbf{w}||}", "wn.grad-2.1"),  # wrong exponent
]


@pytest.mark.parametrize("old, new, label", PUBLISHED_MUTANTS,
                         ids=[m[2] + ":" + m[1][:20] for m in PUBLISHED_MUTANTS])
def test_published_equation_mutant_is_refuted(old: str, new: str, label: str) -> None:
    text = PUBLISHED.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    assert status(text, label) == "proved"
    assert status(text.replace(old, new), label) == "refuted"


def test_latex_lines_in_symnorm_blocks_report_file_positions() -> None:
    line4 = r"latex eq3: J=\frac{P}{s}-\frac{cc^\top}{d s^3},\quad J\mathbf1=0"
    line5 = r"  latex bad: J = \foo c"
    text = f"```symnorm\nuse layernorm\n{line4}\n{line5}\n```\n"
    found = {v.label: v for v in check_text(text, "x.md").verdicts}
    assert (found["eq3.1"].status, found["eq3.2"].status) == ("proved", "proved")
    assert (found["eq3.1"].line, found["eq3.1"].column) == (3, line4.index("J=") + 1)
    assert (found["eq3.2"].line, found["eq3.2"].column) == (3, line4.index(r"J\mathbf") + 1)
    assert found["eq3.2"].origin == "latex" and found["eq3.2"].source == r"J\mathbf1=0"
    errors = [v for v in found.values() if v.status == "error"]
    assert len(errors) == 1 and "\\foo" in errors[0].message
    assert (errors[0].line, errors[0].column) == (4, line5.index("\\foo") + 1)


def test_exponent_towers_end_undecided_or_error_within_the_limit() -> None:
    text = ("```symnorm\nscalar a\nlatex tower: a = 2^{2^{2^{2^{2^{2}}}}}\n"
            "latex big: a = 10^{10^{10}}\nlatex fine: (a+1)^2 = a^2 + 2a + 1\n```\n")
    found = {v.label: v for v in check_text(text, "x.md", timeout=2.0).verdicts}
    assert found["tower.1"].status in ("undecided", "error")
    assert found["big.1"].status in ("undecided", "error")
    assert found["fine.1"].status == "proved"
