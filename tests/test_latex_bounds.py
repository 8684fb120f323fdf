"""An inequality is an assumption only about a free symbol (red-team round 10, M6).

``|s - 1| = s - 1,\\quad s > 1`` was proved "assuming s > 1", although s = sqrt(v + eps)
is layernorm's defined quantity (at a constant x, s = sqrt(eps) < 1).  ``name > number`` is
now a local assumption only when the name is a declared symbol (or eps, gamma, beta, d);
about a defined quantity it is a claim.  Truth by hand at x = (1, 1), eps = 1/10.
"""

from __future__ import annotations

import pytest

from symnorm.check.run import check_text


def verdicts(latex: str, pre: str = "use layernorm\nscalar a") -> list[tuple[str, str, str]]:
    text = f"```symnorm\n{pre}\n```\n\n```latex eq\n{latex}\n```\n"
    res = check_text(text, "bd.md", sandbox=False, timeout=60)
    return [(v.status, v.statement, " ".join(map(str, v.assumptions)))
            for v in res.verdicts if v.status != "defined"]


@pytest.mark.parametrize("latex", [
    r"|s - 1| = s - 1,\quad s > 1",
    r"\sqrt{(\sigma - 1)^2} = \sigma - 1,\quad \sigma > 1",
    r"s = \sqrt{\sigma^2+\epsilon},\quad s > 1",
    r"v > 0",
    r"\mu > 0",
    r"b = 2\mu,\quad b > 0",                  # b is this equation's definition
])
def test_a_bound_on_a_defined_quantity_is_a_claim_and_refuted(latex):
    out = verdicts(latex)
    assert "refuted" in [s for s, _, _ in out], out
    assert all(">" not in a for _, _, a in out), out  # nothing assumed


@pytest.mark.parametrize("latex", [
    r"s > 0",
    r"v \ge 0",
    r"s^2 = \sigma^2 + \epsilon,\quad s > 0",
])
def test_true_bounds_on_defined_quantities_are_proved_as_claims(latex):
    out = verdicts(latex, "use layernorm\ndocument assume eps > 0")
    assert [s for s, _, _ in out] == ["proved"] * len(out) and out, out


@pytest.mark.parametrize("latex, assumed", [
    (r"\|\mathcal N_0(a x) - \mathcal N_0(x)\| = 0,\quad a > 0", "a > 0"),
    (r"|a| = a,\quad a \ge 0", "a >= 0"),
    (r"\sqrt{\epsilon^2} = \epsilon,\quad \epsilon > 0", "eps > 0"),
    (r"|\gamma| = \gamma,\quad \gamma > 0", "gamma > 0"),
])
def test_a_bound_on_a_free_symbol_is_still_an_assumption(latex, assumed):
    text = f"```symnorm\nuse layernorm\nscalar a\n```\n\n```latex eq\n{latex}\n```\n"
    res = check_text(text, "bd.md", sandbox=False, timeout=60)
    claims = [v for v in res.verdicts if v.status != "defined"]
    assert [v.status for v in claims] == ["proved"], claims
    assert assumed in " ".join(str(a) for a in claims[0].assumptions), claims[0]
