"""symnorm check: every status, exit codes, the JSON schema, mutants of the paper's claims."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from symnorm.check.run import check_text
from symnorm.check.verdict import STATUSES, exit_code

ROOT = Path(__file__).resolve().parents[1]
PAPER = ROOT / "derivations" / "paper.md"


def doc(*lines: str) -> str:
    return "```symnorm\n" + "\n".join(lines) + "\n```\n"


def status_of(text: str, label: str, **kw) -> str:
    kw.setdefault("sandbox", False)
    res = check_text(text, **kw)
    (v,) = [v for v in res.verdicts if v.label == label]
    return v.status


def verdict_of(text: str, label: str, **kw):
    kw.setdefault("sandbox", False)
    return next(v for v in check_text(text, **kw).verdicts if v.label == label)


# --- every status ---------------------------------------------------------------------------

def test_proved_for_every_d():
    v = verdict_of(doc("use layernorm", "claim r: J*c == eps/s**3*c"), "r")
    assert v.status == "proved" and v.scope == "every d >= 2, where defined" and v.engine == "any-d"
    # points where the claim is not defined are listed as skipped ("singular"), not counted
    evaluated = [r for r in v.evidence if r["result"] != "singular"]
    assert len(evaluated) >= 2 and all(r["result"] == "agree" for r in evaluated)
    assert all(not r["lhs"] for r in v.evidence if r["result"] == "singular")


def test_proved_for_listed_dimensions_with_a_free_matrix():
    v = verdict_of(doc("matrix W", "claim t: trace(W + W.T) == 2*trace(W)"), "t")
    assert v.status == "proved-for" and v.scope == "d = 2..8"


def test_confirmed_when_only_numbers_agree():
    v = verdict_of(doc("scalar b", "claim e: log(b**2 + 1) + log(b**2 + 2) == log((b**2 + 1)*(b**2 + 2))"), "e")
    assert v.status == "confirmed"
    assert all(r["digits"] >= 30 for r in v.evidence) and len(v.evidence) >= 2


def test_refuted_with_exact_counterexample():
    v = verdict_of(doc("use layernorm", "claim w: J*c == eps/s**2*c"), "w")
    assert v.status == "refuted"
    ce = v.counterexample
    assert set(ce) >= {"d", "eps", "x", "lhs", "rhs"}
    assert "/" in ce["eps"] or ce["eps"].lstrip("-").isdigit()  # exact rational text


def test_undecided_on_time_limit():
    big = doc("matrix W", "vector x", "let d = 30", "scalar b",
              "claim slow: trace(jacobian(W*x/sqrt(x.T*W*x + b**2 + 1), x)) == "
              "trace(jacobian(W*x/sqrt(x.T*W.T*x + b**2 + 1), x))")
    v = verdict_of(big, "slow", sandbox=True, timeout=1.0)
    assert v.status == "undecided" and "time limit" in v.message


def test_error_with_position_and_hint():
    v = verdict_of(doc("use layernorm", "claim e: J*q == 0"), "e")
    assert v.status == "error" and v.line == 3 and v.column == 12
    assert "unknown name 'q'" in v.message and "declare it" in v.message


def test_not_equal_proved_by_witness_and_refuted_by_identity():
    text = doc("use layernorm", "scalar b", "claim ne: N(2*x) != N(x)",
               "claim same: N(x + b*ones) != N(x)")
    res = {v.label: v for v in check_text(text, sandbox=False).verdicts}
    assert res["ne"].status == "proved" and res["ne"].counterexample["lhs"] != \
        res["ne"].counterexample["rhs"]
    assert res["same"].status == "refuted"


def test_inequalities():
    text = doc("scalar b, eps", "assume eps > 0",
               "claim in: BN(0; [0, b])**2 < 1", "claim out: BN(0; [0, b]) > 0",
               "claim const: BN(0; [0, 2]) < -0.995 given eps == 1/100",
               "claim const_wrong: BN(0; [0, 2]) < -0.996 given eps == 1/100")
    res = {v.label: v.status for v in check_text(text, sandbox=False).verdicts}
    # "in" is b**2/(b**2 + 4 eps) < 1 for eps > 0: decided exactly by the SMT step
    assert res == {"in": "proved", "out": "refuted", "const": "proved",
                   "const_wrong": "refuted"}


def test_assumptions_matter():
    with_ = doc("use layernorm", "scalar k", "assume k > 0",
                "claim inv: N(k*x) == N(x) given eps == 0")
    without = doc("use layernorm", "scalar k", "claim inv: N(k*x) == N(x) given eps == 0")
    assert status_of(with_, "inv") == "proved"
    assert status_of(without, "inv") == "refuted"


def test_unneeded_assumption_is_reported():
    v = verdict_of(doc("use layernorm", "scalar a, b", "assume a > 0",
                       "claim s: N(a*x + b*ones) == a*P*x/sqrt(a**2*v + eps)"), "s")
    assert v.status == "proved" and any("a > 0" in n for n in v.notes)


def test_user_defined_map_without_vocabulary():
    text = doc("vector x", "scalar eps", "let P = I - ones*ones.T/d",
               "let N(y) = P*y/sqrt(y.T*P*y/d + eps)", "let J = jacobian(N(x), x)",
               "let c = P*x", "let s = sqrt(c.T*c/d + eps)",
               "claim closed: J == P/s - c*c.T/(d*s**3)",
               "claim wrong: J == P/s - c*c.T/(d*s**2)")
    res = {v.label: v.status for v in check_text(text, sandbox=False).verdicts}
    assert res == {"closed": "proved", "wrong": "refuted"}


def test_rmsnorm_spectrum():
    text = doc("use rmsnorm", "vector u",
               "claim radial: Jr*x == eps/r**3*x",
               "claim orth: Jr*u == u/r given u.T*x == 0",
               "claim no_null: Jr*ones == 0",
               "claim not_shift: RMS(x + ones) != RMS(x)")
    res = {v.label: v.status for v in check_text(text, sandbox=False).verdicts}
    assert res == {"radial": "proved", "orth": "proved", "no_null": "refuted",
                   "not_shift": "proved"}


# --- mutants of the paper's claims: each must be refuted ------------------------------------

MUTANTS = [
    ("changed exponent", "J*c == eps/s**2*c"),
    ("changed exponent in J", "J == P/s - c*c.T/(d*s**2)"),
    ("dropped term", "J == P/s"),
    ("wrong sign", "J == P/s + c*c.T/(d*s**3)"),
    ("wrong constant", "trace(J) == (d - 1)/s + eps/s**3"),
    ("dropped ones", "J*x == 0"),
    ("wrong constant in the pair", "BN(0; [0, b]) == -b/sqrt(b**2 + 2*eps)"),
    ("wrong sign in the pair", "BN(0; [0, b]) == b/sqrt(b**2 + 4*eps)"),
    ("scale law without a", "N(a*x + b*ones) == P*x/sqrt(a**2*v + eps)"),
    ("scale law with a for a**2", "N(a*x + b*ones) == a*P*x/sqrt(a*v + eps)"),
    ("projector not idempotent", "P*P == 2*P"),
    ("trace of P", "trace(P) == d"),
    ("shift changes", "N(x + b*ones) == N(x) + b*ones"),
    ("complement eigenvalue", "J*u == u/s**3"),
]


@pytest.mark.parametrize("name,claim", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_mutants_are_refuted(name, claim):
    text = doc("use layernorm", "scalar a, b", "vector u", f"claim m: {claim}")
    assert status_of(text, "m") == "refuted", name


def test_missing_hypothesis_mutant_is_refuted():
    text = doc("use layernorm", "vector u", "claim m: J*u == u/s given u.T*ones == 0")
    assert status_of(text, "m") == "refuted"


def test_missing_assumption_mutant_is_refuted():
    text = doc("use layernorm", "scalar k", "claim m: N(-k*x) == -N(x) given eps == 0")
    assert status_of(text, "m") == "refuted"


# --- the paper's document, exit codes and JSON ------------------------------------------------

def run_cli(*args: str, timeout: float = 300):
    return subprocess.run([sys.executable, "-m", "symnorm", *args], capture_output=True, check=False,
                          text=True, timeout=timeout, cwd=ROOT)


def test_paper_document_is_proved_for_every_d():
    p = run_cli("check", str(PAPER), "--json")
    assert p.returncode == 0, p.stdout + p.stderr
    data = json.loads(p.stdout)
    assert data["summary"]["proved"] == len(data["claims"]) >= 20
    keys = {"file", "line", "label", "statement", "status", "scope", "assumptions", "engine",
            "counterexample", "evidence", "seconds", "message"}
    for c in data["claims"]:
        assert keys <= set(c)
        assert c["status"] in STATUSES
    assert set(data["summary"]) == set(STATUSES)


def test_exit_codes(tmp_path):
    good = tmp_path / "good.md"
    good.write_text(doc("use layernorm", "claim z: J*ones == 0"))
    bad = tmp_path / "bad.md"
    bad.write_text(doc("use layernorm", "claim z: J*ones == ones"))
    err = tmp_path / "err.md"
    err.write_text(doc("use layernorm", "claim z: J*ones == = 0"))
    assert run_cli("check", str(good)).returncode == 0
    p = run_cli("check", str(bad))
    assert p.returncode == 1 and "--only z" in p.stdout
    p = run_cli("check", str(err))
    assert p.returncode == 2 and "err.md:3:" in p.stdout and "Traceback" not in p.stderr
    assert run_cli("check", str(bad), str(err)).returncode == 1
    assert run_cli("check", str(tmp_path / "missing.md")).returncode == 2
    p = run_cli("check", str(good), "--dps", "10000000")
    assert p.returncode == 2 and "dps" in p.stderr and "Traceback" not in p.stderr
    assert run_cli("check").returncode == 2
    p = run_cli("check", str(good), "--only", "nope")
    assert p.returncode == 2


def test_only_selects_one_claim(tmp_path):
    f = tmp_path / "d.md"
    f.write_text(doc("use layernorm", "claim a: J*ones == 0", "claim b: J*c == 0"))
    data = json.loads(run_cli("check", str(f), "--only", "a", "--json").stdout)
    assert [c["label"] for c in data["claims"]] == ["a"]


def test_exit_code_function():
    from symnorm.check.verdict import Verdict
    mk = lambda s: Verdict("f", 1, "l", "", s)
    assert exit_code([mk("proved"), mk("confirmed"), mk("proved-for")]) == 0
    assert exit_code([mk("proved"), mk("refuted"), mk("error")]) == 1
    assert exit_code([mk("proved"), mk("undecided")]) == 2
    assert exit_code([mk("error")]) == 2


def test_pytest_plugin_collects_claims(tmp_path):
    f = tmp_path / "claims.md"
    f.write_text(doc("use layernorm", "claim good: J*ones == 0",
                     "claim bad: J*c == eps/s**2*c"))
    from importlib.metadata import entry_points
    installed = any(ep.name == "symnorm" for ep in entry_points(group="pytest11"))
    plugin = [] if installed else ["-p", "symnorm.check.pytest_plugin"]
    p = subprocess.run([sys.executable, "-m", "pytest", *plugin,
                        str(f), "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path)],
                       capture_output=True, check=False, text=True, timeout=300, cwd=tmp_path,
                       env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert "1 failed, 1 passed" in p.stdout, p.stdout + p.stderr
    assert "counterexample" in p.stdout and "--only bad" in p.stdout


@pytest.mark.parametrize("claim", [
    "10**40*b == 10**40*b + 1",          # a small difference hidden by a huge value
    "b**2 + 10**-60 == b**2",            # a tiny difference
    "sqrt(b**2) == b",                   # true only for b >= 0
    "BN(0; [0, b]) == -1",               # true only in the eps -> 0 limit
])
def test_near_misses_are_never_confirmed(claim):
    text = doc("scalar b, eps", "assume eps > 0", f"claim m: {claim}")
    assert status_of(text, "m") == "refuted"


def test_inequality_hypotheses_act_as_assumptions():
    ok = doc("use layernorm", "scalar k", "claim m: N(k*x) == N(x) given eps == 0, k > 0")
    bad = doc("use layernorm", "scalar k", "claim m: N(k*x) == N(x) given eps == 0, k < 0")
    assert status_of(ok, "m") == "proved"
    assert status_of(bad, "m") == "refuted"


def test_hypotheses_with_radicals_and_algebraic_counterexamples():
    base = ("vector x", "scalar eps, gamma, beta", "let mu = ones.T*x/d",
            "let sigma = sqrt((x - mu*ones).T*(x - mu*ones)/d)",
            "let xhat = (x - mu*ones)/sqrt(sigma**2 + eps)")
    text = doc(*base,
               "claim id: gamma*xhat + beta*ones == x given gamma == sqrt(sigma**2 + eps), "
               "beta == mu",
               "claim no: gamma*xhat + beta*ones == x given gamma == sqrt(sigma**2 + 2*eps), "
               "beta == mu")
    res = {v.label: v for v in check_text(text, sandbox=False).verdicts}
    assert res["id"].status == "proved"
    assert res["no"].status == "refuted"
    assert res["no"].counterexample["gamma"].startswith("sqrt(")  # exact, not a float


def test_contradictory_assumptions_are_an_error():
    res = check_text(doc("scalar eps", "assume eps > 0", "assume eps == 0",
                         "claim m: eps == eps"), sandbox=False)
    errors = [v for v in res.verdicts if v.status == "error"]
    assert errors and "contradicts" in errors[0].message and errors[0].line == 4


def test_power_towers_end_quickly_as_undecided():
    v = verdict_of(doc("claim t: 2**2**2**2**2**2 == 3"), "t", sandbox=True, timeout=10.0)
    assert v.status == "undecided" and "cap" in v.message


def test_figure_statements_are_validated():
    res = check_text(doc("figure eps_scale", "figure nosuch", "figure batch_flip bmin=3 bmax=1"),
                     sandbox=False)
    got = {v.label: v.message for v in res.verdicts}
    assert set(got) == {"figure nosuch", "figure batch_flip"}
    assert "available:" in got["figure nosuch"] and "bmin" in got["figure batch_flip"]
    assert [f.name for f in res.figures] == ["eps_scale"]


def test_quadratic_hypotheses_give_witnesses_but_not_proofs():
    text = doc("use layernorm", "vector u",
               "claim w: x.T*N(x + u)/d != 1  given eps == 0, ones.T*x == 0, x.T*x == d, "
               "u.T*ones == 0",
               "claim one: x.T*N(x)/d == 1  given eps == 0, ones.T*x == 0, x.T*x == d")
    res = {v.label: v for v in check_text(text, sandbox=False).verdicts}
    assert res["w"].status == "proved" and res["w"].engine == "numeric witness"
    assert res["one"].status == "proved" and res["one"].engine == "any-d"


def test_bounds_on_d_restrict_dimensions():
    text = doc("use layernorm", "assume d <= 3", "claim t: trace(P) <= 2",
               "claim u: trace(P) == d - 1", "claim w: trace(P) <= 1")
    res = {v.label: v for v in check_text(text, sandbox=False).verdicts}
    assert res["t"].status == "proved" and "2..3" in res["t"].scope
    assert res["u"].status == "proved" and "d <= 3" in res["u"].scope
    assert res["w"].status == "refuted"  # false at d = 3


def test_differences_hidden_below_the_first_precision_are_found():
    text = doc("scalar a", "claim t: a**2 + 1 + 1/10**(2*100) == a**2 + 1",
               "claim u: a**2 + 1 + 1/10**(2*20) == a**2 + 1")
    res = {v.label: v.status for v in check_text(text, sandbox=False).verdicts}
    assert res == {"t": "refuted", "u": "refuted"}


def test_assumptions_linked_through_other_symbols_apply():
    text = doc("scalar a, b", "assume a >= b", "assume b >= 0",
               "claim h1: abs(a) == a", "claim h2: abs(a) != a")
    res = {v.label: v.status for v in check_text(text, sandbox=False).verdicts}
    assert res["h1"] in ("proved", "confirmed") and res["h2"] != "proved"


def test_latex_equation_of_assumptions_only_is_an_error():
    res = check_text(doc("use layernorm", "scalar a", "latex L1: a > 5"), sandbox=False)
    (v,) = res.verdicts
    assert v.status == "error" and "only assumptions" in v.message


def test_vacuous_claims_are_not_proved():
    text = doc("scalar a", "claim f: sqrt(a)**2 == -1 given a == -1",
               "claim g: sqrt(a)*sqrt(a) < 0 given a == -1")
    res = {v.label: v.status for v in check_text(text, sandbox=False).verdicts}
    assert res == {"f": "undecided", "g": "undecided"}


def test_equality_cases_of_strict_inequalities_are_found():
    text = doc("scalar a", "claim i3: (a - 1/3)**2 > 0", "claim lt: log(a) < a - 1",
               "claim ok: (a - 1/3)**2 >= 0")
    res = {v.label: v for v in check_text(text, sandbox=False).verdicts}
    assert res["i3"].status == "refuted" and res["i3"].counterexample["a"] == "1/3"
    assert res["lt"].status == "refuted" and res["lt"].counterexample["a"] == "1"
    assert res["ok"].status == "proved"  # a square is >= 0: decided by the SMT step
