"""Counts in oneDNN's tensor-index notation are the capitals of the summed indices.

A count written with capitals of index letters (``C``, ``NHW``, also ``N H``) is the
number of values of those indices: d when they are exactly the summed (vector) indices, the
size of a fixed index of its own (``T``: ``size_t``) when it is one fixed letter, and an error
otherwise, even when the vocabulary also has that name as a count of d (layernorm's ``H``
and ``D``, batchnorm's ``NHW``): red-team round 11 had ``\\mu(n) = \\frac{1}{NHW}
\\sum_{chw} src(n, c, h, w)`` proved.  Truth by numpy on a tensor whose axes have
different sizes, so that no two counts coincide.
"""

from __future__ import annotations

import numpy as np
import pytest

from symnorm.check.run import check_text

SIZES = {"n": 2, "c": 3, "h": 4, "w": 5, "t": 6}
RNG = np.random.default_rng(7)


def _holds(axes: str, summed: str, count: str) -> bool:
    """Whether (1/count) * sum over ``summed`` is the mean over ``summed`` of a tensor."""
    a = RNG.standard_normal([SIZES[c] for c in axes])
    over = tuple(axes.index(c) for c in summed)
    k = int(np.prod([SIZES[c.lower()] for c in count]))
    return bool(np.allclose(a.sum(axis=over) / k, a.mean(axis=over)))


CASES = [  # vocabulary, tensor axes, summed letters, count, equation
    ("batchnorm", "nchw", "nhw", "NHW", r"\mu(c) = \frac{1}{NHW} \sum\limits_{nhw} src(n, c, h, w)"),
    ("batchnorm", "nchw", "nh", "NH", r"\mu(c, w) = \frac{1}{NH} \sum\limits_{nh} src(n, c, h, w)"),
    ("batchnorm", "nchw", "nh", "HN", r"\mu(c, w) = \frac{1}{H N} \sum\limits_{nh} src(n, c, h, w)"),
    ("batchnorm", "nchw", "chw", "CHW", r"\mu(n) = \frac{1}{CHW} \sum\limits_{chw} src(n, c, h, w)"),
    ("batchnorm", "nchw", "chw", "NHW", r"\mu(n) = \frac{1}{NHW} \sum\limits_{chw} src(n, c, h, w)"),
    ("batchnorm", "nchw", "nh", "NHW", r"\mu(c, w) = \frac{1}{NHW} \sum\limits_{nh} src(n, c, h, w)"),
    ("batchnorm", "nchw", "nh", "NW", r"\mu(c, w) = \frac{1}{NW} \sum\limits_{nh} src(n, c, h, w)"),
    ("layernorm", "thc", "c", "C", r"\mu(t, h) = \frac{1}{C} \sum_{c} src(t, h, c)"),
    ("layernorm", "thc", "c", "H", r"\mu(t, h) = \frac{1}{H} \sum_{c} src(t, h, c)"),
    ("layernorm", "thc", "c", "T", r"\mu(t, h) = \frac{1}{T} \sum_{c} src(t, h, c)"),
]


@pytest.mark.parametrize("vocab, axes, summed, count, latex", CASES,
                         ids=[f"{c[0]}-{c[3]}-over-{c[2]}" for c in CASES])
def test_a_count_is_the_capitals_of_the_summed_indices(vocab, axes, summed, count, latex):
    truth = _holds(axes, summed, count)
    text = f"```symnorm\nuse {vocab}\n```\n\n```latex a\n{latex}\n```\n"
    got = [(v.status, v.message) for v in check_text(text, "t.md", sandbox=False).verdicts
           if v.status != "defined"]
    if truth:
        assert [s for s, _ in got] == ["proved"], got
    else:
        assert [s for s, _ in got] in (["refuted"], ["error"]), got
        if got[0][0] == "error":
            assert "counts the values of the indices" in got[0][1], got


def test_truth_table_is_not_trivial() -> None:
    assert {_holds(c[1], c[2], c[3]) for c in CASES} == {True, False}


def test_the_vocabularys_count_is_not_read_in_tensor_notation() -> None:
    # batchnorm's m is the mini-batch size d of its vector; under \sum_{nh} of a tensor the
    # sources' m (Ioffe's mini-batch size N) and the N*H summed here are different counts
    text = ("```symnorm\nuse batchnorm\n```\n\n```latex a\n"
            r"\mu(c, w) = \frac{1}{m} \sum\limits_{nh} src(n, c, h, w)" "\n```\n")
    got = [(v.status, v.message) for v in check_text(text, "t.md", sandbox=False).verdicts
           if v.status != "defined"]
    assert [s for s, _ in got] == ["error"], got
    assert "t.md:6:22:" in got[0][1] and "write NH" in got[0][1], got
    # the document's own name of d is its call
    own = text.replace("use batchnorm", "use batchnorm\nlet K = d").replace(
        r"\frac{1}{m}", r"\frac{1}{K}")
    assert [v.status for v in check_text(own, "t.md", sandbox=False).verdicts
            if v.status != "defined"] == ["proved"]
