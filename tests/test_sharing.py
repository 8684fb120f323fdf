"""Work shared between the claims of a document (issue 12) is shared only where it may be.

The numeric engine keeps the Jacobians it computed, keyed by the expanded expression, the
variable, d, the point's values and the precision; the cross-check of an any-d proof draws
its points from the claim's context, so claims with the same names and assumptions meet at
the same points.  Claims with the same context but different maps must not share.
"""

from __future__ import annotations

import mpmath

from symnorm.check.run import check_text
from symnorm.engines import numclaim

SAME_CONTEXT = """\
```symnorm
use layernorm
claim ln.ones: J*ones == 0
claim ln.symmetric: J.T == J
```

```symnorm
use rmsnorm
claim rms.radial: Jr*x == eps/r**3*x
claim rms.symmetric: Jr.T == Jr
claim rms.not_layernorm: Jr*ones == 0
```
"""


def _counting(monkeypatch) -> list[str]:
    calls: list[str] = []
    original = numclaim._Eval._compute

    def counted(self, body, var, forward):
        calls.append(str(body))
        return original(self, body, var, forward)
    monkeypatch.setattr(numclaim._Eval, "_compute", counted)
    numclaim._JACOBIANS.clear()
    return calls


def test_claims_share_jacobians_but_not_across_maps(monkeypatch):
    calls = _counting(monkeypatch)
    asked: list[str] = []
    entry = numclaim._Eval.jacobian

    def counted(self, body, var):
        asked.append(str(body))
        return entry(self, body, var)
    monkeypatch.setattr(numclaim._Eval, "jacobian", counted)
    result = check_text(SAME_CONTEXT, sandbox=False)
    status = {v.label: v.status for v in result.verdicts}
    # a Jacobian of the other map at the same point would make a true claim disagree with
    # its own proof (an INTERNAL ERROR) or the false one look true
    assert status == {"ln.ones": "proved", "ln.symmetric": "proved", "rms.radial": "proved",
                      "rms.symmetric": "proved", "rms.not_layernorm": "refuted"}, result
    # every cross-check point of the proofs agrees (another map's Jacobian would make them
    # unclear: the exact re-verification refuses such a difference); points where the claim
    # is not defined are listed as "singular" and compare nothing
    rows = [r["result"] for v in result.verdicts if v.status == "proved" for r in v.evidence
            if r["result"] != "singular"]
    assert rows and set(rows) == {"agree"}, rows
    bodies = set(calls)
    assert len(bodies) == 2  # LayerNorm's and RMSNorm's maps, each computed
    # the second claim of each block reuses the first one's cross-check Jacobians
    assert len(calls) + 8 <= len(asked)


def test_cache_key_separates_d_point_and_precision(monkeypatch):
    from fractions import Fraction as F

    from symnorm.lang.document import parse_text
    from symnorm.lang.syntax import Call, nodes
    calls = _counting(monkeypatch)
    claim = parse_text("```symnorm\nuse layernorm\nclaim a: J*ones == 0\n```\n",
                       "t.md").scope.claims[0]
    (jac,) = [n for n in nodes(claim.relation) if isinstance(n, Call) and n.func == "jacobian"]
    body = jac.args[0]

    def jacobian(p, dps=60):
        with mpmath.workdps(dps):
            return numclaim._Eval(claim, p).jacobian(body, "x")
    p1 = numclaim.Point(3, {"x": [F(1), F(2), F(4)], "eps": F(1, 10)})
    p2 = numclaim.Point(3, {"x": [F(1), F(2), F(5)], "eps": F(1, 10)})
    p3 = numclaim.Point(3, {"x": [F(1), F(2), F(4)], "eps": F(1, 5)})
    p4 = numclaim.Point(2, {"x": [F(1), F(2)], "eps": F(1, 10)})
    values = [jacobian(p) for p in (p1, p2, p3, p4, p1)]
    assert len(calls) == 4  # p1 once; another point, eps or d is computed apart
    finer = jacobian(p1, 80)
    assert len(calls) == 5  # another precision is computed apart
    with mpmath.workdps(60):
        assert values[0] != values[1] and values[0] != values[2]
        assert values[3].rows == 2 and values[0].rows == 3
        assert values[4] == values[0]
        assert mpmath.mnorm(finer - values[0], 1) < mpmath.mpf(10) ** -50
        values[4][0, 0] += 1  # a caller changing its copy does not change the cache
    again = jacobian(p1)
    assert len(calls) == 5
    with mpmath.workdps(60):
        assert again == values[0] and again != values[4]
