r"""True claims in index notation that were refused (red team 13, "true claims refused"):
a summand of three or more entries (the per-element LayerNorm backward pass), a power of an
entry in a sum (``\sum_i (x_i - \mu)^3``), ``J^\top (\ldots)`` as a product, and an equality
tagged ``\stackrel{(a)}{=}``; ``\mathbb{E}[\hat x_i]`` stays refused with a message naming
its two readings.  Truths by numpy (finite differences for derivatives), never by symnorm."""

from __future__ import annotations

import numpy as np
import pytest
from construct_checks import assert_refused
from test_latex_real_world2 import _DY, _G, _X, EPS, _same, verdicts

LNE = "use layernorm(affine=elementwise)"
BETA_V = np.array([0.5, -1.0, 0.25, 2.0])


def _n(x: np.ndarray) -> np.ndarray:
    return (x - x.mean()) / np.sqrt(x.var() + EPS)


def _grad(f, x: np.ndarray) -> np.ndarray:
    h = 1e-6
    return np.array([(f(x + h * e) - f(x - h * e)) / (2 * h) for e in np.eye(len(x))])


#: dl/dx of l = dy . (g * N(x) + b), the per-element LayerNorm (torch's elementwise affine)
DX = _grad(lambda x: float(_DY @ (_G * _n(x) + BETA_V)), _X)
XHAT = _n(_X)
R = np.sqrt(_X.var() + EPS)


def _claims(preamble: str, latex: str) -> list[str]:
    return [s for _, s, _ in verdicts(preamble, latex) if s != "defined"]


_BACKWARD = (r"\frac{\partial \ell}{\partial x_i} = \frac{1}{\sqrt{\sigma^2+\epsilon}}\left("
             r"\gamma_i\frac{\partial \ell}{\partial y_i} - \frac{1}{d}\sum_j \gamma_j"
             r"\frac{\partial \ell}{\partial y_j} - \frac{\hat x_i}{d}\sum_j \gamma_j"
             r"\frac{\partial \ell}{\partial y_j}\hat x_j\right)")
_GDY = _G * _DY

#: (preamble, latex, numpy truth, (old, new, numpy truth of the variant))
CASES = {
    # t43 T_ch7: three indexed factors in one summand
    "ln.backward": ((LNE + "\nvector dl_dy"), _BACKWARD,
                    lambda: _same(DX, (_GDY - _GDY.mean() - XHAT * (_GDY @ XHAT) / 4) / R),
                    (r"- \frac{\hat x_i}{d}", r"+ \frac{\hat x_i}{d}",
                     lambda: _same(DX, (_GDY - _GDY.mean() + XHAT * (_GDY @ XHAT) / 4) / R))),
    # t05 T_s5: a cube of an entry in a sum
    "cube": ("use layernorm",
             r"\sum_i (x_i - \mu)^3 = \sum_i x_i^3 - 3\mu\sum_i x_i^2 + 2 d \mu^3",
             lambda: np.isclose(np.sum((_X - _X.mean()) ** 3), np.sum(_X ** 3) - 3 * _X.mean()
                                * np.sum(_X ** 2) + 2 * 4 * _X.mean() ** 3),
             ("+ 2 d", "+ 3 d",
              lambda: np.isclose(np.sum((_X - _X.mean()) ** 3), np.sum(_X ** 3) - 3
                                 * _X.mean() * np.sum(_X ** 2) + 3 * 4 * _X.mean() ** 3))),
    # four factors: gamma_j^2 xhat_j^2 (t31 T_z9's summand)
    "four": (LNE, r"\sum_j \gamma_j^2 \hat x_j^2 = (\gamma \odot \hat x)^\top (\gamma \odot "
             r"\hat x)",
             lambda: np.isclose(np.sum(_G ** 2 * XHAT ** 2), (_G * XHAT) @ (_G * XHAT)),
             (r"\hat x_j^2 =", r"\hat x_j^3 =",
              lambda: np.isclose(np.sum(_G ** 2 * XHAT ** 3), (_G * XHAT) @ (_G * XHAT)))),
    # t11 T_d19: J^\top (...) is the product with the transposed Jacobian of N
    "jtop": (LNE + "\nvector dy", r"dx = J^\top (\gamma \odot dy)",
             lambda: _same(DX, _grad(lambda x: float((_G * _DY) @ _n(x)), _X)),
             (r"dx = J", r"dx = 2J", lambda: _same(DX, 2 * DX))),
    # t22 T_r16: an equality tagged by a proof step's mark
    "stackrel": ("use layernorm", r"\mu \stackrel{(a)}{=} \frac{1}{d}\sum_i x_i",
                 lambda: np.isclose(_X.mean(), np.sum(_X) / 4),
                 (r"\frac{1}{d}", r"\frac{2}{d}", lambda: np.isclose(_X.mean(),
                                                                     2 * np.sum(_X) / 4))),
}


@pytest.mark.parametrize("key", sorted(CASES))
def test_true_form_is_proved(key: str) -> None:
    preamble, latex, truth, _ = CASES[key]
    assert truth()
    got = _claims(preamble, latex)
    # entrywise products (hadamard) at every d: proved, or not probed beyond the sampled d
    assert got and set(got) <= {"proved"}, verdicts(preamble, latex)


@pytest.mark.parametrize("key", sorted(CASES))
def test_one_token_variant_is_refuted(key: str) -> None:
    preamble, latex, _, (old, new, truth) = CASES[key]
    assert latex.count(old) == 1 and not truth()
    assert _claims(preamble, latex.replace(old, new)) == ["refuted"]


@pytest.mark.parametrize("preamble, latex, words", [
    ("use layernorm", r"\mathbb{E}[\hat x_i] = 0",
     ("mean(...) of an indexed entry", "two readings")),
    ("use layernorm", r"\sum_i x_i^{1/2} = 0", ("a power 1 / 2 of an indexed entry",)),
    ("use layernorm", r"\sum_i x_i^9 = 0", ("a power 9 of an indexed entry",)),
    ("use layernorm", r"\sum_i x_i^4 \hat x_i^5 = 0", ("more than 8 indexed factors",)),
    ("use layernorm", r"\mu \stackrel{(ab)}{=} \frac{1}{d}\sum_i x_i", ("\\stackrel",)),
    # a transpose after a bracket stays what it was (J(...) is no call of the matrix J)
    (LNE + "\nvector dy", r"dx = J (\gamma \odot dy)", ("J is not a declared symbol",)),
])
def test_what_stays_refused_names_it(preamble: str, latex: str, words: tuple[str, ...]) -> None:
    assert_refused(preamble, latex, words)
