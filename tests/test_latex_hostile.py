"""Hostile LaTeX: every input ends as a SourceError or a parse the engines cap, never a crash."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symnorm.errors import SourceError
from symnorm.lang.latex import parse_latex_equation
from symnorm.lang.latex_parser import MAX_DEPTH
from symnorm.lang.latex_tokens import MAX_LENGTH
from symnorm.lang.syntax import BinOp, Call, Claim, Let, Name, Neg, Transpose

DEFINED = {"x", "a", "b", "c", "d", "eps", "P", "J", "N", "s"}


def parse(text: str):
    return parse_latex_equation(text, "H", file="h.md", line=3, column=5,
                                is_defined=lambda n: n in DEFINED)


def error_of(text: str) -> SourceError:
    with pytest.raises(SourceError) as info:
        parse(text)
    err = info.value
    assert err.file == "h.md" and err.line >= 3 and err.column >= 1
    return err


HOSTILE = [
    ("unbalanced brace", r"\frac{a}{b = c", "expected '}'"),
    ("unbalanced close", r"a = b}", "unexpected '}'"),
    ("unbalanced parenthesis", r"a = \left( b", "expected ')'"),
    ("unknown macro", r"a = \weird{b}", "\\weird"),
    ("input", r"\input{/etc/passwd} = 1", "\\input"),
    ("include", r"a = \include{x}", "\\include"),
    ("write18", r"a = \write18{touch /tmp/pwned}", "\\write"),
    ("immediate write", r"\immediate\write18{ls} a = 1", "\\immediate"),
    ("def", r"\def\x{1} a = 1", "\\def"),
    ("newcommand", r"\newcommand{\x}{1} a = 1", "\\newcommand"),
    ("renewcommand", r"\renewcommand\frac{1} a = 1", "\\renewcommand"),
    ("catcode", r"\catcode`\@=11 a = 1", "\\catcode"),
    ("csname", r"a = \csname input\endcsname{x}", "\\csname"),
    ("begin", r"\begin{pmatrix}1\end{pmatrix} = a", "environment {pmatrix}"),
    ("begin unclosed", r"\begin{align} a = b", "never closed"),
    ("end unmatched", r"\begin{align} a = b \end{aligned}", "without a matching"),
    ("percent sign", r"a = 5\% b", "percent sign"),
    ("long equation", "a=" + "x+" * 25_000 + "x", "too long"),
    ("500 nested fractions", "a=" + r"\frac{1}{" * 500 + "x" + "}" * 500, "nested"),
    ("left then 30,000 spaces", r"a=\left(" + " " * 30_000 + r"x\right)", "too long"),
    ("300 parentheses", "a=" + "(" * 300 + "x" + ")" * 300, "nested"),
    ("5,000-term sum", "a=" + "+".join(["x"] * 5_000), "deep"),
    ("nested superscripts", "a=" + "x^{" * 3_000 + "1" + "}" * 3_000, "nested"),
    ("empty superscripts", "a=x" + "^{" * 3_000 + "1" + "}" * 3_000, "unexpected '^'"),
    ("nested sums", "a=" + r"\sum_i" * 300 + "x_i", "nested"),
    ("stacked bold", "a=" + r"\mathbf" * 2_000 + "x", "\\mathbf"),
    ("stacked hats", "a=" + r"\hat{" * 2_000 + "x" + "}" * 2_000, "\\hat"),
    ("stacked roots", "a=" + r"\sqrt" * 3_000 + "x", "\\sqrt"),
    ("stacked signs", "a=" + "-" * 3_000 + "x", "unexpected '-'"),
    ("open bars", "a = |" * 2_000, "'|'"),
    ("open norms", r"a=\|" * 2_000, "\\|"),
    ("huge literal", "a = " + "9" * 500, "digits"),
    ("sizing without delimiter", r"a = \left x", "delimiter"),
    ("null byte", "a = b\x00", "unexpected"),
]


@pytest.mark.parametrize("text, fragment", [(t, f) for _, t, f in HOSTILE],
                         ids=[name for name, _, _ in HOSTILE])
def test_hostile_input_is_a_clear_error(text: str, fragment: str) -> None:
    assert fragment in str(error_of(text))


def test_the_limits_are_what_the_errors_say() -> None:
    assert "20000" in str(error_of("a=" + "x" * MAX_LENGTH))
    ok = "a=" + r"\frac{1}{" * 10 + "x" + "}" * 10
    assert len(parse(ok)) == 1
    assert f"{MAX_DEPTH} levels" in str(error_of("a=" + "(" * (MAX_DEPTH + 1) + "x"
                                                 + ")" * (MAX_DEPTH + 1)))


def test_left_with_many_spaces_below_the_cap_parses() -> None:
    (st,) = parse(r"a=\left(" + " " * 15_000 + r"x\right)")
    assert str(st.relation) == "a == x"


def test_tower_of_exponents_parses_for_the_engine_to_cap() -> None:
    (st,) = parse(r"a = 2^{2^{2^{2^{2^{2}}}}}")
    assert str(st.relation.right) == "2 ** (2 ** (2 ** (2 ** (2 ** 2))))"


def test_errors_are_picklable_for_worker_processes() -> None:
    import pickle

    err = error_of(r"a = \input{x}")
    again = pickle.loads(pickle.dumps(err))
    assert str(again) == str(err)


def test_deep_but_legal_input_does_not_hit_the_recursion_limit() -> None:
    # MAX_DEPTH levels must fit comfortably in Python's stack even when called deep
    depth = MAX_DEPTH - 1
    text = "a=" + "(" * depth + "x" + ")" * depth
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(600)
    try:
        (st,) = parse(text)
    finally:
        sys.setrecursionlimit(limit)
    assert str(st.relation) == "a == x"


_COMMANDS = {"frac", "sqrt", "mathbf", "mathbb", "boldsymbol", "top", "intercal", "mathsf",
             "operatorname", "mathrm", "mathcal", "left", "right", "cdot", "times", "quad",
             "qquad", "langle", "rangle", "sum", "epsilon", "varepsilon", "hat", "partial",
             "input", "write", "def", "le", "ge", "neq", "text", "exp", "log"}
_BUILTIN_FUNCTIONS = {"sum", "sqrt", "exp", "log", "mean", "norm", "trace", "abs"}
_PIECES = ["a", "b", "x", "P", "J", "1", "2", "0.5", "+", "-", "=", "<", ",", ";", "(", ")",
           "{", "}", "[", "]", "^", "_", "|", r"\|", r"\frac", r"\sqrt", r"\mathbf 1",
           r"\top", r"\epsilon", r"\cdot", r"\left(", r"\right)", r"\quad", r"\langle",
           r"\rangle", r"\sum", r"\sum_i", "x_i", r"\mathcal N", r"\operatorname{BN}",
           r"\{", r"\}", r"\hat", r"\partial", r"\ell", " ", r"\\", r"\foo", r"\input", "%",
           r"\le", "'", ".", "&", "i", "T", r"\mathsf"]


def _names(node: object) -> set[str]:
    out: set[str] = set()
    stack = [node]
    while stack:
        e = stack.pop()
        if isinstance(e, Name):
            out.add(e.id)
        elif isinstance(e, BinOp):
            stack += [e.left, e.right]
        elif isinstance(e, (Neg, Transpose)):
            stack.append(e.operand)
        elif isinstance(e, Call):
            # the claim language's own functions (\sum_i a is sum(a * ones)) are readings,
            # not names taken from a command; any other callee is a name
            if e.func not in _BUILTIN_FUNCTIONS:
                out.add(e.func)
            stack += list(e.args) + list(e.batch or ()) + []
            out.update(e.params)
    return out


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=40))
def test_token_soup_never_crashes_and_never_names_a_command(pieces: list[str]) -> None:
    text = "".join(pieces)
    try:
        out = parse(text)
    except SourceError:
        return
    for stmt in out:
        assert isinstance(stmt, (Let, Claim))
        if isinstance(stmt, Let):
            found = _names(stmt.body) | {stmt.name}
        else:
            rels = (stmt.relation, *stmt.local_assumptions)
            found = set().union(*(_names(r.left) | _names(r.right) for r in rels))
        assert not found & _COMMANDS, (text, found & _COMMANDS)


def test_a_comment_is_never_read() -> None:
    """``%`` starts a comment to the end of the line: a macro inside it is not even seen."""
    (st,) = parse("a = b % \\input{x}\n")
    assert str(st.relation) == "a == b"
    (st,) = parse("a = b % c\n + c")
    assert str(st.relation) == "a == b + c"
