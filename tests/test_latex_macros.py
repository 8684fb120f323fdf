r"""A paper's own macros (symnorm/lang/latex_macros.py): ``\newcommand`` and friends on
lines of their own define macros for the equations after them, expanded as TeX expands
them; every malformed or hostile definition is an error with its position."""

from __future__ import annotations

import pytest
from test_latex_gloss import claims, error, run

from symnorm.check.run import check_text
from symnorm.errors import SourceError
from symnorm.lang.latex_macros import MAX_DEPTH, define_macros, expand
from symnorm.lang.latex_tokens import MAX_LENGTH

LN = "use layernorm"
#: the defining lines of a Haiku/Sonnet-style document: bold names and a variance operator
DEFS = ("\\newcommand{\\vx}{\\mathbf{x}}\n\\DeclareMathOperator{\\Var}{Var}\n"
        "\\newcommand{\\d}[1]{\\mathbf{#1}}\n")
TRUE_LN = r"\d{y} = \frac{\vx - \mathrm{E}[\vx]}{\sqrt{\Var[\vx] + \epsilon}} * \gamma + \beta"


def expanded(text: str, *definitions: str) -> str:
    macros: dict = {}
    for d in definitions:
        assert define_macros(d, macros, "<t>", 1, 1)
    return expand(text, macros, "<t>", 1, 1).text


# --- expansion, as TeX does it -------------------------------------------------------------

@pytest.mark.parametrize(("text", "defs", "want"), [
    (r"\vx + 1", [r"\newcommand{\vx}{\mathbf{x}}"], r"\mathbf{x} + 1"),
    (r"\vx_i", [r"\newcommand\vx{x}"], r"x_i"),
    # nothing is added around a body: \xc^2 is x - \mu^2, as TeX prints it
    (r"\xc^2", [r"\newcommand{\xc}{x - \mu}"], r"x - \mu^2"),
    # an argument: a braced group without its braces, or one token
    (r"\d{xy} + \d x + \d\mu", [r"\newcommand{\d}[1]{\mathbf{#1}}"],
     r"\mathbf{xy} + \mathbf{x} + \mathbf{\mu}"),
    (r"\p{a}{b}", [r"\newcommand{\p}[2]{\frac{\partial #1}{\partial #2}}"],
     r"\frac{\partial a}{\partial b}"),
    # a control word never swallows the letters after it: \hat#1 with x is \hat x
    (r"\h{x}", [r"\newcommand{\h}[1]{\hat#1}"], r"\hat x"),
    (r"\g{a}b", [r"\newcommand{\g}[1]{#1\gamma}"], r"a\gamma b"),
    (r"\alpha\one", [r"\newcommand{\one}{x}"], r"\alpha x"),
    # a row break \\ before letters is no control word
    (r"a \\\one", [r"\newcommand{\one}{x}"], r"a \\x"),
    # macros using macros; \def; \DeclareMathOperator(*)
    (r"\b", [r"\newcommand{\a}{x}", r"\newcommand{\b}{\a + \a}"], r"x + x"),
    (r"\vx", [r"\def\vx{\mathbf x}"], r"\mathbf x"),
    (r"\f{a}{b}", [r"\def\f#1#2{#2 - #1}"], r"b - a"),
    (r"\Var[x]", [r"\DeclareMathOperator*{\Var}{Var}"], r"\operatorname{Var}[x]"),
    # a macro in a comment is not used
    ("x % \\bad\n", [r"\newcommand{\one}{1}"], "x % \\bad\n"),
    # \providecommand leaves what is defined; \renewcommand replaces it
    (r"\one", [r"\newcommand{\one}{1}", r"\providecommand{\one}{2}"], "1"),
    (r"\one", [r"\newcommand{\one}{1}", r"\renewcommand{\one}{2}"], "2"),
    (r"\vec{x}", [r"\renewcommand{\vec}[1]{\boldsymbol{#1}}"], r"\boldsymbol{x}"),
])
def test_expansion(text: str, defs: list[str], want: str) -> None:
    assert expanded(text, *defs) == want


def test_positions_map_to_the_equation_as_written() -> None:
    macros: dict = {}
    define_macros(r"\newcommand{\d}[1]{\mathbf{#1}}", macros, "<t>", 1, 1)
    e = expand(r"\d{y} = \d{x}", macros, "<t>", 1, 1)
    # the body's characters are the macro's; the argument's keep their own offsets
    assert e.text == r"\mathbf{y} = \mathbf{x}"
    assert e.origin[e.text.index("y")] == 3 and e.origin[e.text.index("x")] == 11
    assert e.origin[e.text.rindex("\\mathbf")] == 8


# --- in a document --------------------------------------------------------------------------

def test_a_documents_macros_prove_the_true_formula_and_refute_the_false() -> None:
    got = run(LN, DEFS + TRUE_LN + "\n" + TRUE_LN.replace(r" + \epsilon", ""))
    assert claims(got) == ["proved", "refuted"], got
    # the definitions take no label: the first equation is eq, the second eq-2
    assert [lb for lb, s, _ in got if s != "defined"] == ["eq.1", "eq-2.1"]


def test_an_undefined_macro_names_its_use_in_the_source() -> None:
    msg = error(run(LN, DEFS + TRUE_LN.replace(r"\Var[\vx]", r"\Var[\vz]")))
    # the block opens at line 6: 3 definition lines, the equation on line 9; \vz at its col 49
    assert "g.md:9:49: unsupported LaTeX command \\vz" in msg, msg
    assert "\\newcommand{\\vz}" in msg  # the hint says how a source's macro is defined


def test_macros_hold_for_later_blocks() -> None:
    text = (f"```symnorm\n{LN}\n```\n\n```latex defs\n{DEFS}```\n\n```latex eq\n{TRUE_LN}\n```\n")
    res = check_text(text, "m.md", sandbox=False)
    assert [v.status for v in res.verdicts if v.status != "defined"] == ["proved"], res.verdicts


def test_a_report_shows_the_expanded_equation() -> None:
    res = check_text(f"```symnorm\n{LN}\n```\n\n```latex eq\n{DEFS}{TRUE_LN}\n```\n", "m.md",
                     sandbox=False)
    shown = [v.source for v in res.verdicts if v.status == "proved"]
    assert shown and "\\d{" not in shown[0] and "\\mathbf{y}" in shown[0], shown


def test_a_macro_used_before_its_definition_is_unknown() -> None:
    msg = error(run(LN, TRUE_LN + "\n" + DEFS))
    assert "unsupported LaTeX command \\d" in msg, msg


def test_textual_expansion_keeps_tex_grouping() -> None:
    # \xc^2 is x - mu^2: the claim with (x - mu)^2's value is refuted, not proved
    got = run("scalar x, mu", "\\newcommand{\\xc}{x - \\mu}\n\\xc^2 = (x - \\mu)^2")
    assert claims(got) == ["refuted"], got


# --- refusals ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("latex", "want"), [
    ("\\newcommand{\\mu}{\\sigma}\ny = x", "\\mu is already a command symnorm reads"),
    ("\\newcommand{\\a}{1}\n\\newcommand{\\a}{2}\ny = x", "\\a is already defined earlier"),
    ("\\renewcommand{\\q}{x}\ny = x", "\\renewcommand{\\q}: \\q is not defined"),
    ("\\newcommand{\\e}[2][1]{#1}\ny = x", "an optional argument with a default"),
    ("\\def\\f#1.{#1}\ny = x", "a delimited parameter"),
    ("\\def\\f#2{#2}\ny = x", "parameters must be #1#2... in order"),
    ("\\newcommand{\\g}{#2}\ny = x", "'#2' names no argument of the macro (it takes 0)"),
    ("\\newcommand{\\g}[1]{#2}\ny = x", "'#2' names no argument of the macro (it takes 1)"),
    ("\\newcommand{\\g}[10]{x}\ny = x", "10 arguments (at most 9)"),
    ("\\newcommand{\\g}[two]{x}\ny = x", "the number of arguments must be"),
    ("\\newcommand{\\h}{x} y = \\h", "a macro definition must stand alone: 'y = \\h'"),
    ("y = x \\newcommand{\\k}{x}", "LaTeX command \\newcommand inside an equation"),
    ("\\newcommand{\\input}{x}\ny = x", "\\input cannot be redefined here"),
    ("\\newcommand{\\csname}{x}\ny = x", "\\csname cannot be redefined here"),
    ("\\newcommand{\\newcommand}{x}\ny = x", "cannot be redefined here"),
    ("\\newcommand{x}{y}\ny = x", "'x' is not a macro name"),
    ("\\newcommand{\\m}{\\input{/etc/passwd}}\ny = \\m", "LaTeX command \\input is not accepted"),
    ("\\newcommand{\\n}[2]{#1 + #2}\ny = \\n{x}", "\\n takes 2 arguments; argument 2 is missing"),
    ("\\newcommand{\\n}{x\ny = \\n", "'{' is never closed"),
    ("\\newcommand{\\a}{\\a x}\ny = \\a", "the expansion of \\a does not end"),
    ("\\newcommand{\\a}{\\b}\n\\newcommand{\\b}{\\a}\ny = \\a", "does not end"),
    ("\\DeclareMathOperator{\\V}{V + 1}\ny = x", "the operator's name must be letters"),
    ("\\let\\a\\b\ny = x", "LaTeX command \\let is not accepted"),
])
def test_bad_definitions_are_errors(latex: str, want: str) -> None:
    msg = error(run(LN, latex))
    assert want in msg, msg


def test_a_failed_definition_defines_nothing() -> None:
    # the second definition of the equation fails: the first one is not kept either
    got = run(LN, "\\newcommand{\\one}{x} \\newcommand{\\mu}{y}\n\\one = x")
    assert sum(s == "error" for _, s, _ in got) == 2, got
    assert "unsupported LaTeX command \\one" in [m for _, s, m in got if s == "error"][1]


@pytest.mark.parametrize("bomb", [
    # ten copies, five levels: 10^5 characters, refused before it is written out
    "\\newcommand{\\b}[1]{#1#1#1#1#1#1#1#1#1#1}\n\\newcommand{\\c}[1]{\\b{\\b{\\b{\\b{\\b{#1}}}}}}"
    "\ny = \\c{x}",
    # one body far longer than the limit once its argument is repeated
    "\\newcommand{\\b}[1]{" + "#1" * 5000 + "}\ny = \\b{" + "x" * 100 + "}",
])
def test_an_expansion_bomb_is_refused(bomb: str) -> None:
    msg = error(run(LN, bomb))
    assert f"longer than {MAX_LENGTH} characters" in msg, msg


def test_expansion_depth_is_bounded() -> None:
    macros: dict = {}
    define_macros(r"\newcommand{\a}{(\a)}", macros, "<t>", 1, 1)
    with pytest.raises(SourceError, match=f"after {MAX_DEPTH} rounds"):
        expand(r"\a", macros, "<t>", 1, 1)


# --- Unicode superscript digits (plain-text docstrings) --------------------------------------

@pytest.mark.parametrize(("latex", "want"), [
    ("\\sigma\u00b2 = \\frac{1}{d}\\sum_i (x_i-\\mu)\u00b2", "proved"),
    # the cube is read as a cube: the variance with a third power is refuted
    ("\\sigma\u00b2 = \\frac{1}{d}\\sum_i (x_i-\\mu)\u00b3", "refuted"),
])
def test_unicode_superscript_digits_are_powers(latex: str, want: str) -> None:
    assert claims(run(LN, latex)) == [want]


def test_two_unicode_superscripts_are_a_double_superscript() -> None:
    assert "double superscript" in error(run(LN, "x\u00b2\u00b2 = x^4"))
