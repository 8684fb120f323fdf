"""Code-like notation of framework docs (symnorm/lang/latex_axes.py, issue 10): a statistic's
axis argument, method calls on the input, and the word ``std``.

Each row's truth is computed with numpy (and PyTorch's functional layers) without symnorm:
the axis arguments on a 2-D array of samples (rows) and features (columns), so a wrong axis
is a different number, not a different reading of the same one.
"""

from __future__ import annotations

import numpy as np
import pytest
from construct_checks import assert_proved, assert_refused, assert_variant_refuted
from test_latex_real_world2 import _X, EPS, GAMMA, _bn, _ln, _rms, _same, verdicts

M = len(_X)
#: a batch of 3 samples of the 4 features _X (row 0 is _X)
_DATA = np.stack([_X, _X[::-1] * 2 - 1, np.array([0.5, 3.0, -1.0, 2.0])])


def _ln_rows(a: np.ndarray) -> np.ndarray:
    return np.stack([_ln(r) for r in a])


def _bn_cols(a: np.ndarray) -> np.ndarray:
    return np.stack([_bn(c) for c in a.T]).T


def _numpy_ln(a, axis, ddof=0):
    mu = a.mean(axis=axis, keepdims=True)
    return (a - mu) / np.sqrt(a.var(axis=axis, ddof=ddof, keepdims=True) + EPS)


LN = "use layernorm(affine=none)"
LN_OUT = "use layernorm(affine=none, eps_inside=0)"
BN = "use batchnorm(affine=none)"
RMS = "use rmsnorm(affine=gain)"

# --- read and proved -------------------------------------------------------------------------

PROVED = {
    # numpy: x.mean(axis=-1), ndarray.var(ddof=0), under layernorm the feature axis
    "method.ln": (LN, "y = (x - x.mean(axis=-1)) / sqrt(x.var(ddof=0) + epsilon)",
                  lambda: _same(_numpy_ln(_DATA, -1), _ln_rows(_DATA))),
    # PyTorch: x.mean(dim=-1), x.var(unbiased=False)
    "method.torch": (LN, "y = (x - x.mean(dim=-1)) / sqrt(x.var(unbiased=False) + eps)",
                     lambda: _same(_numpy_ln(_DATA, -1), _ln_rows(_DATA))),
    # a method call without an axis: the whole vector (one sample's features)
    "method.whole": (LN, "y = (x - x.mean()) / sqrt(x.var(correction=0) + eps)",
                     lambda: _same(_numpy_ln(_X[None], None)[0], _ln(_X))),
    # BatchNorm: axis=0 is the batch of one feature
    "method.bn": (BN, "y = (x - x.mean(axis=0)) / sqrt(x.var(ddof=0, axis=0) + eps)",
                  lambda: _same(_numpy_ln(_DATA, 0), _bn_cols(_DATA))),
    # std with its estimator stated, eps outside the root (AllenNLP's placement)
    "method.std": (LN_OUT, "y = (x - x.mean()) / (x.std(ddof=0) + eps)",
                   lambda: _same((_X - _X.mean()) / (_X.std() + EPS),
                                 (_X - _X.mean()) / (np.sqrt(np.var(_X)) + EPS))),
    # the unbiased variance, d/(d-1) times the biased one (d >= 2)
    "method.unbiased": (LN, r"x.var(ddof=1) = \frac{d}{d-1} \mathrm{Var}[x]",
                        lambda: _same(np.var(_X, ddof=1), M / (M - 1) * np.var(_X))),
    # TensorRT's Mean(X, axes) with the axes stated
    "axis.named": ("use layernorm(affine=none)\nlet axes = -1",
                   r"y = \frac{x - Mean(x, axes)}{\sqrt{Var(x, axes) + \epsilon}}",
                   lambda: _same(_numpy_ln(_DATA, -1), _ln_rows(_DATA))),
    # MXNet's mean[data, axis] with a literal axis, and Keras's mean(square(x)) as x^2
    "axis.bracket": ("use layernorm(affine=none)\nlet data = x",
                     r"y = \frac{x - mean[data, -1]}{\sqrt{Var[data, axis=-1] + \epsilon}}",
                     lambda: _same(_numpy_ln(_DATA, -1), _ln_rows(_DATA))),
    "axis.rms": (RMS, r"y = x / sqrt(mean(x^2, axis=-1) + eps) * gamma",
                 lambda: _same(_X / np.sqrt(np.mean(_X ** 2, axis=-1) + EPS) * GAMMA,
                               _rms(_X, weight=np.full(M, GAMMA)))),
    # an axis keyword that names the batch under batchnorm
    "axis.bn": (BN, r"y = \frac{x - \mathrm{E}[x, 0]}{\sqrt{\mathrm{Var}[x, axis=0]+\epsilon}}",
                lambda: _same(_numpy_ln(_DATA, 0), _bn_cols(_DATA))),
}


@pytest.mark.parametrize("key", sorted(PROVED))
def test_code_notation_is_proved(key: str) -> None:
    assert_proved(*PROVED[key])


# --- one-token false variants: refuted (a wrong statistic, a wrong estimator) ----------------

VARIANTS = {
    # the unbiased variance in the layer formula (PyTorch's default estimator)
    "method.ln": ("ddof=0", "ddof=1", lambda: _same(_numpy_ln(_DATA, -1, ddof=1),
                                                    _ln_rows(_DATA))),
    "method.torch": ("unbiased=False", "unbiased=True",
                     lambda: _same(_numpy_ln(_DATA, -1, ddof=1), _ln_rows(_DATA))),
    # the mean in place of the variance
    "axis.named": ("Var(x", "Mean(x", lambda: _same(
        (_X - _X.mean()) / np.sqrt(_X.mean() + EPS), _ln(_X))),
    "method.whole": ("x.var(", "x.std(", lambda: _same(
        (_X - _X.mean()) / np.sqrt(_X.std() + EPS), _ln(_X))),
    "method.unbiased": (r"\frac{d}{d-1}", r"\frac{d-1}{d}", lambda: _same(
        np.var(_X, ddof=1), (M - 1) / M * np.var(_X))),
    "axis.rms": ("mean(x^2", "var(x", lambda: _same(
        _X / np.sqrt(np.var(_X) + EPS) * GAMMA, _rms(_X, weight=np.full(M, GAMMA)))),
}


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_false_variant_is_refuted(key: str) -> None:
    pre, latex, _ = PROVED[key]
    assert_variant_refuted(pre, latex, *VARIANTS[key], no_error=True)


# --- refused, with the construct and the nearest accepted form named -------------------------

REFUSED = {
    # a wrong axis for the vocabulary (false on a batch: the numpy checks below)
    "ln.axis0": (LN, "y = (x - x.mean(axis=0)) / sqrt(x.var(ddof=0) + eps)",
                 ("x.mean(.., axis=0) reduces over axis 0", "use layernorm",
                  "the feature axis", "write axis=-1")),
    "bn.axis-1": (BN, "y = (x - x.mean(axis=-1)) / sqrt(x.var(ddof=0) + eps)",
                  ("reduces over axis -1", "use batchnorm", "the batch axis", "axis=0")),
    "ln.axis1": (LN, r"y = \frac{x - Mean(x, 1)}{\sqrt{Var(x) + \epsilon}}",
                 ("axis 1 is the last (feature) axis only of an input with 2 axes",
                  "two readings", "axis=-1")),
    "rms.axis0": (RMS, "y = x / sqrt(mean(x^2, axis=0) + eps) * gamma",
                  ("mean(.., axis=0) reduces over axis 0", "use rmsnorm")),
    "named.bn": ("use batchnorm(affine=none)\nlet axes = -1",
                 r"y = \frac{x - Mean(x, axes)}{\sqrt{Var(x) + \epsilon}}",
                 ("Mean(.., axes (= -1)) reduces over axis -1", "use batchnorm")),
    # a name the document does not state, or states as no axis
    "named.undeclared": (LN, r"y = \frac{x - Mean(x, axes)}{\sqrt{Var(x) + \epsilon}}",
                         ("Mean(.., axes): the document does not say which axes it names",
                          "`let axes = -1`")),
    "named.not_axis": ("use layernorm(affine=none)\nscalar a\nlet axes = a",
                       r"y = \frac{x - Mean(x, axes)}{\sqrt{Var(x) + \epsilon}}",
                       ("defines it as something else than an axis",)),
    "axis.tuple": (LN, r"y = \frac{x - Mean(x, (0, 1))}{\sqrt{Var(x) + \epsilon}}",
                   ("only one integer axis is read",)),
    "axis.two": (LN, r"y = \frac{x - Mean(x, -1, 0)}{\sqrt{Var(x) + \epsilon}}",
                 ("takes one axis argument",)),
    "axis.grouped": ("use groupnorm(groups=2, channels=4, spatial=2, affine=none)",
                     r"y = \frac{x - mean(x, -1)}{\sqrt{var(x) + \epsilon}}",
                     ("use groupnorm reduces over each group's channels",)),
    "axis.two_vocabs": ("use layernorm(affine=none)\nuse batchnorm(affine=none)",
                        r"\mathrm{E}[x, -1] = \mathrm{E}[x]",
                        ("use layernorm, use batchnorm, whose reductions differ",)),
    # var and std without the estimator: PyTorch's default is unbiased, numpy's biased
    "method.var": (LN, "y = (x - x.mean()) / sqrt(x.var() + eps)",
                   ("x.var(): PyTorch's torch.std/torch.var", "numpy's", "two readings",
                    "x.var(ddof=0)")),
    "method.std": (LN_OUT, "y = (x - x.mean()) / (x.std() + eps)",
                   ("x.std():", "two readings", "unbiased=False")),
    "method.estimator": (LN, "y = (x - x.mean()) / sqrt(x.var(ddof=2) + eps)",
                         ("x.var(.., ddof=2): read only once, as 0 or 1",)),
    "method.keyword": (LN, "y = (x - x.mean(keepdims=True)) / sqrt(x.var(ddof=0) + eps)",
                       ("the keyword keepdims is not read",)),
    "method.receiver": (LN, r"\sigma^2 = (x - \mu).mean()",
                        ("a method call is read only on the layer's input x",)),
    "method.reshape": ("use groupnorm(groups=2, channels=4, spatial=2)\nlet data = x",
                       "data = data.reshape((N, num_groups, C // num_groups, ...))",
                       ("method call data.reshape(...) is not read", "use groupnorm(groups=")),
    "method.grouped": ("use groupnorm(groups=2, channels=4, spatial=2, affine=none)",
                       r"y = \frac{x - x.mean()}{\sqrt{\mathrm{Var}[x] + \epsilon}}",
                       ("the statistic of the whole vector", "group")),
    # the word std, bare or applied
    "std.word": ("use layernorm(affine=elementwise, eps_inside=0)\nlet tensor = x",
                 "output = (gamma * (tensor - mean) / (std + eps)) + beta",
                 ("'std' is written as a word", "torch.std", "np.std", "two readings",
                  "let std = sqrt(v)")),
    "std.applied": (LN_OUT, r"y = \frac{x - \mu}{std(x) + \epsilon}",
                    ("'std' is written as a word", "two readings")),
}


@pytest.mark.parametrize("key", sorted(REFUSED))
def test_code_notation_is_refused_with_its_reason(key: str) -> None:
    assert_refused(*REFUSED[key])


def test_wrong_axes_are_false_on_a_batch() -> None:
    """The refused wrong-axis rows are false, not another spelling of the layer."""
    assert not _same(_numpy_ln(_DATA, 0), _ln_rows(_DATA))      # layernorm over the batch
    assert not _same(_numpy_ln(_DATA, -1), _bn_cols(_DATA))     # batchnorm over features
    assert not _same(_DATA / np.sqrt(np.mean(_DATA ** 2, axis=0, keepdims=True) + EPS),
                     np.stack([_rms(r) for r in _DATA]))


def test_the_two_estimators_differ() -> None:
    """torch.var/torch.std divide by N-1 by default, numpy's by N (the std refusal's reason)."""
    torch = pytest.importorskip("torch")
    t = torch.tensor(_X, dtype=torch.float64)
    assert _same(t.var().item(), np.var(_X, ddof=1)) and not _same(t.var().item(), np.var(_X))
    assert _same(t.std().item(), np.std(_X, ddof=1)) and not _same(t.std().item(), np.std(_X))
    assert _same(t.var(unbiased=False).item(), np.var(_X))


def test_an_attribute_is_not_a_method_call() -> None:
    """``self.moving_mean`` (Keras) is no method call: the reader's error stays its own."""
    got = verdicts("use batchnorm\nscalar moving_mean",
                   "gamma * (x - self.moving_mean) + beta")
    assert got and all("method call" not in m for _, _, m in got), got


# --- red team: ten (and more) false variants of the rules, each refuted or refused -----------

RED_TEAM = [
    (LN, "y = (x - x.mean(axis=0)) / sqrt(x.var(ddof=0, axis=0) + eps)"),   # batch axis
    (LN, "y = (x - x.mean()) / sqrt(x.var(ddof=1) + eps)"),                 # unbiased
    (LN, "y = (x - x.mean()) / x.std(ddof=0)"),                             # eps dropped
    (LN, "y = (x - mean(x, -1)) / sqrt(var(x, 0) + eps)"),                  # one axis wrong
    (BN, "y = (x - x.mean(axis=-1)) / sqrt(x.var(ddof=0) + eps)"),          # feature axis
    ("use layernorm(affine=none)\nlet axes = 0",
     r"y = \frac{x - Mean(x, axes)}{\sqrt{Var(x, axes) + \epsilon}}"),     # axes stated 0
    (LN, r"x.var(ddof=1) = \mathrm{Var}[x]"),                               # estimators
    (LN, r"x.std(unbiased=True) = \sigma"),                                 # sigma is biased
    (LN, r"x.mean(dim=-1) = \frac{1}{d-1}\sum_i x_i"),                      # wrong count
    (LN, r"x.var(correction=0) = \mathrm{E}[x^2]"),                         # uncentred
    ("use groupnorm(groups=2, channels=4, spatial=2, affine=none)",
     r"y = \frac{x - mean(x, -1)}{\sqrt{var(x, -1) + \epsilon}}"),         # LN of a GN
    (RMS, "y = x / sqrt(mean(x^2, axis=1) + eps) * gamma"),                 # a 2-D-only axis
]


#: an (N, T, D) input: there axis 1 is not the feature axis
_CUBE = np.arange(32, dtype=float).reshape(2, 4, 4) ** 1.5


def _red_team_truths() -> list[bool]:
    ln, bn = _ln_rows(_DATA), _bn_cols(_DATA)
    x = _X
    return [
        _same(_numpy_ln(_DATA, 0), ln),
        _same(_numpy_ln(_DATA, -1, ddof=1), ln),
        _same((x - x.mean()) / x.std(), _ln(x)),
        _same((_DATA - _DATA.mean(-1, keepdims=True))
              / np.sqrt(_DATA.var(0, keepdims=True) + EPS), ln),
        _same(_numpy_ln(_DATA, -1), bn),
        _same(_numpy_ln(_DATA, 0), ln),
        _same(np.var(x, ddof=1), np.var(x)),
        _same(np.std(x, ddof=1), np.std(x)),
        _same(x.mean(), x.sum() / (M - 1)),
        _same(x.var(), np.mean(x ** 2)),
        # GroupNorm of 2 groups over (4 channels x 2 positions) is not the mean of the last axis
        _same((_DATA[:, :2] - _DATA[:, :2].mean(-1, keepdims=True))
              / np.sqrt(_DATA[:, :2].var(-1, keepdims=True) + EPS),
              (_DATA[:, :2] - _DATA[:, :4].mean(-1, keepdims=True))
              / np.sqrt(_DATA[:, :4].var(-1, keepdims=True) + EPS)),
        # axis=1 is the feature axis of (N, D) but not of (N, T, D)
        _same(np.mean(_CUBE ** 2, axis=1), np.mean(_CUBE ** 2, axis=-1)),
    ]


def test_red_team_variants_are_false() -> None:
    assert _red_team_truths() == [False] * len(RED_TEAM)


@pytest.mark.parametrize("k", range(len(RED_TEAM)))
def test_red_team_variant_is_never_proved(k: int) -> None:
    pre, latex = RED_TEAM[k]
    got = verdicts(pre, latex)
    statuses = [s for _, s, _ in got if s != "defined"]
    assert statuses and not {"proved", "confirmed", "proved-for"} & set(statuses), got
    assert "refuted" in statuses or "error" in statuses, got


# --- a power of a method call (red team 20, d15 k4/k5) ---------------------------------------

def test_a_power_of_a_method_call_is_the_power_of_its_value() -> None:
    # TeX prints the 2 over the call's closing parenthesis, as of (a+b)^2: the one reading
    # (it was "expected a relation ..., got '^'")
    row = r"x.std(unbiased=False)^2 = x.var(correction=0)"
    assert_proved(LN, row, lambda: bool(np.isclose(np.std(_X) ** 2, np.var(_X))))
    assert_variant_refuted(LN, row, "unbiased=False", "unbiased=True",
                           lambda: bool(np.isclose(np.std(_X, ddof=1) ** 2, np.var(_X))))
    assert_proved(LN, r"x.var(ddof=0) ^{1/2} = \sigma",
                  lambda: bool(np.isclose(np.var(_X) ** 0.5, np.std(_X))))
    assert_variant_refuted(LN, r"x.mean()^2 = \mu^2", "^2 =", "^3 =",
                           lambda: bool(np.isclose(_X.mean() ** 3, _X.mean() ** 2)))


@pytest.mark.parametrize("latex, words", [
    (r"x.std(ddof=0)_i = \sigma", ("'_' after the method call x.std(ddof=0)",
                                   "takes no subscript or prime")),
    (r"x.std(ddof=0)' = \sigma", ("after the method call x.std(ddof=0)", "no subscript or prime")),
    (r"x.std(ddof=0)^\top = \sigma", ("a transpose of the method call x.std(ddof=0)",
                                      "its value is a scalar")),
    (r"x.std(ddof=0)^2^2 = \sigma", ("a second script after x.std(ddof=0)^",)),
])
def test_other_scripts_on_a_method_call_are_named(latex: str, words: tuple[str, ...]) -> None:
    assert_refused(LN, latex, words)
