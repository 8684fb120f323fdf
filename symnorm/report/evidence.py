"""Numeric evidence as a reader wants it: one row per distinct point, values as maths.

The checker records every sample it tried (``Verdict.evidence``); a claim that does not
depend on its free symbols is sampled many times at the same point.  :func:`evidence_rows`
keeps one row per distinct point and result, :func:`evidence_summary` says in one line what
the rows show, and :func:`value_tex` typesets a value (a number to six significant digits,
a vector, a matrix) from the checker's text without evaluating anything.

>>> rows = evidence_rows([{"d": 2, "point": {"d": "2", "eps": "1/100"}, "dps": 50,
...     "second_dps": 70, "lhs": "-0.99503719020998917", "rhs": "-0.99503719020998917",
...     "digits": 50.0, "result": "agree"}] * 3)
>>> len(rows), rows[0].samples
(1, 3)
>>> evidence_summary(rows)
'1 point at d = 2 agrees to 50 digits (each compared at 50 and 70 digits)'
>>> value_tex("-1.3758210268297397764e-135")
'-1.37582 \\\\times 10^{-135}'
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from typing import Any

from .texexpr import name_tex

__all__ = ["RESULT_WORDS", "EvidenceRow", "evidence_rows", "evidence_summary", "example_tex",
           "point_tex", "value_plain", "value_tex"]

#: The result column, as the reader sees it.
RESULT_WORDS = {"agree": "agrees", "differ": "differs", "unclear": "unclear",
                "singular": "skipped: singular"}
#: Significant digits shown in a table cell (the full value is on hover and in the JSON).
SHOWN_DIGITS = 6
#: Entries shown per row or column of a vector or matrix; the rest is elided.
MAX_ENTRIES = 6

_DECIMAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_RATIONAL = re.compile(r"([+-]?)(\d+)/(\d+)")
_REPR = re.compile(r"[\[\]',\s0-9eE.+\-/]*")


@dataclass(frozen=True)
class EvidenceRow:
    """One distinct sample point: its values, both sides, digits of agreement, result."""

    d: Any
    point: tuple[tuple[str, Any], ...]  # the point's values other than d, in order
    lhs: Any  # a number as text, or nested lists of them
    rhs: Any
    digits: float | None
    result: str
    samples: int = 1  # identical samples merged into this row
    precisions: tuple[int, ...] = ()  # the digits both sides were computed at
    reason: str = ""  # why a skipped point was skipped, as the checker said

    @property
    def shown_digits(self) -> str:
        """Digits of agreement, for an agreeing row only (``50``, ``48.5``); else ""."""
        if self.result != "agree" or not self.digits or self.digits <= 0:
            return ""
        return f"{round(self.digits, 1):g}"

    @property
    def word(self) -> str:
        if self.result == "singular" and "negative" in self.reason:
            return "skipped: not real"
        return RESULT_WORDS.get(self.result, self.result)


def parse_value(value: Any) -> Any:
    """The checker's value (``"[['1.0'], ['-1.0']]"`` or a list) as nested lists of text.

    The text form is read as JSON after a character whitelist, never evaluated.
    """
    if isinstance(value, (list, tuple)):
        return [parse_value(v) for v in value]
    text = "" if value is None else str(value).strip()
    if text.startswith("[") and _REPR.fullmatch(text):
        try:
            return parse_value(json.loads(text.replace("'", '"')))
        except ValueError:
            return text
    return text


def evidence_rows(evidence: list[dict[str, Any]]) -> list[EvidenceRow]:
    """One row per distinct (point, result), in the order the checker tried them."""
    seen: dict[str, int] = {}
    rows: list[EvidenceRow] = []
    for r in evidence:
        point = r.get("point")
        items = tuple((str(k), parse_value(v)) for k, v in point.items() if k != "d") \
            if isinstance(point, dict) else (("point", parse_value(point)),)
        key = json.dumps([r.get("d"), items, r.get("result")], default=str)
        if key in seen:
            k = seen[key]
            old = rows[k]
            rows[k] = replace(old, samples=old.samples + 1)
            continue
        seen[key] = len(rows)
        digits = r.get("digits")
        rows.append(EvidenceRow(r.get("d"), items, parse_value(r.get("lhs")),
                                parse_value(r.get("rhs")),
                                float(digits) if isinstance(digits, (int, float)) else None,
                                str(r.get("result") or "unclear"), 1,
                                tuple(p for p in (r.get("dps"), r.get("second_dps"))
                                      if isinstance(p, int)), str(r.get("reason") or "")))
    return rows


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _ranges(ds: list[int]) -> str:
    """``[2, 3, 4, 7]`` as ``2..4, 7``."""
    out: list[str] = []
    for d in sorted(set(ds)):
        if out and isinstance(d, int) and out[-1].split("..")[-1] == str(d - 1):
            out[-1] = out[-1].split("..")[0] + f"..{d}"
        else:
            out.append(str(d))
    return ", ".join(out)


def evidence_summary(rows: list[EvidenceRow]) -> str:
    """One line: how many points, at which d, agree to how many digits, what was skipped."""
    if not rows:
        return "no sample points"
    if all(r.result == "singular" for r in rows):
        return f"{_count(len(rows), 'point')} tried, all skipped: the claim is not defined there"
    parts = []
    agree = [r for r in rows if r.result == "agree"]
    if agree:
        at = f" at d = {_ranges([r.d for r in agree if isinstance(r.d, int)])}" \
            if any(isinstance(r.d, int) for r in agree) else ""
        digits = [r.digits for r in agree if r.digits]
        verb = "agrees" if len(agree) == 1 else "agree"
        how = f"{verb} to {round(min(digits), 1):g} digits" if len(digits) == len(agree) else \
            ("satisfies the relation" if len(agree) == 1 else "satisfy the relation")
        parts.append(f"{_count(len(agree), 'point')}{at} {how}")
    differ = sum(r.result == "differ" for r in rows)
    if differ:
        parts.append(f"{_count(differ, 'point')} {'differs' if differ == 1 else 'differ'}")
    unclear = sum(r.result == "unclear" for r in rows)
    if unclear:
        parts.append(f"{_count(unclear, 'point')} unclear (neither agreement nor a "
                     "difference stable across precisions)")
    singular = sum(r.result == "singular" for r in rows)
    if singular:
        parts.append(f"{_count(singular, 'point')} skipped where the claim is not defined "
                     "(singular or not real)")
    other = len(rows) - len(agree) - differ - unclear - singular
    if other:
        parts.append(f"{_count(other, 'other point')}")
    precisions = sorted({p for r in rows for p in r.precisions})
    tail = (f" (each compared at {' and '.join(map(str, precisions))} digits)"
            if 1 <= len(precisions) <= 3 else "")
    return "; ".join(parts) + tail


def _number_tex(text: str) -> str | None:
    """A number from the checker as LaTeX, to :data:`SHOWN_DIGITS` significant digits."""
    m = _RATIONAL.fullmatch(text)
    if m:
        return f"{'-' if m.group(1) == '-' else ''}\\frac{{{m.group(2)}}}{{{m.group(3)}}}"
    if not _DECIMAL.fullmatch(text):
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    if value == 0:
        return "0"
    if value == value.to_integral_value() and abs(value) < 10 ** SHOWN_DIGITS:
        return str(int(value))
    mantissa, _, exponent = format(value, f".{SHOWN_DIGITS}g").partition("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa} \\times 10^{{{int(exponent)}}}" if exponent else mantissa


def value_tex(value: Any, compact: bool = False) -> str | None:
    """A value as LaTeX, or None when it is not a number, vector or matrix.

    Column vectors read as a transposed row, ``(a, b)^\\top``; matrices as ``pmatrix``, or with
    ``compact`` (for Markdown tables, where ``&`` and ``\\\\`` are fragile) as a list of rows.
    """
    if isinstance(value, str) and value.strip().startswith("["):
        value = parse_value(value)
    if isinstance(value, str):
        return _number_tex(value.strip())
    if not isinstance(value, list) or not value:
        return None
    if all(isinstance(v, str) for v in value):  # a flat list: a vector
        return _row(value, transpose=True)
    if all(isinstance(v, list) and len(v) == 1 for v in value):  # a column
        return _row([v[0] for v in value], transpose=True)
    if len(value) == 1 and isinstance(value[0], list):  # a row
        return _row(value[0], transpose=False)
    if not all(isinstance(v, list) for v in value):
        return None
    rows = [_entries(r) for r in _elide(value, [r"\vdots"])]
    if any(r is None for r in rows):
        return None
    if compact:
        return r"\left(" + r",\ ".join(r"\left(" + ", ".join(r) + r"\right)"
                                      for r in rows) + r"\right)"  # type: ignore[arg-type]
    return r"\begin{pmatrix}" + r" \\ ".join(" & ".join(r) for r in rows) \
        + r"\end{pmatrix}"  # type: ignore[arg-type]


def _elide(items: list[Any], filler: Any) -> list[Any]:
    if len(items) <= MAX_ENTRIES:
        return list(items)
    return [*items[:MAX_ENTRIES - 2], filler, items[-1]]


def _entries(items: Any) -> list[str] | None:
    if items == [r"\vdots"]:
        return [r"\vdots"]
    if not isinstance(items, list):
        return None
    out = []
    for v in _elide(items, r"\cdots"):
        tex = v if v in (r"\cdots", r"\vdots") else \
            _number_tex(v.strip()) if isinstance(v, str) else None
        if tex is None:
            return None
        out.append(tex)
    return out


def _row(items: list[Any], transpose: bool) -> str | None:
    entries = _entries(list(items))
    if entries is None:
        return None
    body = r"\left(" + r",\ ".join(entries) + r"\right)"
    return body + (r"^\top" if transpose and len(entries) > 1 else "")


def value_plain(value: Any) -> str:
    """The full value as plain text (for a tooltip): every digit the checker printed."""
    if isinstance(value, list):
        if value and all(isinstance(v, list) and len(v) == 1 for v in value):
            value = [v[0] for v in value]  # a column reads as one tuple
        return "(" + ", ".join(value_plain(v) for v in value) + ")"
    return "" if value is None else str(value)


def example_tex(value: Any) -> str | None:
    """A counterexample or witness value (a number, a rational, a vector, a matrix) as
    LaTeX, or None for anything else (a sentence, a paste block)."""
    if isinstance(value, (bool, tuple)) or not isinstance(value, (str, list, int, float)) \
            and type(value).__name__ != "Fraction":
        return None
    if isinstance(value, list) and not all(isinstance(v, (str, list)) for v in value):
        return None  # vectors come as text entries; a list of ints is a list (precisions)
    parsed = parse_value(value if isinstance(value, (str, list)) else str(value))
    return value_tex(parsed)


def point_tex(point: tuple[tuple[str, Any], ...]) -> str | None:
    """``x = (1, 2)^T, eps = 1/10`` as LaTeX, or None when a value is not a number."""
    parts = []
    for name, value in point:
        tex = value_tex(value)
        if tex is None:
            return None
        parts.append(f"{name_tex(name)} = {tex}")
    return r",\ ".join(parts) if parts else None
