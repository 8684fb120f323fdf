"""Claims checked from a notebook: the lines of one ``symnorm`` block, verdicts as a table."""

from __future__ import annotations

import html
from collections.abc import Iterable

from ..check.run import check_text
from ..check.verdict import PROVED, STATUSES, Verdict
from ..errors import SymnormError

__all__ = ["Claims", "ClaimsNotAsExpected", "prove"]

#: The file name that the verdicts of :func:`prove` carry.
SOURCE = "<notebook>"


class ClaimsNotAsExpected(SymnormError, AssertionError):
    """A claim checked by :func:`prove` did not get the expected status."""


class Claims:
    """The verdicts of one :func:`prove` call; shows as a table in a notebook."""

    def __init__(self, verdicts: list[Verdict]) -> None:
        self.verdicts = verdicts

    def __getitem__(self, label: str) -> Verdict:
        for v in self.verdicts:
            if v.label == label:
                return v
        raise KeyError(label)

    def __len__(self) -> int:
        return len(self.verdicts)

    def _rows(self) -> list[tuple[str, str, str, str, str]]:
        """label, statement, status, scope (or the first line of the message), settings."""
        return [(v.label, v.statement, v.status,
                 v.scope or (v.message.splitlines()[0] if v.message else ""),
                 "; ".join(v.assumptions)) for v in self.verdicts]

    def __repr__(self) -> str:
        rows = self._rows()
        width = max((len(r[0]) for r in rows), default=5)
        return "\n".join(f"{lab:<{width}}  {st:<10}  {sc}  |  {stmt}"
                         + (f"  |  assuming {asm}" if asm else "")
                         for lab, stmt, st, sc, asm in rows)

    def _repr_html_(self) -> str:
        e = html.escape
        left = ' style="text-align:left"'
        body = "".join(f"<tr><td{left}><code>{e(lab)}</code></td>"
                       f"<td{left}><code>{e(stmt)}</code></td>"
                       f"<td{left}><b>{e(st)}</b></td><td{left}>{e(sc)}</td>"
                       f"<td{left}>{e(asm)}</td></tr>"
                       for lab, stmt, st, sc, asm in self._rows())
        head = "".join(f"<th{left}>{h}</th>" for h in
                       ("claim", "statement", "status", "scope", "settings in force"))
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def prove(source: str, *, expect: str | Iterable[str] = PROVED, timeout: float = 60.0,
          dps: int = 50, sandbox: bool = True) -> Claims:
    """Check claim-language lines (the body of a ``symnorm`` block) and return their verdicts.

    Raises :class:`ClaimsNotAsExpected` unless every verdict's status is in ``expect``
    (``"proved"`` by default; pass ``"refuted"`` to show that a wrong claim is refuted).
    Verdicts and messages count lines in the block with its opening fence as line 1: when
    ``source`` starts with a newline (a triple-quoted string written as in the notebooks)
    the fence takes that empty line, so the numbers are the lines of ``source`` itself
    (``source.splitlines()[n - 1]`` is line n).  ``sandbox=True`` runs
    each claim in a killable worker with ``timeout`` seconds, as ``symnorm check`` does; the
    default is three times the command's 20 s, because a notebook on a shared machine should
    not fail for want of time on a claim that the command proves.
    """
    wanted = {expect} if isinstance(expect, str) else set(expect)
    unknown = wanted - set(STATUSES)
    if not wanted or unknown:
        raise ValueError(f"expect must be statuses among {STATUSES} (got {sorted(unknown)})")
    if "```" in source or "~~~" in source:
        raise SymnormError("prove() takes the lines of one symnorm block, without fences "
                           "(found ``` or ~~~)")
    # The fence takes the first line; a source that starts with a newline (a triple-quoted
    # block) gives it that empty line, so verdict lines are the lines of the string itself.
    text = "```symnorm" + ("" if source.startswith("\n") else "\n") + source + "\n```\n"
    result = check_text(text, SOURCE, timeout=timeout, dps=dps, sandbox=sandbox)
    verdicts = result.verdicts
    if not verdicts:
        raise ClaimsNotAsExpected("no claim was checked (write `claim LABEL: lhs == rhs`)")
    bad = [v for v in verdicts if v.status not in wanted]
    if bad:
        want = " or ".join(sorted(wanted))
        raise ClaimsNotAsExpected("; ".join(
            f"{v.label} (line {v.line}): {v.status}, expected {want}"
            + (f": {v.message}" if v.message else "") for v in bad))
    return Claims(verdicts)
