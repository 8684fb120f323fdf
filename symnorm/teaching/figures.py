"""Figures for the notebooks: built outside pyplot, refused without title, unit labels or legend."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import sympy
from matplotlib.figure import Figure

from ..errors import SymnormError
from ..spec import as_rational

__all__ = ["FigureError", "finish", "new_figure", "rationals"]

_UNIT = re.compile(r"\(([^()]+)\)\s*$")


class FigureError(SymnormError, ValueError):
    """A figure misses a title, an axis label with a unit, or a legend."""


def new_figure(nrows: int = 1, ncols: int = 1, *, width: float = 6.0, height: float = 4.0,
               projection: str | Sequence[str | None] | None = None) -> tuple[Figure, list]:
    """A figure (not managed by pyplot) and its axes as a flat list, row by row."""
    fig = Figure(figsize=(width * ncols, height * nrows), dpi=80)
    kinds = ([projection] * (nrows * ncols) if projection is None or isinstance(projection, str)
             else list(projection))
    axes = [fig.add_subplot(nrows, ncols, i + 1, projection=kinds[i])
            for i in range(nrows * ncols)]
    return fig, axes


def finish(fig: Figure, rect: tuple[float, float, float, float] | None = None) -> Figure:
    """Lay ``fig`` out and return it, or raise :class:`FigureError` naming what is missing.

    Every panel needs a title, x and y labels (and z on 3-D panels) that end in a unit in
    parentheses, such as ``scale a (dimensionless)``, and a legend (its own, or one legend
    of the whole figure).  ``rect`` leaves room for a figure legend (see ``tight_layout``).

    >>> fig, (ax,) = new_figure()
    >>> _ = ax.plot([0, 1], [0, 1], label="line")
    >>> finish(fig)
    Traceback (most recent call last):
    ...
    symnorm.teaching.figures.FigureError: panel 1: no title; x label '' has no unit in parentheses; ...
    """
    problems = []
    for i, ax in enumerate(fig.axes, 1):
        if getattr(ax, "_colorbar", None) is not None or ax.get_label() == "<colorbar>":
            continue
        miss = []
        if not ax.get_title():
            miss.append("no title")
        names = ["x", "y"] + (["z"] if hasattr(ax, "get_zlabel") else [])
        for n in names:
            text = getattr(ax, f"get_{n}label")()
            if not _UNIT.search(text):
                miss.append(f"{n} label {text!r} has no unit in parentheses")
        if ax.get_legend() is None and not fig.legends:
            miss.append("no legend")
        if miss:
            problems.append(f"panel {i}: " + "; ".join(miss))
    if problems:
        raise FigureError(" | ".join(problems))
    fig.tight_layout(rect=rect)
    return fig


def rationals(values: Iterable[Any]) -> list[sympy.Rational]:
    """Exact rationals from numbers or strings (``0.1`` is 1/10), for sample points."""
    return [as_rational(v, "value") for v in values]


def _log_grid(lo: int, hi: int, per_decade: int = 8) -> list[sympy.Rational]:
    """Rationals close to 10**(k/per_decade), lo <= k/per_decade <= hi, exact by rounding."""
    out = []
    for k in range(lo * per_decade, hi * per_decade + 1):
        out.append(sympy.Rational(round(10 ** (k / per_decade) * 10**6), 10**6))
    return out


def _plane_basis(d: int = 3) -> np.ndarray:
    """Orthonormal basis (rows) of the plane ones.T c = 0 in R^3."""
    return np.array([[1, -1, 0] / np.sqrt(2), [1, 1, -2] / np.sqrt(6)])


def _float_vec(m: Any) -> np.ndarray:
    return np.array([float(sympy.N(e, 30)) for e in m], dtype=float)
