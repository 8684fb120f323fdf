"""Soundness at large d: claims false only beyond the dimensions where vectors are sampled.

Each false claim here fails only at some d the numeric engine never builds vectors for
(d > 12): from a threshold on, in a window, or at a single d.  Where it fails was worked out
independently: ``norm(N(x))**2 = d`` for a non-constant x at eps = 0 (LayerNorm and RMSNorm
outputs have mean square 1) and ``trace(J)*s = d - 2`` there (red team 9's numpy check), and
the scalar functions of d are evaluated with mpmath below (``test_thresholds_are_right``).
Such a claim must be ``refuted`` (at an exact counterexample) or ``undecided`` (with a
message saying where it fails), never ``confirmed``; the ones marked REFUTE must be refuted
with the counterexample's d inside the failing set.
"""

from __future__ import annotations

import functools

import mpmath
import pytest

from symnorm.check.run import check_text
from symnorm.engines.gramsample import LADDER, Probe

FALSE, REFUTE, TRUE = "false", "refute", "true"
ALLOWED = {FALSE: {"refuted", "undecided"}, REFUTE: {"refuted"},
           TRUE: {"proved", "proved-for", "confirmed", "undecided"}}

SCALAR = "scalar a"
LN = "use layernorm"
RMS = "use rmsnorm"


def _mp(f):
    return lambda d: bool(f(mpmath.mpf(d)))


#: (id, header, claim, kind, holds(d) for a non-constant x (None: not a function of d alone))
CASES = [
    ("one_d", SCALAR, "(d - 97)**2 >= 1", REFUTE, _mp(lambda d: (d - 97) ** 2 >= 1)),
    ("window", SCALAR, "abs(d - 550) >= 50", REFUTE, _mp(lambda d: abs(d - 550) >= 50)),
    ("huge_one_d", SCALAR, "(d - 10**7)**2 > 0", REFUTE, _mp(lambda d: (d - 10**7) ** 2 > 0)),
    ("exp_d", SCALAR, "exp(d/1000) <= 10**6", REFUTE,
     _mp(lambda d: mpmath.exp(d / 1000) <= 10**6)),
    ("log_d", SCALAR, "log(d) <= 15", REFUTE, _mp(lambda d: mpmath.log(d) <= 15)),
    ("sqrt_d", SCALAR, "d**(1/2) <= 3000", REFUTE, _mp(lambda d: mpmath.sqrt(d) <= 3000)),
    ("bump", SCALAR, "d*exp(-d/300) <= 110", REFUTE,
     _mp(lambda d: d * mpmath.exp(-d / 300) <= 110)),
    ("abs_eq", SCALAR, "abs(1000 - d) == 1000 - d", REFUTE, _mp(lambda d: d <= 1000)),
    ("power_race", SCALAR, "d**30 >= 2**d", REFUTE, _mp(lambda d: d ** 30 >= 2 ** d)),
    ("far_one_d", SCALAR, "(d - 123456789)**2 >= 1", REFUTE,
     _mp(lambda d: (d - 123456789) ** 2 >= 1)),
    ("scalar_and_d", SCALAR, "a**2 * (1 - d/5000) + 1 > 0", REFUTE, None),
    ("ln_growth", LN, "norm(N(x))**2 * 1.05**d <= 10**6  given eps == 0", REFUTE,
     _mp(lambda d: d * mpmath.mpf("1.05") ** d <= 10**6)),
    ("ln_eq", LN, "abs(norm(N(x))**2 - 300) == 300 - norm(N(x))**2  given eps == 0", REFUTE,
     _mp(lambda d: d <= 300)),
    ("ln_window", LN, "norm(N(x))**2 <= 96 + (d - 97)**2  given eps == 0", REFUTE,
     _mp(lambda d: d <= 96 + (d - 97) ** 2)),
    ("rms_huge", RMS, "norm(RMS(x))**2 <= 10**4  given eps == 0", FALSE,
     _mp(lambda d: d <= 10**4)),
    ("ln_symbolic_power", LN, "norm(N(x))**(d/100) <= 10**50  given eps == 0", FALSE,
     _mp(lambda d: d ** (d / 200) <= mpmath.mpf(10) ** 50)),
    ("ln_far_bump", LN, "norm(N(x))**2 * exp(-d/10**6) <= 36*10**4  given eps == 0", FALSE,
     _mp(lambda d: d * mpmath.exp(-d / 10**6) <= 36 * 10**4)),
    # beyond the ladder (10**12): z3's model cannot be built, and must withhold confirmed
    ("z3_scalar", SCALAR, "d <= 10**13", FALSE, _mp(lambda d: d <= 10**13)),
    ("z3_vector", LN, "norm(N(x))**2 <= 10**13  given eps == 0", FALSE,
     _mp(lambda d: d <= 10**13)),
    # true claims of the same shapes must not be refuted
    ("t_bump", SCALAR, "d*exp(-d/300) <= 111", TRUE,
     _mp(lambda d: d * mpmath.exp(-d / 300) <= 111)),
    ("t_square", SCALAR, "(d - 10**7)**2 >= 0", TRUE, _mp(lambda d: True)),
    ("t_ln_decay", LN, "norm(N(x))**2 * 0.9**d <= 10  given eps == 0", TRUE,
     _mp(lambda d: d * mpmath.mpf("0.9") ** d <= 10)),
]


@functools.cache
def _verdicts(header: str) -> dict[str, object]:
    lines = [f"claim {i}: {c}" for i, h, c, _, _ in CASES if h == header]
    text = "```symnorm\n" + header + "\n" + "\n".join(lines) + "\n```\n"
    res = check_text(text, file="large_d.md", sandbox=True, timeout=60.0)
    return {v.label: v for v in res.verdicts}


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_claim(case) -> None:
    cid, header, claim, kind, holds = case
    v = _verdicts(header)[cid]
    assert v.status in ALLOWED[kind], (cid, claim, v.status, v.scope, v.message)
    if v.status == "refuted" and holds is not None and "d" in (v.counterexample or {}):
        d = int(v.counterexample["d"])
        assert not holds(d), f"{cid}: the counterexample's d = {d} satisfies the claim"
    if v.status == "undecided" and kind == FALSE:
        assert "fails at d = " in v.message or "counterexample at d = " in v.message, \
            v.message  # says where


def test_thresholds_are_right() -> None:
    """The independent functions of d say both yes and no where the cases say so."""
    h = {c[0]: c[4] for c in CASES}
    assert h["one_d"](96) and not h["one_d"](97) and h["one_d"](98)
    assert h["window"](500) and not h["window"](501) and not h["window"](599) and h["window"](600)
    assert h["exp_d"](13815) and not h["exp_d"](13816)
    assert h["bump"](276) and not h["bump"](300) and h["bump"](330)
    assert h["power_race"](236) and not h["power_race"](237)
    assert h["ln_growth"](150) and not h["ln_growth"](200)
    assert h["ln_window"](96) and not h["ln_window"](97) and not h["ln_window"](98) \
        and h["ln_window"](99)
    assert all(h["t_bump"](d) for d in range(2, 2000))


def test_confirmed_scope_names_the_ladder() -> None:
    """A confirmation says how far the reduced claim was probed, literally."""
    v = _verdicts(SCALAR)["t_bump"]
    if v.status == "confirmed":
        assert "the reduced claim at" in v.scope and "10**12" in v.scope, v.scope


def test_ladder_is_dense_then_geometric() -> None:
    assert set(range(2, 1025)) <= set(LADDER)
    assert LADDER[-1] == 10**12 and 10**7 in LADDER
    gaps = [b / a for a, b in zip(LADDER, LADDER[1:]) if a > 1024 and b <= 10**6]
    assert max(gaps) < 1.03


def test_probe_describe() -> None:
    p = Probe(ds=[*range(2, 1025), 2000, 10**12], points=3000)
    assert p.describe() == "the reduced claim at 3000 points, every d = 2..1024 and 2 d up " \
        "to 10**12"
