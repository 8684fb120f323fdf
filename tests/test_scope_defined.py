"""A proof's scope says where it holds: ", where defined" unless the claim as written is
defined at every admissible point (docs/engines.md, "Scope strings say literally what was
established").  The identities below hold wherever both sides are defined; which of them are
defined everywhere is decided by hand (a denominator that can vanish, a radicand that can
go negative at a real point the assumptions allow)."""

from __future__ import annotations

import pytest

from symnorm.check.run import check_text

WHERE = ", where defined"

CASES = [
    # (preamble, claim, scope): the scope of the proof
    ("scalar a", "a/a == 1", "all values of the free symbols" + WHERE),  # a = 0
    ("scalar a", "(a**2 - 1)/(a - 1) == a + 1", "all values of the free symbols" + WHERE),
    ("scalar a", "a*sqrt(a)/sqrt(a) == a", "all values of the free symbols" + WHERE),
    ("scalar a\nlet f = 1/a", "f*a == 1", "all values of the free symbols" + WHERE),
    ("scalar a", "a*a == a**2", "all values of the free symbols"),
    ("scalar a", "a/(a**2 + 1)*(a**2 + 1) == a", "all values of the free symbols"),
    ("scalar a\nassume a > 0", "sqrt(a)*sqrt(a) == a", "all values of the free symbols"),
    ("scalar a\nassume a > 0", "a/a == 1", "all values of the free symbols"),
    ("vector u", "norm(u)/norm(u) == 1", "every d >= 2" + WHERE),  # u = 0
    ("vector u", "ones.T*ones/(d - 1) == d/(d - 1)", "every d >= 2"),
    ("vector u", "ones.T*ones*(d - 3)/(d - 3) == d", "every d >= 2" + WHERE),  # d = 3
    # eps is a free real: at eps < -var the radicand of s is negative
    ("use layernorm", "J*c == eps/s**3*c", "every d >= 2" + WHERE),
    ("use layernorm\nassume eps > 0", "J*c == eps/s**3*c", "every d >= 2"),
    ("use layernorm", "P*P == P", "every d >= 2"),
    ("use layernorm(d=3)\nassume eps > 0", "J*ones == 0", "d = 3"),
    ("use layernorm(d=3)", "J*ones == 0", "d = 3" + WHERE),
    # at eps = 0 the normalized vector of a constant x divides by zero
    ("use layernorm\nassume eps >= 0", "ones.T*N(x) == 0", "every d >= 2" + WHERE),
    # red team 19: a derivative divides by what the relation only takes the root of
    ("scalar a\nassume a >= 0", "jacobian(sqrt(a), a) * sqrt(a) == 1/2",
     "all values of the free symbols" + WHERE),  # a = 0
    ("scalar a, b", "jacobian(sqrt(a**2+b**2), b) * sqrt(a**2+b**2) == b",
     "all values of the free symbols" + WHERE),  # a = b = 0
    ("scalar a\nassume a >= 0", "jacobian(a**(1/2), a) * a**(1/2) == 1/2",
     "all values of the free symbols" + WHERE),
    ("vector u", "norm(u) * jacobian(norm(u), u) == u.T", "every d >= 2" + WHERE),  # u = 0
    ("use layernorm\nassume eps >= 0", "s*jacobian(s, x) == c.T/d", "every d >= 2" + WHERE),
    ("use layernorm\nassume eps > 0", "s*jacobian(s, x) == c.T/d", "every d >= 2"),
    ("scalar a", "jacobian(a**2, a) == 2*a", "all values of the free symbols"),
]


def _verdict(preamble: str, claim: str):
    src = f"# t\n\n```symnorm\n{preamble}\nclaim c: {claim}\n```\n"
    (v,) = [v for v in check_text(src, "t.md").verdicts if v.label == "c"]
    return v


@pytest.mark.parametrize("preamble, claim, scope", CASES, ids=[c[1] for c in CASES])
def test_scope_of_a_proof_says_where_it_holds(preamble, claim, scope):
    v = _verdict(preamble, claim)
    assert (v.status, v.scope) == ("proved", scope), (v.status, v.scope, v.message)


def test_a_witness_is_not_qualified():
    # a proved != names a point, where the claim is defined by construction
    v = _verdict("scalar a", "a/a != 2*a")
    assert v.status == "proved" and WHERE not in v.scope, v.scope


def test_refutations_are_unchanged():
    v = _verdict("scalar a", "(a**2 - 1)/(a - 1) == a - 1")
    assert v.status == "refuted" and WHERE not in (v.scope or ""), v.scope


def test_an_inequality_of_a_derivative_is_qualified():
    v = _verdict("scalar a\nassume a >= 0", "jacobian(sqrt(a), a) * sqrt(a) <= 1")
    assert (v.status, v.scope) == ("proved", "all values of the free symbols" + WHERE), v.scope


def test_a_latex_partial_of_sigma_is_qualified():
    # sigma d sigma / d x_i = (x_i - mu)/d: the partial of sigma is undefined at constant x
    src = ("# t\n\n```symnorm\nuse layernorm\n```\n\n```latex L\n"
           "\\sigma \\frac{\\partial \\sigma}{\\partial x_i} = \\frac{1}{d}(x_i-\\mu)\n```\n")
    (v,) = [v for v in check_text(src, "t.md").verdicts if v.status != "defined"]
    assert (v.status, v.scope) == ("proved", "every d >= 2" + WHERE), (v.status, v.scope)
