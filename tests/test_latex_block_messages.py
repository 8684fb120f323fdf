r"""A block's vocabulary options end with the block: the message says how to carry them
(red team 20, d06: ``sigma would mean sqrt(v), but here 'v' is not defined in this block``
did not say that ``document use`` holds for the rest of the document).  Truth by numpy."""

from __future__ import annotations

import numpy as np

from symnorm.check.run import check_text

X = np.array([1.0, 3.0, 4.0])
EPS, GAMMA, BETA = 0.5, 1.5, -0.25
ROW = r"y = \gamma\frac{x-\mu}{\sigma+\epsilon}+\beta"


def _verdicts(use: str, row: str) -> list[tuple[str, str]]:
    text = f"```symnorm\n{use}\n```\n\n```latex a\n{row}\n```\n"
    return [(v.status, v.message) for v in check_text(text, "b.md", sandbox=False).verdicts
            if v.status != "defined"]


def _layer(x: np.ndarray) -> np.ndarray:
    """LayerNorm with eps outside the root (eps_inside=0), by numpy."""
    return GAMMA * (x - x.mean()) / (x.std() + EPS) + BETA


def test_a_block_option_names_the_document_line() -> None:
    got = _verdicts("use layernorm(eps_inside=0)", ROW)
    assert [s for s, _ in got] == ["error"], got
    assert "it came from `use layernorm(eps_inside=0)` (line 2), whose definitions belong to " \
        "its block (`document use layernorm(eps_inside=0)` would hold for the rest of the " \
        "document)" in got[0][1], got


def test_with_the_document_line_the_row_is_read() -> None:
    assert np.allclose(_layer(X), GAMMA * (X - X.mean()) / (np.sqrt(X.var()) + EPS) + BETA)
    assert [s for s, _ in _verdicts("document use layernorm(eps_inside=0)", ROW)] == ["proved"]
    # one token: eps subtracted, false
    assert not np.allclose(_layer(X), GAMMA * (X - X.mean()) / (X.std() - EPS) + BETA)
    assert [s for s, _ in _verdicts("document use layernorm(eps_inside=0)",
                                    ROW.replace("+\\epsilon", "-\\epsilon"))] == ["refuted"]
