"""Layout strings such as ``"N C H W"``: parsed once, validated, cached (einops-style).

A layout names the axes of an activation tensor in order; sizes map axis names to
positive integers (or ``None`` for a symbolic size).  Errors name the token at fault.

>>> parse_layout("N C H W")
('N', 'C', 'H', 'W')
>>> parse_layout("N C C")
Traceback (most recent call last):
...
symnorm.errors.SpecError: layout 'N C C' contains duplicate axis 'C'
>>> parse_sizes("N=16 C=64", ("N", "C", "H"))
(('N', 16), ('C', 64), ('H', None))
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import SpecError

__all__ = ["MAX_AXES", "parse_axes", "parse_layout", "parse_sizes"]

#: More axes than this is surely a mistake (and keeps products of sizes small).
MAX_AXES = 12
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,31}\Z")
_SIZE = re.compile(r"([^=\s,]*)=([^\s,]*)\Z")


@functools.lru_cache(maxsize=256)
def _parse_text(text: str, what: str) -> tuple[str, ...]:
    tokens = text.replace(",", " ").split()
    if len(tokens) > MAX_AXES:
        raise SpecError(f"{what} {text!r} has {len(tokens)} axes (at most {MAX_AXES})")
    seen: set[str] = set()
    for tok in tokens:
        if not _NAME.match(tok):
            raise SpecError(f"{what} {text!r}: token {tok!r} is not an axis name "
                            "(expected a letter followed by letters, digits or _)")
        if tok in seen:
            raise SpecError(f"{what} {text!r} contains duplicate axis {tok!r}")
        seen.add(tok)
    return tuple(tokens)


def parse_axes(value: str | Iterable[str], what: str = "axes") -> tuple[str, ...]:
    """Read a space-separated string (or a sequence of names) as a tuple of distinct axes.

    >>> parse_axes(("H", "W"))
    ('H', 'W')
    """
    if isinstance(value, str):
        return _parse_text(value, what)
    try:
        items = tuple(value)
    except TypeError:
        raise SpecError(f"{what} must be a string such as 'C H W' (got {value!r})") from None
    if not all(isinstance(v, str) for v in items):
        raise SpecError(f"{what} must contain axis names (got {value!r})")
    return _parse_text(" ".join(items), what) if items else ()


def parse_layout(value: str | Iterable[str]) -> tuple[str, ...]:
    """Read a layout: at least one distinct axis name."""
    out = parse_axes(value, "layout")
    if not out:
        raise SpecError("layout is empty (expected axis names such as 'N C H W')")
    return out


def _size_value(axis: str, raw: Any) -> int | None:
    if raw is None:
        return None
    if isinstance(raw, str):
        if raw.strip() in ("", "?"):
            return None
        if not raw.strip().isdigit() or len(raw.strip()) > 9:
            raise SpecError(f"size of axis {axis!r} must be a positive integer (got {raw!r})")
        raw = int(raw)
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 1:
        raise SpecError(f"size of axis {axis!r} must be a positive integer (got {raw!r})")
    return raw


def parse_sizes(value: str | Mapping[str, Any] | Iterable[tuple[str, Any]] | None,
                layout: tuple[str, ...]) -> tuple[tuple[str, int | None], ...]:
    """Sizes for every axis of ``layout`` in layout order; axes not given are symbolic.

    Accepts ``"N=16 C=64"`` (also comma-separated), a mapping, or (axis, size) pairs.

    >>> parse_sizes({"C": 4}, ("N", "C"))
    (('N', None), ('C', 4))
    >>> parse_sizes("Q=3", ("N", "C"))
    Traceback (most recent call last):
    ...
    symnorm.errors.SpecError: sizes: axis 'Q' is not in the layout N C
    """
    given: dict[str, Any] = {}
    if value is None:
        pairs: Iterable[tuple[str, Any]] = ()
    elif isinstance(value, str):
        pairs = []
        for tok in value.replace(",", " ").split():
            m = _SIZE.match(tok)
            if not m:
                raise SpecError(f"sizes: token {tok!r} is not of the form AXIS=SIZE (e.g. C=64)")
            pairs.append((m.group(1), m.group(2)))
    elif isinstance(value, Mapping):
        pairs = value.items()
    else:
        pairs = value
    for axis, raw in pairs:
        if axis not in layout:
            raise SpecError(f"sizes: axis {axis!r} is not in the layout {' '.join(layout)}")
        if axis in given:
            raise SpecError(f"sizes: axis {axis!r} is given twice")
        given[axis] = _size_value(axis, raw)
    return tuple((ax, given.get(ax)) for ax in layout)
