r"""Partials along the computation graph (``symnorm/lang/latex_graph.py``) are claims.

The truth of every line is computed here with numpy alone: the graph of Ioffe and Szegedy
(mu, sigma^2, xhat, y) is evaluated with one node *cut* (replaced by an independent value,
the nodes downstream recomputed from it) and perturbed by central differences, at one
rational point.  symnorm must prove each true line (the any-d and the explicit engine each on
its own) and refute each one-token variant that numpy finds false.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest

from symnorm.check.run import check_text
from symnorm.engines import anyd, explicit
from symnorm.lang.document import parse_text

Q = Fraction
X = np.array([float(v) for v in (Q(1), Q(-2), Q(4), Q(7, 2))])
DY = np.array([float(v) for v in (Q(1), Q(-3), Q(1, 2), Q(2))])
EPS, GAMMA, BETA = float(Q(1, 10)), float(Q(3, 2)), float(Q(-1, 3))
M = len(X)
H = 1e-6

PRE = "use batchnorm\nvector dl_dy"


# --- the graph in numpy, with a cut ---------------------------------------------------------

def forward(cut: str | None = None, value: object = None) -> dict[str, object]:
    """Every node of the graph; node ``cut`` takes ``value`` and the nodes after it are
    recomputed from it (those before it unchanged)."""
    n: dict[str, object] = {}
    n["mu"] = value if cut == "mu" else X.mean()
    n["var"] = value if cut == "var" else ((X - n["mu"]) ** 2).mean()
    n["xhat"] = value if cut == "xhat" else (X - n["mu"]) / np.sqrt(n["var"] + EPS)
    n["y"] = value if cut == "y" else GAMMA * n["xhat"] + BETA
    return n


N0 = forward()


def _d(f: Callable[[object], object], at: object) -> np.ndarray:
    """Central differences of f at ``at`` (a scalar, or each entry of a vector)."""
    if np.ndim(at) == 0:
        return (np.asarray(f(at + H)) - np.asarray(f(at - H))) / (2 * H)
    e = np.eye(len(at))
    return np.array([(np.asarray(f(at + H * e[i])) - np.asarray(f(at - H * e[i]))) / (2 * H)
                     for i in range(len(at))])


def adjoint(node: str) -> np.ndarray:
    """d loss / d node along the graph, loss = dy . y."""
    return _d(lambda b: DY @ forward(node, b)["y"], N0[node])


def dl_dx() -> np.ndarray:
    return _d(lambda x: DY @ (GAMMA * (x - x.mean()) / np.sqrt(((x - x.mean()) ** 2).mean()
                                                                + EPS) + BETA), X)


LOCAL = {  # local definitions, parents passed explicitly
    "xhat": lambda mu, var: (X - mu) / np.sqrt(var + EPS),
    "var": lambda mu: ((X - mu) ** 2).mean(),
}


def local_xhat_by(parent: str) -> np.ndarray:
    if parent == "mu":
        return _d(lambda b: LOCAL["xhat"](b, N0["var"]), N0["mu"])
    return _d(lambda b: LOCAL["xhat"](N0["mu"], b), N0["var"])


MU, VAR, XHAT = N0["mu"], N0["var"], N0["xhat"]
R = np.sqrt(VAR + EPS)
G_XHAT, G_VAR, G_MU = adjoint("xhat"), adjoint("var"), adjoint("mu")


def same(a: object, b: object) -> bool:
    a, b = np.broadcast_arrays(np.asarray(a, float), np.asarray(b, float))
    return bool(np.allclose(a, b, rtol=1e-6, atol=1e-6))


# --- Ioffe and Szegedy, section 3 (the backward pass), in their notation ------------------

IOFFE = [
    (r"\frac{\partial \ell}{\partial \hat{x}_i} = \frac{\partial \ell}{\partial y_i} \cdot \gamma",
     lambda: same(G_XHAT, DY * GAMMA)),
    (r"\frac{\partial \ell}{\partial \sigma^2_\mathcal{B}} = \sum_{i=1}^m \frac{\partial \ell}"
     r"{\partial \hat{x}_i} \cdot (x_i - \mu_\mathcal{B}) \cdot \frac{-1}{2}(\sigma^2_\mathcal{B}"
     r" + \epsilon)^{-3/2}",
     lambda: same(G_VAR, np.sum(G_XHAT * (X - MU)) * -0.5 * (VAR + EPS) ** -1.5)),
    (r"\frac{\partial \ell}{\partial \mu_\mathcal{B}} = \bigg(\sum_{i=1}^m \frac{\partial \ell}"
     r"{\partial \hat{x}_i} \cdot \frac{-1}{\sqrt{\sigma^2_\mathcal{B} + \epsilon}}\bigg) + "
     r"\frac{\partial \ell}{\partial \sigma^2_\mathcal{B}} \cdot \frac{\sum_{i=1}^m -2(x_i - "
     r"\mu_\mathcal{B})}{m}",
     lambda: same(G_MU, np.sum(G_XHAT * -1 / R) + G_VAR * np.sum(-2 * (X - MU)) / M)),
    (r"\frac{\partial \ell}{\partial x_i} = \frac{\partial \ell}{\partial \hat{x}_i} \cdot "
     r"\frac{1}{\sqrt{\sigma^2_\mathcal{B} + \epsilon}} + \frac{\partial \ell}{\partial "
     r"\sigma^2_\mathcal{B}} \cdot \frac{2(x_i - \mu_\mathcal{B})}{m} + \frac{\partial \ell}"
     r"{\partial \mu_\mathcal{B}} \cdot \frac{1}{m}",
     lambda: same(dl_dx(), G_XHAT / R + G_VAR * 2 * (X - MU) / M + G_MU / M)),
    (r"\frac{\partial \ell}{\partial \gamma} = \sum_{i=1}^m \frac{\partial \ell}{\partial y_i} "
     r"\cdot \hat{x}_i",
     lambda: same(_d(lambda g: DY @ (g * XHAT + BETA), GAMMA), np.sum(DY * XHAT))),
    (r"\frac{\partial \ell}{\partial \beta} = \sum_{i=1}^m \frac{\partial \ell}{\partial y_i}",
     lambda: same(_d(lambda b: DY @ (GAMMA * XHAT + b), BETA), np.sum(DY))),
]

#: local partials (Feng, Zakka): A's local definition differentiated by a parent B
LOCAL_LINES = [
    (r"\frac{\partial \hat x_i}{\partial \mu} = \frac{-1}{\sqrt{\sigma^2 + \epsilon}}",
     lambda: same(local_xhat_by("mu"), -1 / R)),
    (r"\frac{\partial \hat x_i}{\partial \sigma^2} = (x_i - \mu) \cdot \frac{-1}{2}"
     r"(\sigma^2 + \epsilon)^{-3/2}",
     lambda: same(local_xhat_by("var"), (X - MU) * -0.5 * (VAR + EPS) ** -1.5)),
    (r"\frac{\partial \sigma^2}{\partial \mu} = \frac{-2}{m} \sum_{i=1}^{m} (x_i - \mu)",
     lambda: same(_d(LOCAL["var"], MU), -2 / M * np.sum(X - MU))),
    (r"\frac{\partial y}{\partial \hat x} = \gamma I",
     lambda: same(_d(lambda b: GAMMA * b + BETA, XHAT), GAMMA * np.eye(M))),
]

#: one-token variants of every line above: (line, old, new, numpy truth of the variant)
MUTANTS = [
    (0, r"= \frac{\partial \ell}{\partial y_i}", r"= -\frac{\partial \ell}{\partial y_i}",
     lambda: same(G_XHAT, -DY * GAMMA)),                                       # sign
    (0, r" \cdot \gamma", r" \cdot \gamma^2", lambda: same(G_XHAT, DY * GAMMA ** 2)),  # power
    (0, r"= \frac{\partial \ell}{\partial y_i}", r"= \sum_i \frac{\partial \ell}{\partial y_i}",
     lambda: same(G_XHAT, np.sum(DY) * GAMMA)),                                # spurious sum
    (1, "^{-3/2}", "^{-1/2}",
     lambda: same(G_VAR, np.sum(G_XHAT * (X - MU)) * -0.5 * (VAR + EPS) ** -0.5)),  # exponent
    (1, r"\frac{-1}{2}", r"\frac{1}{2}",
     lambda: same(G_VAR, np.sum(G_XHAT * (X - MU)) * 0.5 * (VAR + EPS) ** -1.5)),   # sign
    (1, r"\frac{-1}{2}", "(-1)",
     lambda: same(G_VAR, np.sum(G_XHAT * (X - MU)) * -1 * (VAR + EPS) ** -1.5)),    # factor
    (2, r"\frac{-1}{\sqrt{\sigma^2_\mathcal{B} + \epsilon}}",
     r"\frac{1}{\sqrt{\sigma^2_\mathcal{B} + \epsilon}}",
     lambda: same(G_MU, np.sum(G_XHAT / R))),                                  # sign
    (2, r"\frac{-1}{\sqrt{\sigma^2_\mathcal{B} + \epsilon}}",
     r"\frac{-1}{\sigma^2_\mathcal{B} + \epsilon}",
     lambda: same(G_MU, np.sum(G_XHAT * -1 / (VAR + EPS)))),                   # exponent
    (2, r"\bigg(\sum_{i=1}^m", r"\bigg(\frac{1}{m}\sum_{i=1}^m",
     lambda: same(G_MU, np.sum(G_XHAT * -1 / R) / M)),                         # spurious 1/m
    (3, r" + \frac{\partial \ell}{\partial \mu_\mathcal{B}} \cdot \frac{1}{m}",
     r" + \frac{\partial \ell}{\partial \mu_\mathcal{B}}",
     lambda: same(dl_dx(), G_XHAT / R + G_VAR * 2 * (X - MU) / M + G_MU)),     # missing 1/m
    (3, r"\frac{2(x_i - \mu_\mathcal{B})}{m}", r"\frac{-2(x_i - \mu_\mathcal{B})}{m}",
     lambda: same(dl_dx(), G_XHAT / R - G_VAR * 2 * (X - MU) / M + G_MU / M)),  # sign
    (3, r"\frac{\partial \ell}{\partial \hat{x}_i} \cdot \frac{1}{\sqrt{\sigma^2_\mathcal{B} + "
        r"\epsilon}} + ", "",
     lambda: same(dl_dx(), G_VAR * 2 * (X - MU) / M + G_MU / M)),              # dropped term
    (3, r"\frac{1}{\sqrt{\sigma^2_\mathcal{B} + \epsilon}}",
     r"\frac{1}{\sigma^2_\mathcal{B} + \epsilon}",
     lambda: same(dl_dx(), G_XHAT / (VAR + EPS) + G_VAR * 2 * (X - MU) / M + G_MU / M)),
    (4, r" \cdot \hat{x}_i", "", lambda: same(np.sum(DY * XHAT), np.sum(DY))),  # dropped factor
    (5, r"= \sum", r"= -\sum", lambda: same(np.sum(DY), -np.sum(DY))),         # sign
    (6, r"= \frac{-1}", r"= \sum_i \frac{-1}",
     lambda: same(local_xhat_by("mu"), -M / R)),                               # spurious sum
    (6, r"\frac{-1}", r"\frac{1}", lambda: same(local_xhat_by("mu"), 1 / R)),   # sign
    (7, "^{-3/2}", "^{-1/2}",
     lambda: same(local_xhat_by("var"), (X - MU) * -0.5 * (VAR + EPS) ** -0.5)),
    (7, r"\frac{-1}{2}", r"\frac{1}{2}",
     lambda: same(local_xhat_by("var"), (X - MU) * 0.5 * (VAR + EPS) ** -1.5)),
    (8, r"(x_i - \mu)", "x_i", lambda: same(_d(LOCAL["var"], MU), -2 / M * np.sum(X))),
    (9, r"\gamma I", r"2\gamma I", lambda: same(GAMMA * np.eye(M), 2 * GAMMA * np.eye(M))),
]

LINES = IOFFE + LOCAL_LINES


def rows(latex: str, preamble: str = PRE) -> list[tuple[str, str, str, str]]:
    """(label, status, statement, message) of each row of one latex block."""
    text = f"```symnorm\n{preamble}\n```\n\n```latex eq\n{latex}\n```\n"
    return [(v.label, v.status, v.statement, v.message)
            for v in check_text(text, "g.md", sandbox=False).verdicts]


def claims(latex: str, preamble: str = PRE) -> list[str]:
    return [s for _, s, _, _ in rows(latex, preamble) if s != "defined"]


@pytest.mark.parametrize("k", range(len(LINES)))
def test_true_line_is_true_by_numpy_and_proved(k: int) -> None:
    latex, truth = LINES[k]
    assert truth(), latex
    assert claims(latex) == ["proved"], rows(latex)


@pytest.mark.parametrize("k", range(len(MUTANTS)))
def test_one_token_variant_is_false_by_numpy_and_refuted(k: int) -> None:
    line, old, new, truth = MUTANTS[k]
    latex = LINES[line][0]
    assert latex.count(old) == 1, (latex, old)
    wrong = latex.replace(old, new)
    assert not truth(), wrong
    assert claims(wrong) == ["refuted"], rows(wrong)


def test_every_line_has_a_false_variant() -> None:
    assert {m[0] for m in MUTANTS} == set(range(len(LINES)))


def test_ioffe_backward_pass_as_one_block() -> None:
    got = rows("\n".join(latex for latex, _ in IOFFE))
    assert [s for _, s, _, _ in got if s != "defined"] == ["proved"] * len(IOFFE), got


@pytest.mark.parametrize("k", [0, 1, 2, 3, 6, 7, 8, 9])
def test_both_engines_prove_each_true_line(k: int) -> None:
    """The any-d engine and the explicit engine (at d = 3), each on its own."""
    latex = LINES[k][0]
    doc = parse_text(f"```symnorm\n{PRE}\n```\n\n```latex eq\n{latex}\n```\n", "g.md")
    assert not doc.errors and doc.scope.claims
    for c in doc.scope.claims:
        assert anyd.prove_any_d(c)[0], c.label
        assert explicit.prove_at(c, 3), c.label
    wrong = [m for m in MUTANTS if m[0] == k][0]
    doc = parse_text(f"```symnorm\n{PRE}\n```\n\n```latex eq\n"
                     f"{latex.replace(wrong[1], wrong[2])}\n```\n", "g.md")
    for c in doc.scope.claims:
        assert not explicit.prove_at(c, 3), c.label


# --- what is read, literally ----------------------------------------------------------------

def test_read_as_shows_the_cut_and_the_point() -> None:
    (row,) = [r for r in rows(IOFFE[1][0]) if r[1] != "defined"]
    # sigma^2 replaced by a fresh variable downstream (in xhat, then y), evaluated at sigma^2
    assert "jacobian(gamma * (x - mu * ones) / sqrt(sigma2_node + eps) + beta * ones, " \
           "sigma2_node).T * dl_dy" in row[2], row
    assert "given sigma2_node == sigma ** 2" in row[2], row
    (row,) = [r for r in rows(LOCAL_LINES[0][0]) if r[1] != "defined"]
    # the local partial: xhat's local definition with mu cut, sigma^2 held at its value
    assert row[2].startswith("jacobian((x - mu_node * ones) / sqrt(sigma ** 2 + eps), "
                             "mu_node)"), row
    assert row[2].endswith("given mu_node == mu"), row


def test_the_issue_example_is_refuted_not_defined() -> None:
    got = rows(r"\frac{\partial \hat x_i}{\partial \mu} = \sum_i \frac{-1}{\sqrt{\sigma^2+"
               r"\epsilon}}")
    assert [s for _, s, _, _ in got if s != "defined"] == ["refuted"], got


def test_a_name_the_document_defines_keeps_its_meaning() -> None:
    got = rows(r"\frac{\partial \ell}{\partial \mu} = 0", PRE + "\nlet dl_dmu = 0")
    assert [(s, st) for _, s, st, _ in got] == [("proved", "dl_dmu == 0")], got


def test_vocabulary_meaning_row_says_what_it_is() -> None:
    got = rows(LOCAL_LINES[0][0])
    (row,) = [r for r in got if r[1] == "defined"]
    assert row[0] == "eq.sigma" and "the vocabulary's meaning of sigma (use batchnorm)" in row[3]
    assert "does not define sigma" in row[3] and "define sigma before it" not in row[3]


def test_layernorm_has_the_same_graph() -> None:
    pre = "use layernorm\nvector dl_dy"
    assert claims(IOFFE[0][0], pre) == ["proved"]
    line = (r"\frac{\partial \ell}{\partial \sigma^2} = \sum_{i=1}^d \frac{\partial \ell}"
            r"{\partial \hat x_i}(x_i-\mu)\cdot\frac{-1}{2}(\sigma^2+\epsilon)^{-3/2}")
    assert claims(line, pre) == ["proved"]
    assert claims(line.replace("-3/2", "-1/2"), pre) == ["refuted"]


# --- refusals ---------------------------------------------------------------------------------

def _error(latex: str, preamble: str = PRE) -> str:
    got = rows(latex, preamble)
    errors = [m for _, s, _, m in got if s == "error"]
    assert errors, got
    return errors[0]


def test_not_a_parent_is_refused_naming_both() -> None:
    msg = _error(r"\frac{\partial y}{\partial \mu} = 0")
    assert "mu is not a parent of y" in msg and "\\partial \\ell}{\\partial mu}" in msg, msg


def test_a_loss_partial_without_upstream_gradient_is_refused() -> None:
    msg = _error(r"\frac{\partial \ell}{\partial \mu} = 0", "use batchnorm")
    assert "no upstream gradient is declared" in msg and "vector dl_dy" in msg, msg


def test_a_document_definition_of_a_node_is_refused_not_a_second_graph() -> None:
    msg = _error(r"\frac{\partial \ell}{\partial \mu} = 0",
                 PRE + "\nlet xhat = (x - mu*ones)/sqrt(eps)")
    assert "the document defines xhat itself" in msg, msg


def test_standard_deviation_is_not_a_node() -> None:
    msg = _error(r"\frac{\partial \ell}{\partial \sigma} = 0")
    assert "the variance sigma^2" in msg, msg


def test_graph_partial_in_a_definition_is_refused() -> None:
    msg = _error(r"D := \frac{\partial \ell}{\partial \mu}")
    assert "partial along the computation graph" in msg, msg


def test_other_vocabulary_options_offer_no_graph() -> None:
    # eps outside the root: the vocabulary's xhat is not the graph's, so no graph is read,
    # and the partial is an error naming the name that differs (never a definition)
    msg = _error(IOFFE[0][0], "document use layernorm(eps_inside=0)\nvector dl_dy")
    assert "read only for the vocabulary's default map" in msg and "xhat" in msg, msg


def test_same_index_partials_are_read_both_ways() -> None:
    # latex_same_index.py: y_i depends on xhat_i alone, so the local partial and the
    # Jacobian's diagonal are one; xhat_i depends on x_i through mu and sigma^2 too, and the
    # two readings disagree here: an error naming both verdicts
    assert claims(r"\frac{\partial y_i}{\partial \hat x_i} = \gamma") == ["proved"]
    assert claims(r"\frac{\partial y_i}{\partial \hat x_i} = 2\gamma") == ["refuted"]
    msg = _error(r"\frac{\partial \hat x_i}{\partial x_i} = \frac{1}{\sqrt{\sigma^2+\epsilon}}")
    assert "two readings, and they disagree" in msg and "partial along the computation graph" \
        in msg and "it is proved" in msg and "it is refuted" in msg, msg


def test_elementwise_layernorm_graph() -> None:
    pre = "document use layernorm(affine=elementwise)\nvector dl_dy"
    line = r"\frac{\partial \ell}{\partial \hat x_i} = \frac{\partial \ell}{\partial y_i}\gamma_i"
    assert claims(line, pre) == ["proved"]
    assert claims(line.replace(r"\gamma_i", r"\beta_i"), pre) == ["refuted"]


# --- the document's own definitions are the graph (no vocabulary) ------------------------------

ALG1 = ("\\mu_\\mathcal{B} \\leftarrow \\frac{1}{m}\\sum_{i=1}^m x_i\n"
        "\\sigma_\\mathcal{B}^2 \\leftarrow \\frac{1}{m}\\sum_{i=1}^m (x_i - \\mu_\\mathcal{B})^2\n"
        "\\hat{x}_i \\leftarrow \\frac{x_i - \\mu_\\mathcal{B}}{\\sqrt{\\sigma_\\mathcal{B}^2 + "
        "\\epsilon}}\n"
        "y_i \\leftarrow \\gamma\\hat{x}_i + \\beta")
OWN = "vector x, dl_dy\nscalar eps, gamma, beta\nlet m = d"


def own_rows(latex: str) -> list[tuple[str, str, str, str]]:
    text = (f"```symnorm\n{OWN}\n```\n\n```latex alg\n{ALG1}\n```\n\n"
            f"```latex eq\n{latex}\n```\n")
    return [(v.label, v.status, v.statement, v.message)
            for v in check_text(text, "g.md", sandbox=False).verdicts
            if v.label.startswith("eq")]


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_own_definitions_are_the_graph(k: int) -> None:
    """Ioffe's backward pass on Algorithm 1's own definitions (no vocabulary): proved, and a
    one-token variant refuted (the numpy truth is the same graph's)."""
    latex = IOFFE[k][0]
    got = own_rows(latex)
    assert [s for _, s, _, _ in got if s != "defined"] == ["proved"], got
    line, old, new, truth = [m for m in MUTANTS if m[0] == k][0]
    assert not truth()
    got = own_rows(latex.replace(old, new))
    assert [s for _, s, _, _ in got if s != "defined"] == ["refuted"], got


def test_own_definitions_read_as_shows_the_cut() -> None:
    (row,) = [r for r in own_rows(IOFFE[2][0]) if r[0] == "eq.1"]
    # mu_B cut: sigma_B (defined from mu_B), xhat and y recomputed from mu_B_node
    assert "(x - mu_B_node * ones).T * (x - mu_B_node * ones)" in row[2], row
    assert "given mu_B_node == mu_B" in row[2], row


def test_own_definitions_local_partial_and_refusals() -> None:
    got = own_rows(r"\frac{\partial \hat x_i}{\partial \mu_\mathcal{B}} = \frac{-1}{\sqrt{"
                   r"\sigma_\mathcal{B}^2 + \epsilon}}")
    assert [s for _, s, _, _ in got] == ["proved"], got
    got = own_rows(r"\frac{\partial \hat x_i}{\partial \mu_\mathcal{B}} = \sum_i \frac{-1}{"
                   r"\sqrt{\sigma_\mathcal{B}^2 + \epsilon}}")
    assert [s for _, s, _, _ in got] == ["refuted"], got
    for own, latex, want in (
            (OWN, r"\frac{\partial y}{\partial \mu_\mathcal{B}} = 0", "mu_B is not a parent of y"),
            ("vector x\nscalar eps, gamma, beta\nlet m = d", IOFFE[1][0],
             "no upstream gradient is declared")):
        text = (f"```symnorm\n{own}\n```\n\n```latex alg\n{ALG1}\n```\n\n"
                f"```latex eq\n{latex}\n```\n")
        errs = [v.message for v in check_text(text, "g.md", sandbox=False).verdicts
                if v.status == "error"]
        assert errs and want in errs[0], errs


def test_own_function_in_the_graph_is_refused() -> None:
    """A document function can use B out of sight of the definitions' names: refused."""
    text = ("```symnorm\nvector x, dl_dy\nscalar eps, gamma, beta\nlet m = d\n"
            "let mu_B = sum(x)/m\nlet F(t) = t - mu_B*ones\n"
            "let sigma_B = sqrt(F(x).T*F(x)/m)\nlet y = gamma*F(x)/sqrt(sigma_B**2 + eps)"
            " + beta*ones\n```\n\n"
            "```latex eq\n\\frac{\\partial \\ell}{\\partial \\mu_\\mathcal{B}} = 0\n```\n")
    errs = [v.message for v in check_text(text, "g.md", sandbox=False).verdicts
            if v.status == "error"]
    assert errs and "function F" in errs[0], errs


def test_same_equation_definitions_are_nodes() -> None:
    """A definition of the equation itself is a node (here c, defined beside the claim)."""
    def got(rhs: str) -> list[str]:
        text = (f"```symnorm\n{OWN}\nlet mu_B = sum(x)/m\n```\n\n```latex eq\n"
                f"c_i = x_i - \\mu_\\mathcal{{B}},\\quad \\frac{{\\partial c_i}}{{\\partial "
                f"\\mu_\\mathcal{{B}}}} = {rhs}\n```\n")
        return [v.status for v in check_text(text, "g.md", sandbox=False).verdicts
                if v.status != "defined"]
    assert got("-1") == ["proved"]
    assert got("1") == ["refuted"]


# --- red team 11: a cut by a power, and a node computed with a function ----------------------

OWN_Q = "vector p, dl_dw\nscalar k\nlet q = k - 5"


def test_a_partial_by_a_power_of_a_node_not_defined_as_its_root_is_refused() -> None:
    # w = q^3 p with q = k - 5, which is negative for k < 5: reading q as (q^2)^(1/2) = |q|
    # downstream of a cut at q^2 had the false 3/2 |q| p . dl_dw proved and the true
    # 3/2 q p . dl_dw refuted
    pre = OWN_Q + "\nlet w = q**3 * p"
    for latex in (r"\frac{\partial \ell}{\partial q^2} = \frac{3}{2}\left|q\right| p^\top"
                  r"\frac{\partial \ell}{\partial w}",
                  r"\frac{\partial \ell}{\partial q^2} = \frac{3}{2} q p^\top"
                  r"\frac{\partial \ell}{\partial w}"):
        msg = _error(latex, pre)
        assert "q is defined as" in msg and "not as the root of its power 2" in msg, msg


def test_a_power_of_a_node_defined_as_its_root_is_cut() -> None:
    # \sigma_B^2 = ... defines sigma_B as the root of its square: the cut is its definition
    pre = "vector x, dl_dy"
    defs = (r"\mu_B = \frac{1}{d}\sum_{i=1}^d x_i" "\n"
            r"\sigma_B^2 = \frac{1}{d}\sum_{i=1}^d (x_i - \mu_B)^2" "\n"
            r"y = (x - \mu_B)/\sqrt{\sigma_B^2 + 1}" "\n")
    true = (r"\frac{\partial \ell}{\partial \sigma_B^2} = -\frac{1}{2}(\sigma_B^2+1)^{-3/2}"
            r" \sum_i \frac{\partial \ell}{\partial y_i}(x_i - \mu_B)")
    assert claims(defs + true, pre) == ["proved"]
    assert claims(defs + true.replace("-3/2", "-1/2"), pre) == ["refuted"]


def test_a_local_partial_through_a_function_that_uses_the_node_is_refused() -> None:
    # F(z) = z + a and w = F(a) is 2a: replacing a in F's argument only gave dw/da = I
    pre = "vector p, dl_dw\nscalar k\nlet a = k*p\nlet F(z) = z + a\nlet w = F(a)"
    for latex in (r"\frac{\partial w}{\partial a} = I", r"\frac{\partial w}{\partial a} = 2 I"):
        msg = _error(latex, pre)
        assert "w is computed with the document's function F" in msg, msg


def test_a_node_name_of_another_vocabulary_is_no_node_here() -> None:
    # red team 12: under use layernorm \mu_\mathcal{B} = ... defines a new mu_B (the name has
    # no layernorm meaning), so a partial by it must not be the mean's adjoint either
    line = (r"\frac{\partial \ell}{\partial \mu_\mathcal{B}} = -\frac{1}{\sqrt{\sigma^2+"
            r"\epsilon}} \sum_i \frac{\partial \ell}{\partial \hat x_i}")
    msg = _error(line, "use layernorm\nvector dl_dy")
    assert "the document has no quantity mu_B" in msg, msg
    assert claims(line, "use batchnorm\nvector dl_dy") == ["proved"]


# --- a partial that writes the output but no affine parameter -------------------------------

#: (line, the factor gamma dropped from it, numpy truth at gamma = 1, beta = 0): true for the
#: layer without affine parameters, false for the layer with them (the classic typo reads the
#: same); the use line says which (affine=none), else it is an error naming both readings
PLAIN = [
    (0, r" \cdot \gamma", lambda: same(_d(lambda b: DY @ b, XHAT), DY)),
    (9, r"\gamma ", lambda: same(_d(lambda b: b, XHAT), np.eye(M))),
]
NONE = "document use batchnorm(affine=none)\nvector dl_dy"


@pytest.mark.parametrize("line, old, truth", PLAIN)
def test_a_partial_without_the_gain_needs_the_use_line_to_say_so(line, old, truth) -> None:
    assert truth()
    latex = LINES[line][0].replace(old, "")
    assert LINES[line][1]()  # with the gain, the line as the corpus has it is true
    msg = _error(latex)
    assert "two readings" in msg and "`use batchnorm(affine=none)`" in msg, msg
    assert "read with them it is refuted" in msg, msg
    assert claims(latex, NONE) == ["proved"], rows(latex, NONE)
    # a one-token variant, false for the layer without affine parameters too
    wrong = latex.replace(r"= \frac{\partial \ell}", r"= 2\frac{\partial \ell}") if line == 0 \
        else latex.replace("= I", "= 2I")
    assert wrong != latex
    assert not same(DY, 2 * DY) and not same(np.eye(M), 2 * np.eye(M))
    assert claims(wrong, NONE) == ["refuted"], rows(wrong, NONE)
