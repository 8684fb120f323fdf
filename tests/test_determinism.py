"""Verdicts depend on what a claim says, never on where the file lies or what else is in it.

Sample points are seeded from the claim's content (label, statement, hypotheses,
assumptions), so the same document by a relative and an absolute path, or under another
name, or with its claims in another order, gets the same verdicts and the same evidence.
"""

from __future__ import annotations

import os

from symnorm.check.run import check_document

CLAIMS = [
    "claim near: (a - 1/3)**2 + b**2 > 0",
    "claim ex: exp(a) < 10**10",
    "claim wide: (ones.T*x)**2 <= 12*(x.T*x)",
    "claim fine: x.T*x >= (ones.T*x)**2/d",
    "claim sc: N(2*x) == N(x)",
]


def _doc(claims: list[str]) -> str:
    return "```symnorm\nuse layernorm\nscalar a, b\n" + "\n".join(claims) + "\n```\n"


def _summary(path: str) -> dict:
    res = check_document(path)
    return {v.label: (v.status, v.scope, [r["point"] for r in v.evidence],
                      {k: x for k, x in (v.counterexample or {}).items()})
            for v in res.verdicts}


def test_relative_and_absolute_paths_give_the_same_verdicts(tmp_path):
    (tmp_path / "doc.md").write_text(_doc(CLAIMS))
    absolute = _summary(str(tmp_path / "doc.md"))
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        relative = _summary("doc.md")
        dotted = _summary("./doc.md")
    finally:
        os.chdir(old)
    assert absolute == relative == dotted


def test_file_name_and_claim_order_do_not_change_verdicts(tmp_path):
    (tmp_path / "one.md").write_text(_doc(CLAIMS))
    (tmp_path / "two.md").write_text(_doc(list(reversed(CLAIMS))))
    assert _summary(str(tmp_path / "one.md")) == _summary(str(tmp_path / "two.md"))
