"""A claim label has at most 100 characters, as docs/security.md says (red-team round 7)."""

from __future__ import annotations

import pytest

from symnorm.check.run import check_text

FENCE = "```"


def _claim(label: str) -> str:
    return f"{FENCE}symnorm\nuse layernorm\nclaim {label}: J*ones == 0\n{FENCE}\n"


def _latex_fence(label: str) -> str:
    return (f"{FENCE}symnorm\nuse layernorm\n{FENCE}\n"
            f"{FENCE}latex {label}\nJ \\mathbf{{1}} = 0\n{FENCE}\n")


def _latex_statement(label: str) -> str:
    return f"{FENCE}symnorm\nuse layernorm\nlatex {label}: J \\mathbf{{1}} = 0\n{FENCE}\n"


def _errors(text: str) -> list:
    return [v for v in check_text(text, "d.md", sandbox=False).verdicts if v.status == "error"]


@pytest.mark.parametrize("n", [101, 207, 3003])
def test_claim_label_over_100_is_located_error(n):
    label = "l" + "x" * (n - 1)
    [err] = _errors(_claim(label))
    assert (err.file, err.line, err.column) == ("d.md", 3, 7)
    assert f"{n} characters" in err.message and "at most 100" in err.message
    assert label not in err.label and label not in err.message


@pytest.mark.parametrize("make", [_latex_fence, _latex_statement])
@pytest.mark.parametrize("n", [101, 3003])
def test_latex_label_over_100_is_located_error(make, n):
    label = "l" + "x" * (n - 1)
    [err] = _errors(make(label))
    assert err.file == "d.md" and err.line >= 1 and err.column >= 1
    assert "at most 100" in err.message and label not in err.message


@pytest.mark.parametrize("make", [_claim, _latex_fence, _latex_statement])
def test_label_of_100_is_accepted(make):
    label = "l" + "x" * 99
    res = check_text(make(label), "d.md", sandbox=False)
    assert [v.status for v in res.verdicts] == ["proved"], [v.message for v in res.verdicts]
    assert res.verdicts[0].label.startswith(label)  # a LaTeX equation adds ".1"
