"""symnorm.teaching: claims checked from Python, and the notebooks' figure helpers."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy

from symnorm import teaching
from symnorm.errors import SymnormError
from symnorm.family.apply import forward
from symnorm.spec import batch_norm, group_norm, instance_norm, layer_norm, rms_norm


def prove(src: str, **kw):
    return teaching.prove(src, sandbox=False, **kw)


# --- prove ----------------------------------------------------------------------------------

def test_true_claims_are_proved_with_their_scope():
    r = prove("use layernorm\nclaim radial: J*c == eps/s**3*c\nclaim idem: P*P == P")
    assert [(v.label, v.status, v.scope) for v in r.verdicts] == [
        ("radial", "proved", "every d >= 2, where defined"), ("idem", "proved", "every d >= 2")]
    assert r["idem"].status == "proved" and len(r) == 2


# Wrong variants of true claims: each must stop a notebook that expects "proved".
MUTANTS = [
    "claim power: J*c == eps/s**2*c",               # changed exponent
    "claim dropped: J == P/s",                      # dropped term
    "claim sign: N(x + b*ones) == -N(x)",           # wrong sign
    "claim scale: N(b*x) == N(x)  given eps == 0",  # missing assumption b > 0
    "claim trace: trace(P) == d",                   # off by one
]


@pytest.mark.parametrize("claim", MUTANTS)
def test_wrong_claims_stop_the_notebook(claim):
    with pytest.raises(teaching.ClaimsNotAsExpected, match="refuted, expected proved"):
        prove(f"use layernorm\nscalar b\n{claim}")
    r = prove(f"use layernorm\nscalar b\n{claim}", expect="refuted")
    assert [v.status for v in r.verdicts] == ["refuted"]
    assert r.verdicts[0].counterexample


def test_expect_refuted_stops_on_a_true_claim():
    with pytest.raises(teaching.ClaimsNotAsExpected, match="idem .*proved, expected refuted"):
        prove("use layernorm\nclaim idem: P*P == P", expect="refuted")


def test_one_bad_claim_among_good_ones_stops_and_is_named():
    with pytest.raises(teaching.ClaimsNotAsExpected) as info:
        prove("use layernorm\nclaim ok: P*P == P\nclaim bad: P == I")
    assert "bad (line 4)" in str(info.value) and "ok (line" not in str(info.value)


def test_lines_are_those_of_a_triple_quoted_source():
    src = "\nuse layernorm\nscalar b\nclaim s: N(x + b*ones) == N(x)\nclaim w: q == 1\n"
    with pytest.raises(teaching.ClaimsNotAsExpected) as info:
        prove(src)
    text = str(info.value)
    assert "w (line 5)" in text and "<notebook>:5:" in text
    assert src.splitlines()[5 - 1] == "claim w: q == 1"
    assert "unknown name 'q'" in text


@pytest.mark.parametrize("src, exc, fragment", [
    ("use layernorm\n```\nclaim z: 1 == 1", SymnormError, "without fences"),
    ("use layernorm", teaching.ClaimsNotAsExpected, "no claim"),
    ("", teaching.ClaimsNotAsExpected, "no claim"),
    ("use layernorm\nclaim z: P*P == P P", teaching.ClaimsNotAsExpected, "error"),
])
def test_bad_input_is_refused_with_a_message(src, exc, fragment):
    with pytest.raises(exc, match=fragment):
        prove(src)


@pytest.mark.parametrize("expect", ["prooved", [], ["proved", "yes"]])
def test_unknown_expected_status_is_refused(expect):
    with pytest.raises(ValueError, match="expect must be statuses"):
        prove("use layernorm\nclaim idem: P*P == P", expect=expect)


def test_sandboxed_run_gives_the_same_verdicts():
    r = teaching.prove("use layernorm\nclaim null: J*ones == 0")
    assert [(v.label, v.status) for v in r.verdicts] == [("null", "proved")]


def test_table_shows_the_settings_in_force():
    r = prove("use layernorm\nscalar a\nassume a > 0\nclaim pos: N(a*x) == N(x)  given eps == 0")
    assert r["pos"].status == "proved"
    assert "a &gt; 0" in r._repr_html_() and "assuming a > 0" in repr(r)


def test_table_escapes_the_statement():
    r = prove("claim small: (1/sqrt(2))**24 < 0.00025")
    page = r._repr_html_()
    assert "&lt;" in page and "< 1/4000" not in page
    assert "small" in repr(r) and "proved" in repr(r)


# --- figures --------------------------------------------------------------------------------

def _panel(title="t", x="a (m)", y="b (s)", legend=True):
    fig, (ax,) = teaching.new_figure()
    ax.plot([0, 1], [0, 1], label="line")
    ax.set_title(title)
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    if legend:
        ax.legend()
    return fig


def test_finish_accepts_a_complete_panel():
    assert teaching.finish(_panel()) is not None


@pytest.mark.parametrize("kw, fragment", [
    ({"title": ""}, "no title"),
    ({"x": "scale"}, "x label 'scale' has no unit"),
    ({"y": "value (units) of"}, "y label 'value (units) of' has no unit"),
    ({"legend": False}, "no legend"),
])
def test_finish_refuses_an_incomplete_panel(kw, fragment):
    with pytest.raises(teaching.FigureError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        teaching.finish(_panel(**kw))


def test_finish_needs_z_label_on_3d_panels():
    fig, (ax,) = teaching.new_figure(projection="3d")
    ax.plot([0, 1], [0, 1], [0, 1], label="l")
    ax.set_title("t")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    ax.legend()
    with pytest.raises(teaching.FigureError, match="z label"):
        teaching.finish(fig)


FIGURES = [
    lambda: teaching.plot_centering_plane([(1, 2, 4), (11, 12, 14)]),
    lambda: teaching.plot_norm_vs_scale(["1/10"]),
    lambda: teaching.plot_plane_outputs(eps="1/10", scale="1/2", n=8),
    lambda: teaching.plot_eps_grid([0, 1], [1], n=6),
    lambda: teaching.plot_rms_vs_layer_norm(n=10),
    lambda: teaching.plot_jacobian_action(eps=[0, "1/10"]),
    lambda: teaching.plot_gradient_filter(),
    lambda: teaching.plot_pair_flip(["1/10"], b_max=1),
    lambda: teaching.plot_batch_dependence([2, 3], draws=3),
    lambda: teaching.plot_train_vs_eval(batch_size=3, draws=3, warmup=3),
    lambda: teaching.plot_momentum({"torch": __import__(
        "symnorm.presets.torch", fromlist=["x"]).batch_norm2d(sizes="N=2 C=1 H=1 W=1")},
        steps=5),
    lambda: teaching.plot_post_norm_gain([1], depth=4),
    lambda: teaching.plot_shared_statistics(
        {"BN": batch_norm("N C H W", sizes="N=2 C=2 H=1 W=2")}),
]


@pytest.mark.parametrize("make", FIGURES)
def test_every_helper_figure_is_complete_and_outside_pyplot(make):
    import matplotlib.pyplot as plt
    before = plt.get_fignums()
    fig = make()
    assert fig.axes
    teaching.finish(fig)  # title, unit labels and legend on every panel
    assert plt.get_fignums() == before  # displayed once, as the cell's value


# --- computations ---------------------------------------------------------------------------

SPECS = {
    "bn": batch_norm("N C H W", "1/10", sizes="N=3 C=4 H=2 W=2"),
    "ln": layer_norm(layout="N C H W", axes="C H W", eps="1/10", sizes="N=3 C=4 H=2 W=2"),
    "in": instance_norm("N C H W", "1/10", sizes="N=3 C=4 H=2 W=2"),
    "gn": group_norm(2, "N C H W", "1/10", sizes="N=3 C=4 H=2 W=2"),
}
COUNTS = {"bn": 3 * 2 * 2, "ln": 4 * 2 * 2, "in": 2 * 2, "gn": 2 * 2 * 2}


@pytest.mark.parametrize("name", SPECS)
def test_shared_cells_agree_with_the_forward_map(name):
    spec = SPECS[name]
    cell = (1, 2, 1, 0)
    mask = teaching.shared_cells(spec, cell)
    assert mask[cell] and mask.sum() == COUNTS[name]
    rng = np.random.default_rng(3)
    x = rng.normal(size=(3, 4, 2, 2))
    base = forward(spec, x, backend="numpy").y[cell]
    for idx in np.ndindex(x.shape):
        if idx == cell:
            continue
        x2 = x.copy()
        x2[idx] += 0.5
        moved = not math.isclose(forward(spec, x2, backend="numpy").y[cell], base,
                                 rel_tol=0, abs_tol=1e-12)
        assert moved == bool(mask[idx]), (name, idx)


def test_gradient_parts_are_the_eigenvalues():
    x, eps = (1, 2, 4), sympy.Rational(1, 10)
    parts = teaching.gradient_parts(x, eps, (1, -2, 3))
    v = sympy.Rational(14, 9)
    s = sympy.sqrt(v + eps)
    assert parts["1"][1] == 0.0 and parts["1"][0] != 0
    assert math.isclose(parts["c"][1] / parts["c"][0], float(eps / s**3), rel_tol=1e-12)
    assert math.isclose(parts["u"][1] / parts["u"][0], float(1 / s), rel_tol=1e-12)


def test_only_batch_norm_moves_with_the_batch():
    out = teaching.batch_outputs(batch_size=3, draws=4, seed=1)
    spread = {k: max(v) - min(v) for k, v in out.items()}
    assert spread["BatchNorm"] > 0.01
    assert spread["LayerNorm"] == 0 and spread["GroupNorm(2)"] == 0
    with pytest.raises(ValueError, match="batch_size"):
        teaching.batch_outputs(batch_size=1)


def test_running_means_follow_each_convention():
    from symnorm.presets import keras, torch
    pt = teaching.running_means(torch.batch_norm2d(sizes="N=2 C=1 H=1 W=1"), 2)
    kr = teaching.running_means(keras.batch_normalization(sizes="N=2 H=1 W=1 C=1"), 2)
    assert pt == pytest.approx([0.1, 0.19]) and kr == pytest.approx([0.01, 0.0199])


def test_norm_ratio_is_the_scale_law():
    x = teaching.rationals([-1, -1, 1, 1])  # v = 1
    for a, eps in [("1/3", "1/10"), (2, 1), (1, 0)]:
        a_r, e_r = sympy.Rational(a), sympy.Rational(eps)
        want = float(a_r / sympy.sqrt(a_r**2 + e_r))
        assert math.isclose(teaching.geometry._norm_ratio(x, a_r, e_r), want, rel_tol=1e-14)


def test_post_norm_factor_is_computed_exactly():
    fig = teaching.plot_post_norm_gain([1, 2], depth=3)
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert any("factor sqrt(2)/2" in t for t in labels)
    assert any("factor sqrt(5)/5" in t for t in labels)


def test_rms_outputs_are_not_centered():
    spec = rms_norm(3, 0)
    y = forward(spec, [1, 2, 4]).y
    assert sum(y) != 0  # the picture's point: RMSNorm leaves the plane


def test_rationals_are_exact():
    assert teaching.rationals(["0.1", 2, "1/3"]) == [sympy.Rational(1, 10), 2,
                                                     sympy.Rational(1, 3)]
