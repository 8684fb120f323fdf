"""One record per claim: the single source every printer, the CLI and the pytest plugin read.

>>> v = Verdict(file="d.md", line=3, label="radial", statement="J*c == eps/s**3*c",
...             status=PROVED, scope="every d >= 2")
>>> v.ok
True
>>> v.to_json()["status"]
'proved'
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = [
    "CLAIM_KEYS",
    "CONFIRMED",
    "DEFINED",
    "ERROR",
    "PROVED",
    "PROVED_FOR",
    "REFUTED",
    "STATUSES",
    "UNDECIDED",
    "DocumentResult",
    "Verdict",
    "check_payload",
    "claim_json",
    "exit_code",
    "summarize",
]

PROVED = "proved"
PROVED_FOR = "proved-for"
CONFIRMED = "confirmed"
#: A LaTeX equation read as a definition: shown so that no equation passes in silence, never
#: counted as proved (it was not checked; it introduces a name for later claims).
DEFINED = "defined"
REFUTED = "refuted"
UNDECIDED = "undecided"
ERROR = "error"
STATUSES = (PROVED, PROVED_FOR, CONFIRMED, DEFINED, REFUTED, UNDECIDED, ERROR)
_OK = (PROVED, PROVED_FOR, CONFIRMED, DEFINED)


@dataclass
class Verdict:
    """The outcome for one claim.

    ``evidence`` holds numeric rows (``{"d", "point", "dps", "lhs", "rhs", "digits"}``),
    ``counterexample`` exact values (strings) for every free symbol plus both sides
    evaluated, ``steps`` the derivation steps an engine took (plain text and LaTeX pairs)
    for reports.
    """

    file: str
    line: int
    label: str
    statement: str
    status: str
    scope: str = ""
    assumptions: list[str] = field(default_factory=list)
    engine: str = ""
    counterexample: dict[str, Any] | None = None
    evidence: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    message: str = ""
    column: int = 1
    origin: str = "text"
    source: str = ""
    latex: str = ""
    steps: list[dict[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown status {self.status!r}; expected one of {STATUSES}")

    @property
    def ok(self) -> bool:
        return self.status in _OK

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class DocumentResult:
    """All verdicts of one document, plus its parsed prose for reports."""

    path: str
    verdicts: list[Verdict]
    figures: list[Any] = field(default_factory=list)
    seconds: float = 0.0


def summarize(verdicts: list[Verdict]) -> dict[str, int]:
    """Count verdicts per status, every status present (zeros included)."""
    counts = {s: 0 for s in STATUSES}
    for v in verdicts:
        counts[v.status] += 1
    return counts


def exit_code(verdicts: list[Verdict]) -> int:
    """0 all proved/proved-for/confirmed (or defined); 1 any refuted; 2 any error or undecided."""
    statuses = {v.status for v in verdicts}
    if REFUTED in statuses:
        return 1
    if statuses & {ERROR, UNDECIDED}:
        return 2
    return 0


#: The contract keys of a claim, first and in this order, in ``symnorm check --json``.
CLAIM_KEYS = ("file", "line", "label", "statement", "status", "scope", "assumptions",
              "engine", "counterexample", "evidence", "seconds", "message")


def claim_json(v: Verdict) -> dict[str, Any]:
    """One verdict as ``symnorm check --json`` writes it (contract keys, then the rest)."""
    d = v.to_json()
    return {**{k: d[k] for k in CLAIM_KEYS}, **{k: d[k] for k in d if k not in CLAIM_KEYS}}


def check_payload(verdicts: list[Verdict]) -> dict[str, Any]:
    """The ``symnorm check --json`` object: the claims and the count per status."""
    return {"claims": [claim_json(v) for v in verdicts], "summary": summarize(verdicts)}
