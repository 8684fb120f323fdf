"""Typed options of ``figure NAME key=value ...`` statements, parsed without eval.

Numbers are exact rationals (``0.01`` is ``Fraction(1, 100)``), lists are comma
separated, and every value is bounded so a document cannot ask for a billion points.

>>> parse_rational("1/100"), parse_rational("1e-3")
(Fraction(1, 100), Fraction(1, 1000))
>>> Option("rationals", (1,)).parse("1/10,1/100", "eps")
(Fraction(1, 10), Fraction(1, 100))
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..errors import SourceError

__all__ = ["Option", "parse_options", "parse_rational"]

_DECIMAL = re.compile(r"[+-]?([0-9]{1,30}(\.[0-9]{0,30})?|\.[0-9]{1,30})([eE][+-]?[0-9]{1,3})?")
_RATIO = re.compile(r"[+-]?[0-9]{1,30}/[0-9]{1,30}")
_MAX_LIST = 16


def parse_rational(text: str) -> Fraction:
    """Parse ``3``, ``-0.25``, ``1e-3`` or ``1/10`` exactly; raise ValueError otherwise."""
    t = text.strip()
    if _RATIO.fullmatch(t):
        num, den = t.split("/")
        if int(den) == 0:
            raise ValueError(f"zero denominator in {text!r}")
        return Fraction(int(num), int(den))
    if _DECIMAL.fullmatch(t):
        return Fraction(t)
    raise ValueError(f"not a number: {text!r} (write e.g. 3, 0.01, 1e-3 or 1/10)")


@dataclass(frozen=True)
class Option:
    """One option: ``kind`` is rational, rationals, int, ints or choice."""

    kind: str
    default: Any
    lo: Fraction | None = None
    hi: Fraction | None = None
    choices: tuple[str, ...] = ()
    doc: str = ""

    def parse(self, raw: str, key: str) -> Any:
        """Turn the raw text into a value of this option's kind, checking its range."""
        if self.kind == "choice":
            if raw not in self.choices:
                raise ValueError(f"{key}={raw!r}: expected one of {', '.join(self.choices)}")
            return raw
        parts = [p for p in raw.split(",") if p.strip()]
        if not parts:
            raise ValueError(f"{key}= needs a value")
        if self.kind in ("rational", "int") and len(parts) != 1:
            raise ValueError(f"{key} takes one value (got {raw!r})")
        if len(parts) > _MAX_LIST:
            raise ValueError(f"{key} takes at most {_MAX_LIST} values (got {len(parts)})")
        values = tuple(self._one(p, key) for p in parts)
        return values if self.kind in ("rationals", "ints") else values[0]

    def _one(self, text: str, key: str) -> Any:
        value = parse_rational(text)
        if self.kind in ("int", "ints"):
            if value.denominator != 1:
                raise ValueError(f"{key} must be an integer (got {text.strip()!r})")
            value = int(value)
        if self.lo is not None and value < self.lo or self.hi is not None and value > self.hi:
            raise ValueError(f"{key} must lie in [{self.lo}, {self.hi}] (got {text.strip()})")
        return value


def parse_options(name: str, raw: tuple[tuple[str, str], ...] | dict[str, str],
                  schema: dict[str, Option], file: str = "<figure>",
                  line: int = 1) -> dict[str, Any]:
    """Validate ``raw`` against ``schema``; defaults fill what the document left out."""
    items = raw.items() if isinstance(raw, dict) else raw
    values = {key: opt.default for key, opt in schema.items()}
    seen: set[str] = set()
    for key, text in items:
        if key not in schema:
            accepted = ", ".join(sorted(schema)) or "none"
            raise SourceError(f"figure {name}: unknown option {key!r}", file, line,
                              hint=f"accepted: {accepted}")
        if key in seen:
            raise SourceError(f"figure {name}: option {key!r} given twice", file, line)
        seen.add(key)
        try:
            values[key] = schema[key].parse(str(text), key)
        except ValueError as exc:
            raise SourceError(f"figure {name}: {exc}", file, line) from None
    return values
