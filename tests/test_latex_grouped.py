r"""GroupNorm and InstanceNorm in LaTeX (issue 10): PyTorch's docstrings and Wu and He (2018).

With ``use groupnorm(...)`` / ``use instancenorm(...)`` the statistics ``\mathrm{E}[x]``,
``\mathrm{Var}[x]``, ``\mu``, ``\sigma^2``, ``\mu_i`` are those of each entry's group, gamma
and beta are per channel, and ``\sum_{k\in\mathcal S_i}`` runs over i's group
(symnorm/lang/latex_groups.py).  Every truth value below comes from numpy (a reference
GroupNorm written with reshapes, as PyTorch computes it), never from symnorm; each true row
is proved at the vocabulary's shape, and each one-token variant numpy calls false is refuted.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from symnorm.check.run import check_text

RNG = np.random.default_rng(10)
EPS = 0.3


def rows(preamble: str, *equations: str) -> list[tuple[str, str, str, str]]:
    """(label, status, scope, message) of each row: the preamble's block, then one block
    holding ``latex eN: ...`` lines (a `use` with options holds document-wide)."""
    preamble = "\n".join(f"document {ln}" if ln.startswith("use ") and "(" in ln else ln
                         for ln in preamble.splitlines())
    body = "\n".join(f"latex e{k}: {eq}" for k, eq in enumerate(equations, start=1))
    text = f"```symnorm\n{preamble}\n```\n\n```symnorm\n{body}\n```\n"
    res = check_text(text, "grouped.md", sandbox=False, timeout=60)
    return [(v.label, v.status, v.scope, v.message) for v in res.verdicts]


def claims(got: list[tuple[str, str, str, str]]) -> list[tuple[str, str, str, str]]:
    return [r for r in got if r[1] != "defined"]


# --- the numpy reference ----------------------------------------------------------------

def shape_of(preamble: str) -> tuple[int, int, int]:
    """(groups, channels, spatial) of the preamble's `use` line."""
    opts = dict(groups=2, channels=4, spatial=2)
    line = next(ln for ln in preamble.splitlines() if "norm(" in ln)
    for item in line[line.index("(") + 1:line.index(")")].split(","):
        k, v = item.strip().split("=")
        if k != "affine":
            opts[k] = int(v)
    if "instancenorm" in line:
        opts["groups"] = opts["channels"]
    return opts["groups"], opts["channels"], opts["spatial"]


class Point:
    """A random sample of one layer's shape: x (C, W), per-channel gamma and beta."""

    def __init__(self, preamble: str) -> None:
        self.G, self.C, self.W = shape_of(preamble)
        self.x = RNG.normal(size=(self.C, self.W)) * 2 + RNG.normal(size=(self.C, 1))
        self.gamma = RNG.normal(size=(self.C, 1)) + 1.5
        self.beta = RNG.normal(size=(self.C, 1))
        self.m = self.C // self.G * self.W

    def grouped(self, stat: Callable[[np.ndarray], float]) -> np.ndarray:
        """A statistic of each group, broadcast to the entries of that group (C, W)."""
        g = self.x.reshape(self.G, -1)
        return np.repeat(np.array([stat(row) for row in g]), self.m).reshape(self.C, self.W)

    @property
    def mean(self) -> np.ndarray:
        return self.grouped(np.mean)

    @property
    def var(self) -> np.ndarray:
        return self.grouped(np.var)  # biased, as PyTorch normalizes

    def normalized(self) -> np.ndarray:
        """PyTorch's F.group_norm without affine, by reshaping to (G, -1)."""
        g = self.x.reshape(self.G, -1)
        out = (g - g.mean(1, keepdims=True)) / np.sqrt(g.var(1, keepdims=True) + EPS)
        return out.reshape(self.C, self.W)

    def output(self) -> np.ndarray:
        return self.normalized() * self.gamma + self.beta


def same(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.allclose(a, b, rtol=1e-9, atol=1e-9))


GN = "use groupnorm(groups=2, channels=4, spatial=2)"
GN1 = "use groupnorm(groups=1, channels=2, spatial=3)"    # one group: LayerNorm of a sample
IN = "use instancenorm(channels=2, spatial=3)"
IN4 = "use instancenorm(channels=4, spatial=2)"
GN_NONE = "use groupnorm(groups=2, channels=4, spatial=2, affine=none)"  # PyTorch affine=False
IN_NONE = "use instancenorm(channels=2, spatial=3, affine=none)"

DOC = r"y = \frac{x - \mathrm{E}[x]}{ \sqrt{\mathrm{Var}[x] + \epsilon}} * \gamma + \beta"
WU_HE = (r"\mu_i = \frac{1}{m}\sum_{k\in\mathcal{S}_i} x_k",
         r"\sigma_i = \sqrt{\frac{1}{m}\sum_{k\in\mathcal{S}_i}(x_k-\mu_i)^2+\epsilon}",
         r"\hat{x}_i = \frac{1}{\sigma_i}(x_i-\mu_i)")


def _doc(p: Point) -> bool:
    return same(p.output(), (p.x - p.mean) / np.sqrt(p.var + EPS) * p.gamma + p.beta)


def _wu_he(p: Point) -> bool:
    sums = p.grouped(np.sum)
    sigma = np.sqrt(p.grouped(lambda r: np.sum((r - r.mean()) ** 2)) / p.m + EPS)
    return same(p.mean, sums / p.m) and same(p.normalized(), (p.x - p.mean) / sigma)


# --- the docstring formula and Wu and He's equations, proved at the shape ----------------

@pytest.mark.parametrize("preamble", [GN, GN1, IN, IN4])
def test_docstring_formula_is_proved_for_the_shape(preamble: str) -> None:
    assert _doc(Point(preamble))
    got = claims(rows(preamble, DOC))
    G, C, W = shape_of(preamble)
    # the scope says the shape's d literally, never every d
    assert [(s, sc) for _, s, sc, _ in got] == [("proved", f"d = {C * W}, where defined")], got


@pytest.mark.parametrize("preamble", [GN, GN1, IN])
def test_wu_and_he_equations(preamble: str) -> None:
    assert _wu_he(Point(preamble))
    got = rows(preamble, *WU_HE)
    status = {label: s for label, s, _, _ in got}
    # (1) and (3) are claims about the vocabulary's mu and x-hat; (2) defines sigma, which
    # has no vocabulary meaning with a grouped layer (sources disagree on eps in it)
    assert status == {"e1.1": "proved", "e1.mu": "defined", "e1.m": "defined",
                      "e2.sigma": "defined", "e3.1": "proved", "e3.xhat": "defined"}, got


# --- one-token variants: false by numpy, refuted ----------------------------------------

def _variant_doc(f: Callable[[Point], np.ndarray]) -> Callable[[Point], bool]:
    def holds(p: Point) -> bool:
        with np.errstate(invalid="ignore"):  # sqrt(var - eps) may be nan: not equal
            return same(p.output(), f(p))
    return holds


DOC_VARIANTS = [
    ("eps sign", r"+ \epsilon", r"- \epsilon",
     _variant_doc(lambda p: (p.x - p.mean) / np.sqrt(p.var - EPS) * p.gamma + p.beta)),
    ("eps missing", r" + \epsilon}", "}",
     _variant_doc(lambda p: (p.x - p.mean) / np.sqrt(p.var) * p.gamma + p.beta)),
    ("bias sign", r"\gamma + \beta", r"\gamma - \beta",
     _variant_doc(lambda p: (p.x - p.mean) / np.sqrt(p.var + EPS) * p.gamma - p.beta)),
    # the statistics of the whole sample (LayerNorm's) in place of the group's
    ("sample mean", r"\mathrm{E}[x]", r"\frac{1}{d}\sum_{k=1}^{d} x_k",
     _variant_doc(lambda p: (p.x - p.x.mean()) / np.sqrt(p.var + EPS) * p.gamma + p.beta)),
]


@pytest.mark.parametrize("preamble", [GN, IN])
@pytest.mark.parametrize("name, old, new, numeric", DOC_VARIANTS, ids=[v[0] for v in DOC_VARIANTS])
def test_docstring_variants_are_refuted(preamble: str, name: str, old: str, new: str,
                                        numeric: Callable[[Point], bool]) -> None:
    assert DOC.count(old) == 1 and numeric(Point(preamble)) is False
    got = claims(rows(preamble, DOC.replace(old, new)))
    assert [s for _, s, _, _ in got] == ["refuted"], got


def _wu_he_with(p: Point, m: float | None = None, eps: float = EPS, power: int = 1) -> bool:
    m = p.m if m is None else m
    sigma = np.sqrt(p.grouped(lambda r: np.sum((r - r.mean()) ** 2)) / p.m + eps)
    return same(p.mean, p.grouped(np.sum) / m) and same(p.normalized(),
                                                        (p.x - p.mean) / sigma ** power)


WU_HE_VARIANTS = [
    # a wrong group size: d entries in place of the m of i's group (eq. 1)
    ("group size", 0, r"\frac{1}{m}", r"\frac{1}{d}", lambda p: _wu_he_with(p, m=p.C * p.W)),
    ("eps missing", 1, r"+\epsilon", "", lambda p: _wu_he_with(p, eps=0.0)),
    ("sigma squared", 2, r"\frac{1}{\sigma_i}", r"\frac{1}{\sigma_i^2}",
     lambda p: _wu_he_with(p, power=2)),
]


@pytest.mark.parametrize("preamble", [GN, IN])
@pytest.mark.parametrize("name, row, old, new, numeric", WU_HE_VARIANTS,
                         ids=[v[0] for v in WU_HE_VARIANTS])
def test_wu_and_he_variants_are_refuted(preamble: str, name: str, row: int, old: str,
                                        new: str, numeric: Callable[[Point], bool]) -> None:
    assert WU_HE[row].count(old) == 1 and numeric(Point(preamble)) is False
    eqs = list(WU_HE)
    eqs[row] = eqs[row].replace(old, new)
    got = claims(rows(preamble, *eqs))
    assert "refuted" in [s for _, s, _, _ in got] and "error" not in [s for _, s, _, _ in got], got


def test_other_vocabularys_statistics_are_refuted() -> None:
    """InstanceNorm's statistics are not GroupNorm's: the same identity about the mean of
    the output over S_i (the group) holds per channel and fails over two channels."""
    eq = r"\frac{1}{m}\sum_{k\in\mathcal{S}_i} y_k = \beta"
    for preamble, holds in ((IN4, True), (GN, False)):
        p = Point(preamble)
        y = p.output().reshape(p.G, -1)
        group_mean = np.repeat(y.mean(1), p.m).reshape(p.C, p.W)  # over each entry's group
        assert same(group_mean, np.broadcast_to(p.beta, (p.C, p.W))) is holds
        got = claims(rows(preamble, eq))
        assert [s for _, s, _, _ in got] == ["proved" if holds else "refuted"], got


# --- the output and the layer names --------------------------------------------------------

@pytest.mark.parametrize("preamble, latex, truth", [
    (GN, r"\mathrm{GroupNorm}(x) = \frac{x - \mathrm{E}[x]}{\sqrt{\mathrm{Var}[x]+\epsilon}}"
     r" * \gamma + \beta", True),
    (IN, r"\mathrm{InstanceNorm}(x) = \frac{x - \mu}{\sqrt{\sigma^2+\epsilon}}\gamma + \beta",
     True),
    # the layer without affine parameters (PyTorch's affine=False), as the use line says
    (IN_NONE, r"\mathrm{IN}(x) = \frac{x - \mathrm{E}[x]}{\sqrt{\mathrm{Var}[x]+\epsilon}}",
     True),
    (GN_NONE, r"y = \frac{x - \mathrm{E}[x]}{\sqrt{\mathrm{Var}[x]+\epsilon}}", True),
    (GN, r"y_i = \gamma\hat{x}_i + \beta", True),
])
def test_outputs_and_layer_names(preamble: str, latex: str, truth: bool) -> None:
    p = Point(preamble)
    norm = (p.x - p.mean) / np.sqrt(p.var + EPS)
    assert same(p.output(), norm * p.gamma + p.beta) and same(p.normalized(), norm)
    assert truth == ("gamma" not in latex or "beta" in latex)
    got = claims(rows(preamble, latex))
    assert [s for _, s, _, _ in got] == ["proved" if truth else "refuted"], got


@pytest.mark.parametrize("latex", [
    r"y = \frac{x - \mathrm{E}[x]}{\sqrt{\mathrm{Var}[x]+\epsilon}}",
    r"y = \frac{x - \mathrm{E}[x]}{\sqrt{\mathrm{Var}[x]+\epsilon}} * \gamma",
])
def test_an_output_without_the_gain_or_bias_the_use_line_gives_is_two_readings(latex) -> None:
    # PyTorch's GroupNorm with affine=True has both: false for it, true without them
    p = Point(GN)
    norm = (p.x - p.mean) / np.sqrt(p.var + EPS)
    assert not same(p.output(), norm) and not same(p.output(), norm * p.gamma)
    got = claims(rows(GN, latex))
    assert [s for _, s, _, _ in got] == ["error"], got
    assert "two readings" in got[0][3] and "(affine=none)" in got[0][3], got
    assert "without \\beta" in got[0][3] or "without \\gamma and \\beta" in got[0][3], got


# --- the set S_i with the other vocabularies -----------------------------------------------

@pytest.mark.parametrize("preamble, latex, status", [
    ("use layernorm", r"\mu_i = \frac{1}{m}\sum_{k\in\mathcal{S}_i} x_k", "proved"),
    ("use layernorm", r"\mu_i = \frac{2}{m}\sum_{k\in\mathcal{S}_i} x_k", "refuted"),
    ("use batchnorm", r"\mu_B = \frac{1}{m}\sum_{k\in\mathcal{S}_i} x_k", "proved"),
    ("use batchnorm", r"\mu_B = \frac{1}{m}\sum_{k\in\mathcal{S}_i} x_k^2", "refuted"),
])
def test_the_set_is_every_entry_for_layernorm_and_batchnorm(preamble: str, latex: str,
                                                            status: str) -> None:
    # numpy: the mean is sum/d; twice it, or the mean of squares, is not (x = 1, 2, 4)
    x = np.array([1.0, 2.0, 4.0])
    assert (x.mean() == x.sum() / 3) and (x.mean() != 2 * x.sum() / 3) \
        and (x.mean() != (x ** 2).sum() / 3)
    got = claims(rows(preamble, latex))
    assert [s for _, s, _, _ in got] == [status], got
    assert "every d" in got[0][2] or status == "refuted"


# --- refusals ---------------------------------------------------------------------------

@pytest.mark.parametrize("preamble, latex, message", [
    (GN, r"\mu_i = \frac{1}{m}\sum_{k\in\mathcal{T}_i} x_k", "a sum over the set T"),
    ("vector x", r"\mu_i = \frac{1}{m}\sum_{k\in\mathcal{S}_i} x_k", "a sum over the set S"),
    (GN, r"y = \frac{x - \mu}{\sigma}", "sigma with use groupnorm means one of two things"),
    ("use layernorm", WU_HE[1], "\\sigma_i: sources mean two things by it"),
    (GN, r"v = (x - \mathrm{E}[x])^\top (x - \mathrm{E}[x])",
     "the group mean inside an inner or matrix product"),
    (GN, r"y = \frac{x - \mathrm{E}[x^2]}{\sqrt{\mathrm{Var}[x]+\epsilon}}",
     "the per-group statistics are those of the input x"),
    (GN, r"\sum_{k\in\mathcal{S}_i} \gamma x_k = 0", "a group holds several channels"),
    (GN, r"\mathrm{Var}[x] + 1 \ge \mu", "an entrywise inequality"),
    (GN, r"y = x \quad \text{if}\ \mathrm{Var}[x] = 1", "a condition or assumption"),
    ("use layernorm\n" + GN, r"y = x - \mathrm{E}[x]", "give the statistics of x different groups"),
    (GN, r"\mu_i = \frac{1}{m}\sum_{k\in\mathcal{S}_k} x_k", "not the sum's index k"),
])
def test_refusals(preamble: str, latex: str, message: str) -> None:
    got = rows(preamble, latex)
    errors = [m for _, s, _, m in got if s == "error"]
    assert errors and message in errors[0], got


def test_per_entry_symbols_are_latex_only() -> None:
    text = f"```symnorm\n{GN}\nclaim a: gmu_entry == gmu1\n```\n"
    got = [(v.status, v.message) for v in check_text(text, "g.md", sandbox=False).verdicts]
    assert got[0][0] == "error" and "per-entry symbol of the LaTeX reader" in got[0][1], got


def test_a_vector_gamma_of_the_document_is_not_the_per_channel_gain() -> None:
    got = rows(GN + "\nvector gamma", r"y = \gamma \odot \hat{x} + \beta")
    errors = [m for _, s, _, m in got if s == "error"]
    assert errors and "the per-channel gain" in errors[0], got


@pytest.mark.parametrize("preamble", [IN, GN])
@pytest.mark.parametrize("latex, truth", [
    (r"\mathrm{Var}[x] = \frac{1}{m}\sum_{k\in\mathcal{S}_i} x_k^2 - \mu^2",
     lambda p: same(p.var, p.grouped(lambda r: np.mean(r ** 2)) - p.mean ** 2)),
    # one token: mu for mu^2
    (r"\mathrm{Var}[x] = \frac{1}{m}\sum_{k\in\mathcal{S}_i} x_k^2 - \mu",
     lambda p: same(p.var, p.grouped(lambda r: np.mean(r ** 2)) - p.mean)),
])
def test_a_sum_of_squares_over_the_group(preamble: str, latex: str,
                                         truth: Callable[[Point], bool]) -> None:
    holds = truth(Point(preamble))
    got = claims(rows(preamble, latex))
    assert [s for _, s, _, _ in got] == ["proved" if holds else "refuted"], got


@pytest.mark.parametrize("latex", [r"\frac{\partial \mu}{\partial x} = 0",
                                   r"0 = \sum_i (x_i - \mu)^2"])
def test_a_group_statistic_in_a_derivative_or_a_sum_over_every_entry_is_refused(
        latex: str) -> None:
    got = rows(GN, latex)
    errors = [m for _, s, _, m in got if s == "error"]
    assert errors and "the group mean inside" in errors[0], got


def test_the_layer_the_use_line_describes_decides() -> None:
    """eps outside the root (eps_inside=0): PyTorch's formula is not that layer."""
    preamble = "use groupnorm(groups=2, channels=4, spatial=2, eps_inside=0)"
    p = Point(GN)
    g = p.x.reshape(p.G, -1)
    outside = ((g - g.mean(1, keepdims=True)) / (np.sqrt(g.var(1, keepdims=True)) + EPS))
    layer = outside.reshape(p.C, p.W) * p.gamma + p.beta
    assert not same(layer, (p.x - p.mean) / np.sqrt(p.var + EPS) * p.gamma + p.beta)
    got = claims(rows(preamble, DOC))
    assert [s for _, s, _, _ in got] == ["refuted"], got


def test_the_documents_own_vector_mu_keeps_its_entries() -> None:
    # numpy: the normalized sample is not x - x = 0, and mu = x entrywise
    p = Point(GN)
    assert not same(p.normalized(), p.x - p.x)
    got = claims(rows(GN_NONE + "\nlet mu = x", r"y_i = x_i - \mu_i", r"\mu_i = x_i"))
    assert [s for _, s, _, _ in got] == ["refuted", "proved"], got


def test_every_output_equation_of_a_block_is_checked_not_only_the_first() -> None:
    # red team 14: the second equation about y was refused ("uses gbeta1 (through y),
    # declared by the document"), although gbeta1 occurs in GroupNorm's output
    pt = Point(GN)
    xh = pt.normalized()
    assert same(xh * pt.gamma + pt.beta, pt.output())
    assert not same(xh * pt.gamma + pt.gamma, pt.output())
    got = claims(rows(GN, r"\mathrm{GroupNorm}(x) = \gamma \hat x + \beta",
                      r"y = \frac{x - \mathrm{E}[x]}{\sqrt{\mathrm{Var}[x] + \epsilon}} * \gamma"
                      r" + \beta",
                      r"y = \gamma \hat x + \gamma"))
    # the last drops beta (a gamma for it): false with the bias and without it, refuted
    assert [r[1] for r in got] == ["proved", "proved", "refuted"], got
