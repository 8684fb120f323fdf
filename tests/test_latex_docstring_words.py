r"""Docstring words with a conventional meaning under a layer vocabulary: MXNet's ``out``
(the output) and ``data`` (the input), and CS231n's ``running_mean`` written with a plain
``_`` as one name where the document declares it.  Truths by numpy and PyTorch's functional
layers (``test_latex_real_world2``); one-token false variants refuted; refusals located."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from construct_checks import assert_proved, assert_variant_refuted
from test_latex_real_world2 import _X, BETA, EPS, GAMMA, _ln, _rms, _same, verdicts

_MU, _VAR = _X.mean(), _X.var()
_MOM, _RUN, _SAMPLE = 0.9, 1.0, 2.0  # only for the truth of the update formulas below

CASES = {
    "mxnet.ln": ("use layernorm", "out = gamma * (data - mean) / sqrt(var + eps) + beta",
                 lambda: _same(GAMMA * (_X - _MU) / np.sqrt(_VAR + EPS) + BETA,
                               GAMMA * _ln(_X) + BETA)),
    "mxnet.ln.noaffine": ("use layernorm(affine=none)", "out = (data - mean) / sqrt(var + eps)",
                          lambda: _same((_X - _MU) / np.sqrt(_VAR + EPS), _ln(_X))),
    "mxnet.rms": ("use rmsnorm(affine=gain)", "out = data / rms(data) * gamma",
                  lambda: _same(_X / np.sqrt(np.mean(_X ** 2) + EPS) * GAMMA, _rms(_X) * GAMMA)),
    "mathrm.out": ("use layernorm", r"\mathrm{out} = \gamma \hat x + \beta", lambda: True),
    # running_mean, sample_mean: one declared name each (CS231n writes them without \_)
    "running": ("scalar momentum, running_mean, sample_mean\nlet new_mean = momentum * "
                "running_mean + (1 - momentum) * sample_mean",
                "new_mean = momentum * running_mean + (1 - momentum) * sample_mean",
                lambda: True),
}

VARIANTS = {
    "mxnet.ln": ("+ eps", "+ 2*eps", lambda: _same(
        GAMMA * (_X - _MU) / np.sqrt(_VAR + 2 * EPS) + BETA, GAMMA * _ln(_X) + BETA)),
    "mxnet.ln.noaffine": ("data - mean", "data + mean",
                          lambda: _same((_X + _MU) / np.sqrt(_VAR + EPS), _ln(_X))),
    "mxnet.rms": ("* gamma", "* gamma * gamma",
                  lambda: _same(_rms(_X) * GAMMA ** 2, _rms(_X) * GAMMA)),
    "running": ("(1 - momentum)", "(1 + momentum)", lambda: _same(
        _MOM * _RUN + (1 + _MOM) * _SAMPLE, _MOM * _RUN + (1 - _MOM) * _SAMPLE)),
}


@pytest.mark.parametrize("key", sorted(CASES))
def test_word_reads_as_its_conventional_name(key: str) -> None:
    assert_proved(*CASES[key])


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_one_token_false_variant_is_refuted(key: str) -> None:
    preamble, latex, _ = CASES[key]
    assert_variant_refuted(preamble, latex, *VARIANTS[key])


def test_running_average_update_is_refuted_as_an_equation() -> None:
    # CS231n's running_mean = momentum * running_mean + (1 - momentum) * sample_mean is an
    # update, false as an equation unless running_mean == sample_mean (or momentum == 1)
    m, r, s = Fraction(9, 10), Fraction(1), Fraction(2)
    assert r != m * r + (1 - m) * s
    got = verdicts("scalar momentum, running_mean, sample_mean",
                   "running_mean = momentum * running_mean + (1 - momentum) * sample_mean")
    assert [st for _, st, _ in got] == ["refuted"], got


def _first_error(preamble: str, latex: str) -> str:
    errors = [m for _, s, m in verdicts(preamble, latex) if s == "error"]
    assert errors
    return errors[0]


def test_joined_name_needs_the_whole_name_declared() -> None:
    # running_mean_x: the document declares running_mean, not running_mean_x
    msg = _first_error("scalar momentum, running_mean", "running_mean_x = momentum")
    assert msg.startswith("rw2.md:6:1: 'running' is written as a word"), msg


def test_words_without_a_layer_vocabulary_stay_errors() -> None:
    msg = _first_error("scalar a", "out = a")
    assert msg.startswith("rw2.md:6:1: 'out' is written as a word but the document does not "
                          "define it"), msg


def test_declared_data_is_not_the_input_and_the_fix_is_named() -> None:
    msg = _first_error("use layernorm\nvector data",
                       "out = gamma * (data - mean) / sqrt(var + eps) + beta")
    assert "uses data, declared by the document" in msg and "`let data = x`" in msg, msg
    got = verdicts("use layernorm\nlet data = x",
                   "out = gamma * (data - mean(data)) / sqrt(var(data) + eps) + beta")
    assert [s for _, s, _ in got if s != "defined"] == ["proved"], got
