r"""``\odot`` with batchnorm's per-feature gain (``symnorm/lang/latex_odot.py``): the scalar
times the vector, shown in ``read as``; every other entrywise product with a scalar operand
stays refused.

Truth by numpy and PyTorch without symnorm: the sources' formula on a data matrix X (rows
samples, columns features, gamma and beta vectors over the features), whose column j is the
vocabulary's vector x with the scalars gamma_j, beta_j.
"""

from __future__ import annotations

import numpy as np
import pytest
from construct_checks import assert_proved, assert_refused, assert_variant_refuted

from symnorm.check.run import check_text

BN = "use batchnorm"
YEH = "use batchnorm\nlet N = d\nlet X = x\nlet Y = y"

_RNG = np.random.default_rng(14)
_XM = _RNG.normal(size=(6, 3)) * 2 + 1          # 6 samples, 3 features
_G = _RNG.normal(size=3) + 2                     # gamma over the features
_B = _RNG.normal(size=3)                         # beta over the features
EPS = 1e-3


def _torch_bn() -> np.ndarray:
    import torch
    t = torch.tensor(_XM)
    out = torch.nn.functional.batch_norm(t, None, None, torch.tensor(_G), torch.tensor(_B),
                                         training=True, eps=EPS)
    return out.numpy()


def _source(xhat_of: str = "x", sign: float = 1.0, var_power: float = 0.5,
            gain_on: str = "xhat") -> np.ndarray:
    """The sources' gamma odot (x - mu)/sigma-hat + beta on the matrix, by feature
    broadcasting (numpy), with one token changed as the variants say."""
    mu = _XM.mean(axis=0)
    var = _XM.var(axis=0) + EPS
    xh = (_XM - mu) / var ** var_power if xhat_of == "x" else _XM
    return (_G * xh if gain_on == "xhat" else _G * _XM) + sign * _B


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.allclose(a, b, rtol=1e-9, atol=1e-9))


D2L = (r"\mathrm{BN}(\mathbf{x}) = \boldsymbol{\gamma} \odot \frac{\mathbf{x} - "
       r"\hat{\boldsymbol{\mu}}_\mathcal{B}}{\hat{\boldsymbol{\sigma}}_\mathcal{B}} + "
       r"\boldsymbol{\beta}")
YEH_LAYER = ("\\begin{align*}\n  \\hat{X} &= \\frac{X - \\mu}{\\sqrt{\\sigma^2 + \\epsilon}} \\\\\n"
             "  Y &= \\gamma \\odot \\hat{X} + \\beta\n\\end{align*}")

PROVED = [
    ("d2l", BN, D2L),
    ("yeh", YEH, YEH_LAYER),
    ("plain", BN, r"y = \gamma \odot \hat x + \beta"),
    ("right", BN, r"y = \hat x \odot \gamma + \beta"),
    ("bold", BN, r"\mathbf y = \boldsymbol\gamma \odot \hat{\mathbf x} + \boldsymbol\beta"),
    ("alias", BN + "\nlet w = gamma", r"y = w \odot \hat x + \beta"),
]


@pytest.mark.parametrize("key, preamble, latex", PROVED, ids=[p[0] for p in PROVED])
def test_true_forms_proved(key: str, preamble: str, latex: str) -> None:
    assert_proved(preamble, latex, lambda: _same(_source(), _torch_bn()))


def _read(preamble: str, latex: str) -> list[str]:
    text = f"```symnorm\n{preamble}\n```\n\n```latex eq\n{latex}\n```\n"
    return [str(v.statement) for v in check_text(text, "o.md", sandbox=False).verdicts
            if v.status != "defined"]


def test_read_as_shows_the_scalar_product() -> None:
    assert _read(BN, r"y = \gamma \odot \hat x + \beta") == ["y == gamma * xhat + beta * ones"]
    assert _read(BN, r"y = \hat x \odot \gamma + \beta") == ["y == xhat * gamma + beta * ones"]
    assert _read(BN, D2L) == ["y == gamma * (x - muhat_B * ones) / sigmahat_B + beta * ones"]


#: one-token variants: (old, new, numpy truth of the changed equation)
VARIANTS = [
    ("d2l", BN, D2L, r"+ \boldsymbol{\beta}", r"- \boldsymbol{\beta}",
     lambda: _same(_source(sign=-1.0), _torch_bn())),
    ("d2l", BN, D2L, r"{\hat{\boldsymbol{\sigma}}_\mathcal{B}}",
     r"{\hat{\boldsymbol{\sigma}}_\mathcal{B}^2}",
     lambda: _same(_source(var_power=1.0), _torch_bn())),
    ("yeh", YEH, YEH_LAYER, r"\gamma \odot \hat{X}", r"\gamma \odot X",
     lambda: _same(_source(gain_on="x"), _torch_bn())),
    ("plain", BN, r"y = \gamma \odot \hat x + \beta", r"\odot \hat x", r"\odot x",
     lambda: _same(_source(gain_on="x"), _torch_bn())),
    ("right", BN, r"y = \hat x \odot \gamma + \beta", "+ \\beta", "- \\beta",
     lambda: _same(_source(sign=-1.0), _torch_bn())),
]


@pytest.mark.parametrize("key, preamble, latex, old, new, numeric", VARIANTS,
                         ids=[f"{v[0]}:{v[4]}" for v in VARIANTS])
def test_false_variants_refuted(key, preamble, latex, old, new, numeric) -> None:
    assert_variant_refuted(preamble, latex, old, new, numeric, no_error=True)


HADAMARD = "hadamard() takes column vectors, not a scalar"
#: neighbours where the scalar is no stand-in for a per-feature gain, or for another vector
REFUSED = [
    # the per-element gain of layernorm / rmsnorm is the affine=elementwise vector
    ("layernorm", "use layernorm", r"y = \gamma \odot \hat x + \beta",
     (HADAMARD, "affine=elementwise")),
    ("rmsnorm", "use rmsnorm", r"y = \gamma \odot \hat x", (HADAMARD,)),
    # a scalar that is not the vocabulary's gain
    ("beta", BN, r"y = \gamma \hat x + \beta \odot \mathbf 1", (HADAMARD,)),
    ("declared", BN + "\nscalar a", r"\gamma \hat x = a \odot \hat x", (HADAMARD,)),
    ("sigma", BN, r"x - \mu = \sigma \odot \hat x", (HADAMARD,)),
    ("scaled", BN, r"y = (2\gamma) \odot \hat x + \beta", (HADAMARD,)),
    ("power", BN, r"y = \gamma^2 \odot \hat x + \beta", (HADAMARD,)),
    # the document's own gamma, not the vocabulary's per-feature gain
    ("own", BN + "\nscalar gamma", r"\gamma \hat x = \gamma \odot \hat x", (HADAMARD,)),
    # an entry product: i runs over the batch, so gamma_i would be a per-sample gain
    ("entries", BN, r"y_i = \gamma_i \hat x_i + \beta", ("gamma is a scalar here",)),
    # two scalars: no vector to broadcast over
    ("scalars", BN, r"\gamma \odot \mu = \gamma \mu", (HADAMARD,)),
    # PyG: the entry x'_i set to a whole vector
    ("entry", BN, (r"\mathbf{x}^{\prime}_i = \frac{\mathbf{x} - \textrm{E}[\mathbf{x}]}"
                   r"{\sqrt{\textrm{Var}[\mathbf{x}] + \epsilon}} \odot \gamma + \beta"),
     ("xprime_i = ...", "is defined as a vector")),
    ("entry.ln", "use layernorm", r"z_i = x", ("z_i = ...", "is defined as a vector")),
]


@pytest.mark.parametrize("key, preamble, latex, words", REFUSED, ids=[r[0] for r in REFUSED])
def test_unsafe_neighbours_refused(key: str, preamble: str, latex: str,
                                   words: tuple[str, ...]) -> None:
    assert_refused(preamble, latex, words)
