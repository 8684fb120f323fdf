"""The constructs sources print that issue 10's second round reads (docs/latex.md): each
true form is proved, each one-token false variant refuted, each near miss refused with a
message naming the construct.

The truth of every entry is computed here with numpy at one rational point (independently
of symnorm), so a table entry cannot be labelled by the code under test.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_latex_real_world2 import EPS, GAMMA, BETA, _X, _mu, _same, _var, verdicts

LN = "use layernorm"
BN = "use batchnorm"
RMS = "use rmsnorm"
BN_NONE = "document use batchnorm(affine=none)"
M = len(_X)
XH = (_X - _mu(_X)) / np.sqrt(_var(_X) + EPS)  # the normalized vector
MS = float(_X @ _X) / M                         # mean square
PADDLE = (r"\begin{split}\mu_{\beta} &\gets \frac{1}{m} \sum_{i=1}^{m} x_i \qquad &//\ \ "
          r"mini-batch\ mean \\ \sigma_{\beta}^{2} &\gets \frac{1}{m} \sum_{i=1}^{m}(x_i - "
          r"\mu_{\beta})^2 \qquad &//\ mini-batch\ variance \\\end{split}")

#: (name, preamble, latex, truth computed with numpy)
CASES = [
    ("stat.words", LN, r"y = \frac{x - E(x)}{\sqrt{Var(x) + \epsilon}} \gamma + \beta",
     lambda: _same((_X - _X.mean()) / np.sqrt(_X.var() + EPS) * GAMMA + BETA,
                   GAMMA * XH + BETA)),
    ("stat.words.eps", LN, r"y = \frac{x - E(x)}{\sqrt{Var(x) - \epsilon}} \gamma + \beta",
     lambda: _same((_X - _X.mean()) / np.sqrt(_X.var() - EPS) * GAMMA + BETA,
                   GAMMA * XH + BETA)),
    ("stat.bbV", BN, r"y = \frac{x - \mathbb{E}[x]}{\sqrt{\mathbb{V}[x] + \epsilon}} \gamma + \beta",
     lambda: True),
    ("stat.bbV.square", BN,
     r"y = \frac{x - \mathbb{E}[x]}{\sqrt{\mathbb{V}[x]^2 + \epsilon}} \gamma + \beta",
     lambda: _same((_X - _mu(_X)) / np.sqrt(_var(_X) ** 2 + EPS), XH)),
    ("ms.centered", LN, r"\mathrm{MS}[x - \mu] = \sigma^2",
     lambda: _same(np.mean((_X - _mu(_X)) ** 2), _var(_X))),
    ("ms.centered.power", LN, r"\mathrm{MS}[x - \mu] = \sigma",
     lambda: _same(np.mean((_X - _mu(_X)) ** 2), np.sqrt(_var(_X)))),
    ("sum.bare", LN, r"\frac{1}{d}\sum x^2 = \mathrm{MS}[x]", lambda: _same(np.sum(_X ** 2) / M, MS)),
    ("sum.bare.factor", LN, r"\frac{1}{d}\sum x^2 = 2\mathrm{MS}[x]",
     lambda: _same(np.sum(_X ** 2) / M, 2 * MS)),
    ("sum.square", LN, r"\sum_{i=1}^{d} (x - \mu)^2 = d \sigma^2",
     lambda: _same(np.sum((_X - _mu(_X)) ** 2), M * _var(_X))),
    ("sum.square.drop", LN, r"\sum_{i=1}^{d} (x - \mu)^2 = \sigma^2",
     lambda: _same(np.sum((_X - _mu(_X)) ** 2), _var(_X))),
    ("E.square", LN, r"E[(x-\mu)^2] = Var[x]", lambda: _same(np.mean((_X - _mu(_X)) ** 2), _var(_X))),
    ("E.square.sign", LN, r"E[(x+\mu)^2] = Var[x]",
     lambda: _same(np.mean((_X + _mu(_X)) ** 2), _var(_X))),
    ("E.square.moment", LN, r"E[x^2] = E[x]^2", lambda: _same(MS, _mu(_X) ** 2)),
    ("rms.eps", "use rmsnorm", r"\frac{x}{\sqrt{E[x^2]+\epsilon}} = \frac{x}{\mathrm{RMS}[x]}",
     lambda: True),
    ("rms.eps.sign", "use rmsnorm", r"\frac{x}{\sqrt{E[x^2]-\epsilon}} = \frac{x}{\mathrm{RMS}[x]}",
     lambda: _same(_X / np.sqrt(MS - EPS), _X / np.sqrt(MS + EPS))),
    ("rms.statistic", "vector x", r"\mathrm{RMS}[x]^2 = \frac{x^\top x}{d}", lambda: True),
    ("rms.statistic.d2", "vector x", r"\mathrm{RMS}[x]^2 = \frac{x^\top x}{d^2}",
     lambda: _same(MS, float(_X @ _X) / M ** 2)),
    ("paddle.rows", BN, PADDLE, lambda: True),
    ("paddle.rows.factor", BN, PADDLE.replace(r"\frac{1}{m} \sum_{i=1}^{m} x_i", r"\frac{2}{m} "
                                              r"\sum_{i=1}^{m} x_i"),
     lambda: _same(2 * np.sum(_X) / M, _mu(_X))),
    ("color", LN, r"\color{red}{\mu = \frac{1}{d}\sum_i x_i}", lambda: True),
    ("color.d2", LN, r"\color{red}{\mu = \frac{1}{d^2}\sum_i x_i}",
     lambda: _same(np.sum(_X) / M ** 2, _mu(_X))),
    ("sqrt.paren", LN, r"\sqrt(Var(x) + epsilon) = \sqrt{\sigma^2+\epsilon}", lambda: True),
    ("sqrt.paren.sign", LN, r"\sqrt(Var(x) - epsilon) = \sqrt{\sigma^2+\epsilon}",
     lambda: _same(np.sqrt(_var(_X) - EPS), np.sqrt(_var(_X) + EPS))),
    ("triangleq", LN, r"q \triangleq \frac{1}{d}\sum_i x_i, \quad q = \mu", lambda: True),
    ("triangleq.factor", LN, r"q \triangleq \frac{1}{d}\sum_i x_i, \quad q = 2\mu",
     lambda: _same(_mu(_X), 2 * _mu(_X))),
    ("stackrel", LN, r"q \stackrel{\textrm{def}}{=} \frac{1}{d}\sum_i x_i, \quad q = \mu",
     lambda: True),
    ("equiv", LN, r"\mu \equiv \frac{1}{d}\sum_i x_i", lambda: True),
    ("equiv.square", LN, r"\mu \equiv \frac{1}{d}\sum_i x_i^2", lambda: _same(_mu(_X), MS)),
    ("nhw", BN, r"\mu_B = \frac{1}{NHW}\sum_{i=1}^{NHW} x_i", lambda: True),
    ("nhw.square", BN, r"\mu_B = \frac{1}{NHW}\sum_{i=1}^{NHW} x_i^2", lambda: _same(_mu(_X), MS)),
    ("H", LN, r"\mu = \frac{1}{H}\sum_{i=1}^{H} x_i", lambda: True),
    ("H.factor", LN, r"\mu = \frac{2}{H}\sum_{i=1}^{H} x_i", lambda: _same(_mu(_X), 2 * _mu(_X))),
    ("bn.gamma.beta", BN, r"y_i = \gamma \hat x_i + \beta = BN_{\gamma,\beta}(x_i)", lambda: True),
    ("bn.gamma.beta.sign", BN, r"y_i = \gamma \hat x_i - \beta = BN_{\gamma,\beta}(x_i)",
     lambda: _same(GAMMA * XH - BETA, GAMMA * XH + BETA)),
    ("entrywise", LN, r"y = \gamma \frac{x_i - \mu}{\sqrt{\sigma^2 + \epsilon}} + \beta",
     lambda: True),
    ("entrywise.eps", LN, r"y = \gamma \frac{x_i - \mu}{\sqrt{\sigma^2 - \epsilon}} + \beta",
     lambda: _same(GAMMA * (_X - _mu(_X)) / np.sqrt(_var(_X) - EPS) + BETA, GAMMA * XH + BETA)),
    # the layer without affine parameters, as the use line says (document-wide, since the
    # equation sits in a latex block of its own)
    ("plain.output", BN_NONE, r"y = \frac{x - \mu_B}{\sqrt{\sigma_B^2 + \epsilon}}",
     lambda: True),
    ("plain.output.sign", BN_NONE, r"y = \frac{x + \mu_B}{\sqrt{\sigma_B^2 + \epsilon}}",
     lambda: _same((_X + _mu(_X)) / np.sqrt(_var(_X) + EPS), XH)),
    # beta alone, and gamma alone, false for the layer with both and for the one without
    # either (a layer with only a gain, or only a bias, would be a third reading)
    ("plain.output.beta", BN, r"y = 2\frac{x - \mu_B}{\sqrt{\sigma_B^2 + \epsilon}} + \beta",
     lambda: _same(2 * XH + BETA, GAMMA * XH + BETA) or _same(2 * XH + BETA, XH + BETA)),
    ("plain.output.gamma", LN, r"y = \gamma\frac{x + \mu}{\sqrt{\sigma^2 + \epsilon}}",
     lambda: _same(GAMMA * (_X + _mu(_X)) / np.sqrt(_var(_X) + EPS), GAMMA * XH + BETA)
     or _same(GAMMA * (_X + _mu(_X)) / np.sqrt(_var(_X) + EPS), GAMMA * XH)),
    ("approx", LN, r"\hat x \approx \frac{x-\mu}{\sigma}", lambda: True),  # exact at eps = 0
    ("approx.sign", LN, r"\hat x \approx \frac{x+\mu}{\sigma}",
     lambda: _same((_X - _mu(_X)) / np.sqrt(_var(_X)), (_X + _mu(_X)) / np.sqrt(_var(_X)))),
    ("approx.power", LN, r"\hat x \approx \frac{x-\mu}{\sigma^2}",
     lambda: _same((_X - _mu(_X)) / np.sqrt(_var(_X)), (_X - _mu(_X)) / _var(_X))),
    ("arrow.map", LN, r"x \rightarrow \mathcal N(x) = \frac{P x}{s}", lambda: True),
    ("arrow.map.power", LN, r"x \rightarrow \mathcal N(x) = \frac{P x}{s^2}",
     lambda: _same(XH, XH / np.sqrt(_var(_X) + EPS))),
    ("var.moments", LN, r"Var[x] = E[x^2] - E[x]^2", lambda: _same(_var(_X), MS - _mu(_X) ** 2)),
    ("var.moments.sign", LN, r"Var[x] = E[x^2] + E[x]^2",
     lambda: _same(_var(_X), MS + _mu(_X) ** 2)),
    # \sum x on the left is the sum of the entries, never a definition of a function
    ("sum.left", LN, r"\sum x = d \mu", lambda: True),
    ("sum.left.factor", LN, r"\sum x = \mu", lambda: _same(np.sum(_X), _mu(_X))),
    ("weight.bias", LN, r"y = \hat x \cdot weight + bias", lambda: True),
    ("weight.bias.sign", LN, r"y = \hat x \cdot weight - bias",
     lambda: _same(XH * GAMMA - BETA, GAMMA * XH + BETA)),
]


@pytest.mark.parametrize("name, preamble, latex, truth", CASES, ids=[c[0] for c in CASES])
def test_construct_verdict(name: str, preamble: str, latex: str, truth) -> None:
    got = verdicts(preamble, latex)
    statuses = [s for _, s, _ in got]
    assert "error" not in statuses, got
    claims = [s for s in statuses if s != "defined"]
    assert claims, got  # every case states a claim
    if truth():
        assert set(claims) == {"proved"}, got
    else:
        assert "refuted" in claims, got


@pytest.mark.parametrize("preamble, latex, truths", [
    # numpy: (with gamma and beta, without them): the two readings disagree
    (BN, r"y = \frac{x - \mu_B}{\sqrt{\sigma_B^2 + \epsilon}}",
     lambda: (_same(XH, GAMMA * XH + BETA), True)),
    (BN, r"y = \frac{x - \mu_B}{\sqrt{\sigma_B^2 + \epsilon}} + \beta",
     lambda: (_same(XH + BETA, GAMMA * XH + BETA), True)),
    (LN, r"y = \gamma\frac{x - \mu}{\sqrt{\sigma^2 + \epsilon}}",
     lambda: (_same(GAMMA * XH, GAMMA * XH + BETA), True)),
])
def test_an_output_that_drops_a_parameter_is_two_readings(preamble, latex, truths) -> None:
    assert truths() == (False, True)
    got = verdicts(preamble, latex)
    errors = [m for _, s, m in got if s == "error"]
    assert len(errors) == 1 and "two readings" in errors[0], got
    assert "(affine=none)" in errors[0] and "without them proved" in errors[0], got


def test_false_variants_outnumber_twenty() -> None:
    assert sum(1 for c in CASES if not c[3]()) >= 20


def test_read_as_shows_the_new_readings() -> None:
    def read(pre: str, latex: str) -> list[str]:
        from symnorm.check.run import check_text
        text = f"```symnorm\n{pre}\n```\n\n```latex eq\n{latex}\n```\n"
        return [v.statement for v in check_text(text, "t.md", sandbox=False).verdicts]
    assert "x.T * x / d" in read(LN, r"\mu^2 = E[x^2]")[0]
    assert any(s == "let y = BN(x)" for s in read(BN_NONE, r"y = \frac{x - \mu_B}{\sqrt{"
                                                 r"\sigma_B^2 + \epsilon}}"))
    assert any(s == "let weight = gamma" for s in read(LN, r"y = \hat x \cdot weight + bias"))
    assert any("gamma * BN(x) + beta * ones" in s
               for s in read(BN, r"y = BN_{\gamma,\beta}(x)"))


#: (preamble, latex, fragment of the first error)
REFUSALS = [
    ("vector x\nscalar a", r"a = x // 2", "unexpected '/'"),
    (LN, r"\color{red}{\mu = 0} + 1", "after \\color{...} around a relation"),
    (LN, r"\boxed{\mu = 0} + 1", "after \\boxed{...} around a relation"),
    (LN, r"\mu = Var", "'Var' is written as a word"),
    (LN, r"\sigma^2 = \frac{1}{d} x^2", "cannot raise a vector to a power"),
    # \sum x_i (the index implied by the summand) is read; two letters are ambiguous
    (LN, r"\sum x_i x_j = d\mu", "which one it sums over is ambiguous"),
    (LN, r"\sum{i=1}^{d} x_i = d\mu", "lost its underscore"),
    (LN, r"\sigma^2 = \sum \mu^2", "\\sum without an index of a scalar"),
    (LN, r"\mathrm{MS}[\mu] = \mu^2", "\\sum without an index of a scalar"),
    (LN + "\nscalar M, S", r"MS[x] = 0", "both a statistic and a product of defined letters"),
    (BN, r"\mu_B = \frac{1}{NHW}\sum_{i=1}^{m} x_i", "names the dimension both"),
    (BN, r"\mu_B = \frac{1}{HW}\sum_{i=1}^{HW} x_i", "upper bound HW of \\sum"),
    (BN, r"\mu_B = \frac{1}{H}\sum_{i=1}^{m} x_i", "unknown name 'H'"),
    (LN, r"\sqrt(\sigma^2)^2 = \sigma^2", "a script after \\sqrt(...)"),
    (LN + "\nscalar weight", r"y = \hat x \cdot weight + \beta",
     "weight is declared by the document"),
    ("use layernorm(d=4)\nvector g, b", r"y_i = g_i \hat x_i + b_i", "uses b, declared by the"),
    (BN, r"y = BN_{\gamma,\beta}(\mu_B)", "read only of the mini-batch"),
    (LN, r"\mu \approx \frac{1}{d}\sum_i x_i", "do not depend on eps"),
    ("vector x\nscalar a", r"a \approx x^\top x", "the document has no eps"),
    (LN, r"y = \hat x \approx \frac{x-\mu}{\sigma}", "\\approx inside a chain"),
    (LN, r"y \simeq \hat x", "\\simeq: an approximate equality is not checked"),
    (LN, r"\epsilon \to 0", "a map written with an arrow is read only as"),
    (LN, r"x \rightarrow \mathcal N(y) = y", "a map written with an arrow is read only as"),
]


@pytest.mark.parametrize("preamble, latex, fragment", REFUSALS, ids=[r[1] for r in REFUSALS])
def test_near_misses_are_refused(preamble: str, latex: str, fragment: str) -> None:
    got = verdicts(preamble, latex)
    errors = [m for _, s, m in got if s == "error"]
    assert errors and fragment in errors[0], got
