"""The LaTeX reader: hand-written expected trees for the paper's equations and each construct."""

from __future__ import annotations

from fractions import Fraction

import pytest

from symnorm.errors import SourceError
from symnorm.lang.latex import LATEX_NAMES, parse_latex_equation
from symnorm.lang.syntax import BinOp, Call, Claim, Let, Name, Neg, Num, Pos, Relation, Transpose

P0 = Pos(1, 1)  # positions do not take part in node equality


def n(x: str) -> Name:
    return Name(x, P0)


def num(v: int | str) -> Num:
    return Num(Fraction(v), P0)


def mul(a, b):
    return BinOp("*", a, b, P0)


def div(a, b):
    return BinOp("/", a, b, P0)


def add(a, b):
    return BinOp("+", a, b, P0)


def sub(a, b):
    return BinOp("-", a, b, P0)


def pw(a, b):
    return BinOp("**", a, b if not isinstance(b, int) else num(b), P0)


def T(a):
    return Transpose(a, P0)


def call(f: str, *args, batch=None, params=()):
    return Call(f, tuple(args), P0, batch, params)


def eq(a, b):
    return Relation("==", a, b, P0)


EQ1 = (r"P=I-\frac{\mathbf1\mathbf1^\top}{d},\quad c=Px,\quad "
       r"\mathcal N_\epsilon(x)=\frac{c}{\sqrt{c^\top c/d+\epsilon}}")
EQ2 = (r"\mathcal N_\epsilon(ax+b\mathbf1)=\frac{aPx}{\sqrt{a^2v+\epsilon}},\quad "
       r"v=\|Px\|_2^2/d,\ a>0")
EQ3 = r"J=\frac{P}{s}-\frac{cc^\top}{d s^3},\quad J\mathbf1=0,\quad Jc=\frac{\epsilon}{s^3}c"
EQ4 = r"\operatorname{BN}_\epsilon(0;\{0,b\})=\frac{-b}{\sqrt{b^2+4\epsilon}}"

VOCAB = {"d", "x", "eps", "ones", "I", "P", "c", "v", "s", "N", "J", "BN", "a", "b"}
ones, P, c, x, d, eps, s, J, a, b, v = map(
    n, ["ones", "P", "c", "x", "d", "eps", "s", "J", "a", "b", "v"])
P_RHS = sub(n("I"), div(mul(ones, T(ones)), d))
N_RHS = div(c, call("sqrt", add(div(mul(T(c), c), d), eps)))
SCALE = eq(call("N", add(mul(a, x), mul(b, ones)), params=("eps",)),
           div(mul(mul(a, P), x), call("sqrt", add(mul(pw(a, 2), v), eps))))
V_RHS = div(pw(call("norm", mul(P, x)), 2), d)
J_RHS = sub(div(P, s), div(mul(c, T(c)), mul(d, pw(s, 3))))
BN_REL = eq(call("BN", num(0), batch=(num(0), n("b")), params=("eps",)),
            div(Neg(b, P0), call("sqrt", add(pw(b, 2), mul(num(4), eps)))))


def parse(text: str, defined: set[str] | None = None, label: str = "L", **kw):
    names = VOCAB if defined is None else defined
    return parse_latex_equation(text, label, is_defined=lambda k: k in names, **kw)


def claims(stmts) -> list[Claim]:
    return [st for st in stmts if isinstance(st, Claim)]


def lets(stmts) -> list[Let]:
    return [st for st in stmts if isinstance(st, Let)]


# --- the paper's four equations, with a vocabulary ------------------------------------------


def test_eq1_with_vocabulary_is_three_claims() -> None:
    out = parse(EQ1, label="eq1")
    assert [type(st) for st in out] == [Claim, Claim, Claim]
    assert [st.label for st in out] == ["eq1.1", "eq1.2", "eq1.3"]
    assert [st.relation for st in out] == [
        eq(P, P_RHS), eq(c, mul(P, x)), eq(call("N", x, params=("eps",)), N_RHS)]
    assert all(st.origin == "latex" and st.local_assumptions == () for st in out)
    assert out[1].source == "c=Px"
    assert out[2].source == r"\mathcal N_\epsilon(x)=\frac{c}{\sqrt{c^\top c/d+\epsilon}}"


def test_eq2_with_vocabulary_carries_a_positive() -> None:
    out = parse(EQ2, label="eq2")
    assert [st.relation for st in out] == [SCALE, eq(v, V_RHS)]
    gt = Relation(">", a, num(0), P0)
    assert all(st.local_assumptions == (gt,) for st in out)
    assert str(out[0].relation) == "N(a * x + b * ones) == a * P * x / sqrt(a ** 2 * v + eps)"
    assert out[1].source == r"v=\|Px\|_2^2/d"


def test_eq3_and_eq4_with_vocabulary() -> None:
    out = parse(EQ3, label="eq3")
    assert [st.relation for st in out] == [
        eq(J, J_RHS), eq(mul(J, ones), num(0)), eq(mul(J, c), mul(div(eps, pw(s, 3)), c))]
    assert [st.relation for st in parse(EQ4)] == [BN_REL]
    assert str(parse(EQ4)[0].relation) == "BN(0; [0, b]) == (-b) / sqrt(b ** 2 + 4 * eps)"


# --- ... and without one: equation (1) defines P, c and N ------------------------------------


def test_eq1_without_vocabulary_defines_and_expands_c_into_n() -> None:
    out = parse(EQ1, {"x", "d", "eps"})
    assert [type(st) for st in out] == [Let, Let, Let]
    p_let, c_let, n_let = out
    assert (p_let.name, p_let.params, p_let.body) == ("P", (), P_RHS)
    assert (c_let.name, c_let.body) == ("c", mul(P, x))
    # c = Px uses the parameter x, so N's body is written in terms of its argument
    px = mul(P, x)
    assert (n_let.name, n_let.params) == ("N", ("x",))
    assert n_let.body == div(px, call("sqrt", add(div(mul(T(px), px), d), eps)))


def test_eq2_without_vocabulary_puts_the_definition_of_v_first() -> None:
    out = parse(EQ2, {"x", "d", "eps", "a", "b", "N", "P"})
    assert [type(st) for st in out] == [Let, Claim]
    assert (out[0].name, out[0].body) == ("v", V_RHS)
    assert out[1].relation == SCALE and out[1].label == "L.1"


def test_claims_are_numbered_over_claims_only() -> None:
    out = parse(r"u = 2, J u = 0, w = J, J = w", {"J"})
    assert [(type(st).__name__, getattr(st, "label", st.name if isinstance(st, Let) else ""))
            for st in out] == [("Let", "u"), ("Let", "w"), ("Claim", "L.1"), ("Claim", "L.2")]


def test_positions_point_into_the_file() -> None:
    out = parse(EQ3, line=12, column=9, file="doc.md")
    starts = [EQ3.index("J="), EQ3.index(r"J\mathbf1"), EQ3.index("Jc")]
    assert [(st.pos.line, st.pos.col) for st in out] == [(12, 9 + k) for k in starts]
    with pytest.raises(SourceError) as info:
        parse(r"a = \foo", line=4, column=20, file="doc.md")
    e = info.value
    assert (e.file, e.line, e.column) == ("doc.md", 4, 24) and "\\foo" in e.message


def test_nothing_is_evaluated() -> None:
    (st,) = parse("2x = x + x")
    assert st.relation == eq(mul(num(2), x), add(x, x))
    (st,) = parse("1 = 2")
    assert st.relation == eq(num(1), num(2))


# --- constructs ------------------------------------------------------------------------------

CONSTRUCTS = [
    # (LaTeX right side, expected tree)
    (r"\epsilon + \varepsilon", add(eps, eps)),
    (r"\mathbf 1 + \mathbf{1} + \mathbb 1 + \boldsymbol 1", add(add(add(ones, ones), ones), ones)),
    (r"I_d x", mul(n("I"), x)),
    (r"x^\top y + x^T y + x^\intercal y + x^{\mathsf T} y",
     add(add(add(mul(T(x), n("y")), mul(T(x), n("y"))), mul(T(x), n("y"))),
         mul(T(x), n("y")))),
    (r"x^{\top}y + x^{\mathsf{T}}y", add(mul(T(x), n("y")), mul(T(x), n("y")))),
    (r"\alpha\beta\gamma\mu\sigma", mul(mul(mul(mul(n("alpha"), n("beta")), n("gamma")),
                                             n("mu")), n("sigma"))),
    (r"\|y\| + \|y\|_2", add(call("norm", n("y")), call("norm", n("y")))),
    (r"\left\| y \right\|_2^2", pw(call("norm", n("y")), 2)),
    (r"\langle a, b\rangle", mul(T(a), b)),
    (r"\left\langle a+b, c \right\rangle", mul(T(add(a, b)), c)),
    (r"\frac{a}{b} + \dfrac12 + \tfrac{1}{d}", add(add(div(a, b), div(num(1), num(2))),
                                                   div(num(1), d))),
    (r"\sqrt{a} + \sqrt[3]{b}", add(call("sqrt", a), pw(b, div(num(1), num(3))))),
    (r"aPx", mul(mul(a, P), x)),
    (r"cc^\top", mul(c, T(c))),
    (r"d s^3", mul(d, pw(s, 3))),
    (r"4\epsilon", mul(num(4), eps)),
    (r"a \cdot b \times c", mul(mul(a, b), c)),
    (r"\left( a + b \right) c", mul(add(a, b), c)),
    (r"[a+b]c", mul(add(a, b), c)),
    (r"a\,b\;c\!d\ x\quad", mul(mul(mul(mul(a, b), c), d), x)),
    (r"-a^2", Neg(pw(a, 2), P0)),
    (r"a - b + c", add(sub(a, b), c)),
    (r"c^\top c/d", div(mul(T(c), c), d)),
    (r"x^{-1} + x^{a+b}", add(pw(x, Neg(num(1), P0)), pw(x, add(a, b)))),
    (r"2^{2^{2}}", pw(num(2), pw(num(2), 2))),
    (r"0.1 + 12", add(num("0.1"), num(12))),
    (r"|a| + \lvert b \rvert", add(call("abs", a), call("abs", b))),
    (r"\exp(a) + \log(b) + \ln(c)", add(add(call("exp", a), call("log", b)), call("log", c))),
    (r"\operatorname{tr}(J) + \mathrm{tr}(J)", add(call("trace", J), call("trace", J))),
    (r"\operatorname{RMS}(x)", call("RMS", x)),
    (r"\mathcal N(x) + N(x)", add(call("N", x), call("N", x))),
    (r"\operatorname{BN}_{\gamma,\beta}(x)", call("BN", x, params=("gamma", "beta"))),
    (r"\operatorname{BN}(0; [0, b])", call("BN", num(0), batch=(num(0), b))),
    (r"\hat x + \bar{x} + \widetilde{x}", add(add(n("xhat"), n("xbar")), n("xtilde"))),
    (r"x_1 + \mu_\mathcal{B} + \sigma_{B}", add(add(n("x_1"), n("mu_B")), n("sigma_B"))),
    (r"\sigma^2_\mathcal{B}", pw(n("sigma_B"), 2)),
    (r"\mathbf{x}^\top \mathbf 1", mul(T(x), ones)),
    (r"a(x+b)", mul(a, add(x, b))),
    (r"\mathbf 0", num(0)),
    (r"{ab}c", mul(mul(a, b), c)),
    (r"\frac{d}{d} + \frac{cc^\top}{d s^3} + \frac{d}{2}",
     add(add(div(d, d), div(mul(c, T(c)), mul(d, pw(s, 3)))), div(d, num(2)))),
    (r"\epsilon_{\text{BN}}", n("eps_BN")),
    (r"\text{RMS}(x) + \mbox{RMS}(x)", add(call("RMS", x), call("RMS", x))),
    (r"\frac{g}{||\mathbf{v}||}\mathbf{v}", mul(div(n("g"), call("norm", v)), v)),
    (r"\bigg( a \bigg) + \Big[ b \Big]", add(a, b)),
]


@pytest.mark.parametrize("rhs, expected", CONSTRUCTS, ids=[c[0] for c in CONSTRUCTS])
def test_construct(rhs: str, expected: object) -> None:
    (st,) = parse("q = " + rhs, VOCAB | {"q", "y"})
    assert st.relation == eq(n("q"), expected), str(st.relation)


RELATIONS = [
    (r"a = b", "=="), (r"x^\top x \neq b", "!="), (r"J \ne P", "!="), (r"x^\top x < b", "<"),
    (r"x^\top x > b", ">"), (r"x^\top x \le b", "<="), (r"x^\top x \leq b", "<="),
    (r"x^\top x \ge b", ">="), (r"x^\top x \geq b", ">="),
]


@pytest.mark.parametrize("text, op", RELATIONS)
def test_relation_operators(text: str, op: str) -> None:
    (st,) = parse(text)
    assert isinstance(st, Claim) and st.relation.op == op


@pytest.mark.parametrize("sep", [",", r"\quad", r"\qquad", ";", r"\\", r",\quad", r"\;,"])
def test_separators(sep: str) -> None:
    out = parse(f"a = b {sep} c = d")
    assert [st.relation for st in out] == [eq(a, b), eq(c, d)]


@pytest.mark.parametrize("word", ["where", "and", "with", "since", " where~ "])
def test_connective_words_separate_relations(word: str) -> None:
    out = parse(f"a = b \\text{{{word}}} c = d, \\quad x^\\top x > 0")
    assert [st.relation.op for st in out] == ["==", "==", ">"]


@pytest.mark.parametrize("word", ["for", "if", "when", " provided that "])
def test_condition_words_make_hypotheses(word: str) -> None:
    (st,) = parse(f"a = b \\text{{{word}}} c = d,\\ x^\\top x > 0")
    assert st.relation == eq(a, b)
    assert [g.op for g in st.given] == ["==", ">"]
    with pytest.raises(SourceError, match="another condition or a claim"):
        parse(f"a = b \\text{{{word}}} c = d, \\quad x^\\top x > 0")


def test_semicolon_inside_a_call_is_not_a_separator() -> None:
    (st,) = parse(r"\operatorname{BN}(0;\{0,b\}) = a; c = d")[:1]
    assert st.relation.left == call("BN", num(0), batch=(num(0), b))


def test_chains_trailing_punctuation_and_alignment() -> None:
    out = parse(r"a &= b = c.")
    assert [st.relation for st in out] == [eq(a, b), eq(b, c)]
    assert [st.source for st in out] == ["a &= b", "b = c"]


def test_scalar_inequalities_are_local_assumptions() -> None:
    out = parse(r"J c = 0,\ d\ge 2,\ 0 < a < 1,\ \epsilon > 0,\ b \ne 0")
    (st,) = out
    assert [str(r) for r in st.local_assumptions] == [
        "d >= 2", "0 < a", "a < 1", "eps > 0", "b != 0"]
    (st,) = parse(r"\|N(x)\|_2 \le \sqrt{d}")
    assert st.relation.op == "<=" and st.local_assumptions == ()


def test_definitions() -> None:
    out = parse(r"f(y) = y^\top y,\quad u := f(x),\quad \mu \leftarrow a,\quad z \gets b", set())
    assert [(st.name, st.params, str(st.body)) for st in out] == [
        ("f", ("y",), "y.T * y"), ("u", (), "f(x)"), ("mu", (), "a"), ("z", (), "b")]
    (st,) = parse(r"\sigma^2 = a + b", set())
    assert (st.name, st.body) == ("sigma", call("sqrt", add(a, b)))
    (st,) = parse("P = I", {"I"})  # undefined: a definition
    assert isinstance(st, Let)
    (st,) = parse("P = I")  # defined by the vocabulary: a claim
    assert isinstance(st, Claim)


def test_definitions_are_ordered_by_use() -> None:
    out = parse(r"s = \sqrt{v + \epsilon}, v = a^2", {"eps", "a"})
    assert [st.name for st in out] == ["v", "s"]


def test_index_sums_and_elementwise_equations() -> None:
    mu_b = n("mu_B")
    dim = {"is_dimension": lambda k: k == "m"}  # the document has `let m = d`
    (st,) = parse(r"\mu_\mathcal{B} \leftarrow \frac{1}{m}\sum_{i=1}^m x_i", {"x", "m"}, **dim)
    assert (st.name, st.body) == ("mu_B", mul(div(num(1), n("m")), call("sum", x)))
    (st,) = parse(r"\sigma_\mathcal{B}^2 \leftarrow \frac{1}{m}\sum_{i=1}^m "
                  r"(x_i-\mu_\mathcal{B})^2", {"x", "m", "mu_B"}, **dim)
    centred = sub(x, mul(mu_b, ones))
    assert st.body == call("sqrt", mul(div(num(1), n("m")), mul(T(centred), centred)))
    (st,) = parse(r"z = \sum_i P J x_i", VOCAB | {"z"})  # matrix coefficients keep their order
    assert st.relation == eq(n("z"), mul(mul(P, J), call("sum", x)))
    (st,) = parse(r"y_i = \gamma\hat x_i + \beta", {"xhat", "gamma", "beta"})
    assert (st.name, st.body) == ("y", add(mul(n("gamma"), n("xhat")), mul(n("beta"), ones)))
    (st,) = parse(r"\sum_i x_i y_i = \langle x, y\rangle - \sum_j 1", VOCAB | {"y"})
    assert st.relation == eq(mul(T(x), n("y")), sub(mul(T(x), n("y")), call("sum", ones)))
    (st,) = parse(r"\frac{\partial \ell}{\partial \hat{x}_i} = \frac{\partial \ell}{\partial y_i}"
                  r"\cdot\gamma", {"dl_dy", "gamma", "xhat"})  # no document: kinds unknown
    assert (st.name, st.body) == ("dl_dxhat", mul(n("dl_dy"), n("gamma")))


def test_latex_names_table_documents_the_mapping() -> None:
    assert LATEX_NAMES["\\epsilon"] == "eps" and LATEX_NAMES["\\varepsilon"] == "eps"
    assert any("ones" == v for v in LATEX_NAMES.values())


# --- near misses: each a SourceError naming the problem -----------------------------------------

INVALID = [
    (r"a = \foo", "\\foo"),
    (r"a = \frac{b}{c", "expected '}'"),
    (r"a = (b", "expected ')'"),
    (r"a = b)", "unexpected ')'"),
    (r"a = [b)", "expected ']'"),
    (r"a = b +", "ended"),
    (r"a + b", "expected a relation"),
    (r"a = b, c", "expected a relation"),
    (r"a <= b", "\\le"),
    (r"a = x^23", "number 3"),
    (r"a = x2", "number 2"),
    (r"a = 1e-5", "scientific"),
    (r"a = x^2^3", "double superscript"),
    (r"a = x_1_2", "double subscript"),
    (r"a = x^{\prime 2}", "a prime and a power in one superscript"),
    (r"a = (x+1)'", "a prime on ("),
    (r"a = x_1'", "a prime here is not a name's decoration"),
    (r"a = \prime", "unsupported LaTeX command \\prime"),
    (r"a = b/cd", "ambiguous"),
    (r"a = {b+c}d", "invisible"),
    (r"a = \text{for all } b", "prose"),
    (r"a = \text b", "prose"),
    (r"a = |b||c|", "ended"),
    (r"\bar{a}_i = \frac{a_i}{\text{RMS}(\mathbf{a})} / g_i", "two indexed"),
    (r"x \in \mathbb{R}^d", "\\in"),
    (r"a \approx b", "\\approx"),
    (r"a = \log b", "parenthesized"),
    (r"a = \sqrt[1]{b}", "not a root"),
    (r"a = \|y\|_1", "_1"),
    (r"a = I_n", "I_d"),
    (r"a = \mathbf 2", "\\mathbf"),
    (r"a = \{0, b\}", "batch"),
    (r"a = \partial b", "\\partial"),
    (r"a = \left. b \right|", "evaluation bar"),
    ("a = \u0430", "non-ASCII"),  # the Cyrillic a, a homoglyph (Greek epsilon is read)
    ("a = \u00b5", "non-ASCII"),  # the micro sign, not the Greek mu
    (r"a = \sum x_i y_j", "which one it sums over"),  # \sum x_i alone: the sum over i
    (r"a = \sum_{i=0}^m x_i", "not the dimension d"),
    (r"a = \sum_{i=0}^d x_i", "is not every entry"),
    (r"a = \sum_{i=2}^d x_i", "sum from 2"),
    (r"a = \sum_{i=1}^{d-1} x_i", "is not every entry"),
    (r"a = \sum_{i=1}^{3} x_i", "name"),
    (r"a = \sum_i x_i^4 y_i^5", "more than 8 indexed factors"),
    (r"a = \sum_i \sqrt{x_i}", "entries"),
    (r"y_i = x_i / z_i", "outside a sum"),
    (r"y_i = x_j", "two free indices"),
    (r"a = \mathsf{A}", "\\mathsf"),
    (r"u := u + 1", "itself"),
    (r"P := I", "redefines"),
    (r"a + b := c", "not a name"),
    (r"a = \cdots", "\\cdots"),
    (r"a = \frac{d}{dx} N", "derivative notation"),
    (r"a = \frac{dN}{d\epsilon}", "derivative notation"),
    # x is no loss: the total derivative or the graph partial (the loss's d-derivative is
    # read as its \partial one)
    (r"a = \frac{\mathrm{d} x}{\mathrm{d} a}", "derivative notation"),
    ("", "empty"),
    (r"\\,", "no relation"),
    ("a = b \\", "stray backslash"),
    (r"a \le b", None),
]


@pytest.mark.parametrize("text, fragment", INVALID, ids=[t for t, _ in INVALID])
def test_near_miss_is_a_source_error(text: str, fragment: str | None) -> None:
    if fragment is None:  # not an error: a claim (only name-vs-number is an assumption)
        (st,) = parse(text)
        assert isinstance(st, Claim)
        return
    with pytest.raises(SourceError) as info:
        parse(text)
    assert fragment in str(info.value)


@pytest.mark.parametrize("text", [r"(a+b)^T = a + b", r"a^{T} = a", r"2^T = 2", r"J^T = J"])
def test_caret_t_is_ambiguous_when_the_document_names_t(text: str) -> None:
    """``^T`` with a scalar (or any name) T declared: a power and a transpose are both
    readings (red team 9: ``(a+b)^T = a + b`` was proved as a transpose)."""
    with pytest.raises(SourceError) as info:
        parse_latex_equation(text, "t", is_defined=lambda n: n in ("a", "b", "T", "J"))
    msg = str(info.value)
    assert "ambiguous" in msg and "power" in msg and "transpose" in msg and "\\top" in msg
    assert ":1:" in msg  # located


def test_caret_t_is_a_transpose_when_t_is_no_name() -> None:
    (st,) = parse_latex_equation(r"J^T = J", "t", is_defined=lambda n: n == "J")
    assert isinstance(st.relation.left, Transpose)
    (st,) = parse_latex_equation(r"(a+b)^\top = a", "t",
                                 is_defined=lambda n: n in ("a", "b", "T"))
    assert isinstance(st.relation.left, Transpose)


def test_double_transpose_in_one_group_says_what_is_wrong() -> None:
    """``x^{\\top\\top}`` used to say "unsupported LaTeX command \\top (accepted: ... \\top)"."""
    with pytest.raises(SourceError) as info:
        parse_latex_equation(r"x^{\top\top} = x", "t", is_defined=lambda n: n == "x")
    msg = str(info.value)
    assert "two transposes" in msg and "(x^\\top)^\\top" in msg and "unsupported" not in msg
    (st,) = parse_latex_equation(r"(x^\top)^\top = x", "t", is_defined=lambda n: n == "x")
    assert isinstance(st.relation.left, Transpose)


@pytest.mark.parametrize("tag", [r"\tag{$\epsilon = 0$}", r"\tag{2}", r"\tag*{$a$ and $b$}"])
def test_tag_text_may_hold_inline_math(tag: str) -> None:
    """A tag is a name; math inside its text is part of the name, not an unknown command."""
    (st,) = parse_latex_equation("x = x " + tag, "t", is_defined=lambda n: n == "x")
    assert isinstance(st, Claim)
    with pytest.raises(SourceError, match="unsupported LaTeX command"):
        parse_latex_equation(r"x = x \tagg{2}", "t", is_defined=lambda n: n == "x")


def test_caret_t_power_is_written_with_parentheses() -> None:
    """The hint of the ambiguity error works: ``^{(T)}`` is the power."""
    (st,) = parse_latex_equation(r"(a+b)^{(T)} = a", "t", is_defined=lambda n: n in "abT")
    assert str(st.relation) == "(a + b) ** T == a"
