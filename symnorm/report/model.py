"""The one result model every report printer reads, built from a document and its verdicts.

The document's Markdown is parsed once (markdown-it-py with dollar math); its top-level
blocks become :class:`Prose` runs, ``symnorm`` fences become :class:`SourceBlock` items,
and each verdict and figure is placed right after the block holding its line.  Printers
never re-read the document or the checker: they walk ``ReportModel.items``.

>>> from symnorm.check.verdict import DocumentResult, Verdict
>>> src = "# T\\n\\nProse $x$.\\n\\n```symnorm\\nclaim a: x == x\\n```\\n"
>>> res = DocumentResult("d.md", [Verdict("d.md", 6, "a", "x == x", "proved")])
>>> [type(i).__name__ for i in build_model(src, res, date="2026-01-01").items]
['Prose', 'SourceBlock', 'ClaimCard']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from markdown_it.token import Token

from ..check.verdict import DocumentResult, Verdict, summarize
from ..lang.document import markdown_parser, source_lines
from ..safetext import reproduce_command, shell_quote
from .evidence import EvidenceRow, evidence_rows, evidence_summary
from .steps import GRAM_MARK, card_steps
from .texsafe import safe_math

__all__ = [
    "CLAIM_FENCES",
    "STATUS_INFO",
    "ClaimCard",
    "FigureBlock",
    "Heading",
    "Prose",
    "ReportModel",
    "SourceBlock",
    "StatusInfo",
    "build_model",
    "fmt_value",
    "markdown_parser",
    "reproduce_for",
    "statement_latex",
    "status_sentence",
]

#: Fenced-block info strings whose content is claim-language source.
CLAIM_FENCES = ("symnorm", "latex")


def claim_fence(info: str) -> str:
    """The claim-block kind of a fence info string (``symnorm``, ``latex LABEL``), or ""."""
    words = info.split()
    kind = words[0].lower() if words else ""
    if kind == "symnorm" or kind == "latex" and len(words) >= 2:
        return kind
    return ""


@dataclass(frozen=True)
class StatusInfo:
    """How a status reads without colour: a symbol, a word, a sentence; plus its colour."""

    symbol: str
    word: str
    meaning: str
    color: str


STATUS_INFO = {
    "proved": StatusInfo("\u2713", "PROVED", "proved for what its scope states (symbolically, "
                         "exactly or by the SMT solvers), not merely sampled", "#15803d"),
    "proved-for": StatusInfo("\u2713", "PROVED FOR", "proved exactly for the listed "
                             "dimensions only", "#0f766e"),
    "confirmed": StatusInfo("\u2248", "CONFIRMED", "confirmed numerically at high "
                            "precision, not proved", "#1d4ed8"),
    "defined": StatusInfo("=", "DEFINED", "a definition read from the equation: it names a "
                          "quantity and is not checked", "#475569"),
    "refuted": StatusInfo("\u2717", "REFUTED", "false: a counterexample is shown",
                          "#b91c1c"),
    "undecided": StatusInfo("?", "UNDECIDED", "neither proved nor refuted within the "
                            "limits", "#a16207"),
    "error": StatusInfo("!", "ERROR", "the claim could not be checked", "#6b21a8"),
}

#: How each engine reaches a verdict, as an adverbial phrase of the status sentence.
ENGINE_HOW = {
    "any-d": "symbolically by the any-d engine",
    "explicit": "exactly in coordinates by the explicit engine",
    "exact": "by exact evaluation",
    "numeric witness": "by an exhibited witness, an exact point where the two sides differ",
    "numeric": "numerically",
    "smt": "by the SMT step (z3, confirmed by cvc5)",
    "smt-point": "by the SMT step (z3), re-verified in exact arithmetic",
}

#: What a claim card says about how the verdict was reached when the engine records no
#: derivation steps of its own (one sentence, no expression).
ENGINE_STEP = {
    "explicit": "The claim was written out in coordinates at each dimension in scope, with "
                "symbolic entries, and both sides were simplified exactly to the same value.",
    "exact": "Both sides hold no free symbol once the hypotheses are substituted; they were "
             "evaluated in exact arithmetic and the relation decided on the exact values.",
    "numeric witness": "A sample point where the two sides differ was found numerically and "
                       "re-verified in exact arithmetic; it is shown below.",
    "smt": "The claim and its hypotheses were written as a formula of real arithmetic "
           "(square roots and divisions as new variables with their defining equations); z3 "
           "found that its negation has no solution and cvc5 confirmed it independently.",
    "smt-point": "The claim was written as a formula of real arithmetic; z3 found a point, "
                 "which was rebuilt as exact values and re-verified on the claim as written; "
                 "it is shown below.",
    "numeric": "No engine proved or refuted the claim; it was only evaluated at the sample "
               "points below, at two precisions.",
}


def engine_key(engine: str) -> str:
    """The key of :data:`ENGINE_HOW` for a verdict's engine string."""
    if engine.startswith("smt"):
        return "smt-point" if "re-verification" in engine else "smt"
    return engine


def _scope_phrase(scope: str) -> str:
    """The scope as the end of the status sentence, word for word."""
    if not scope:
        return ""
    if scope.startswith("exact evaluation"):
        return "(" + scope + ")"
    if scope.startswith(("witness", "counterexample")):
        return "with a " + scope
    return "for " + scope


def status_sentence(v: Verdict) -> str:
    """What was established, in the words of the verdict's status, engine and scope."""
    how = ENGINE_HOW.get(engine_key(v.engine), "")
    where = _scope_phrase(v.scope)
    if v.status in ("proved", "proved-for"):
        if v.engine == "numeric witness":
            at = v.scope.removeprefix("witness").strip()
            return f"proved {how}" + (f" ({at})" if at else "") + \
                ", re-verified in exact arithmetic"
        return " ".join(x for x in ("proved", how, where) if x)
    if v.status == "refuted":
        if v.engine == "any-d" or v.counterexample.get("proof", "").startswith("the two "):
            return " ".join(x for x in ("false", how, where) if x) + \
                ": the two sides are identical, so no witness can exist"
        return " ".join(x for x in ("false", how, where) if x) + \
            (": a counterexample is shown" if v.counterexample else "")
    if v.status == "confirmed":
        return f"confirmed numerically, not proved ({v.scope})" if v.scope else \
            STATUS_INFO["confirmed"].meaning
    return STATUS_INFO[v.status].meaning


@dataclass(frozen=True)
class Heading:
    """A heading the report itself adds (e.g. for claims outside any block)."""

    text: str


@dataclass(frozen=True)
class Prose:
    """A run of Markdown blocks: their source text and their markdown-it tokens."""

    source: str
    tokens: tuple[Token, ...]
    line: int


@dataclass(frozen=True)
class SourceBlock:
    """A fenced claim-language block, shown as code beside its claims."""

    text: str
    info: str
    line: int


@dataclass(frozen=True)
class ClaimCard:
    """One verdict, numbered, with its statement and steps as checked-safe LaTeX.

    ``steps`` are (sentence, LaTeX or None) pairs, each printed once; ``legend`` marks the
    first card whose steps use the Gram notation, where the printers explain it; ``rows``
    is the evidence with one row per distinct point; ``command`` re-checks the claim from
    the folder the report is written in.
    """

    number: int
    verdict: Verdict
    latex: str | None
    steps: tuple[tuple[str, str | None], ...]
    text: str = ""  # the statement as plain text (or its source line when it did not parse)
    command: str = ""
    legend: bool = False
    rows: tuple[EvidenceRow, ...] = ()

    @property
    def info(self) -> StatusInfo:
        return replace(STATUS_INFO[self.verdict.status], meaning=status_sentence(self.verdict))

    @property
    def kind(self) -> str:
        """``Definition`` for a LaTeX equation read as a definition, else ``Claim``."""
        return "Definition" if self.verdict.status == "defined" else "Claim"

    @property
    def example_title(self) -> str:
        """What ``counterexample`` holds: a counterexample if refuted, else a witness."""
        return "Counterexample" if self.verdict.status == "refuted" else "Witness"

    @property
    def reproduce(self) -> str:
        """The command that re-checks this claim alone (shell-quoted)."""
        return self.command or reproduce_command(self.verdict.file, self.verdict.label)

    @property
    def evidence_summary(self) -> str:
        """One line: what the evidence rows show."""
        return evidence_summary(list(self.rows))


@dataclass(frozen=True)
class FigureBlock:
    """A computed figure: its data, files relative to the report, and the SVG text."""

    number: int
    name: str
    title: str
    caption: str
    files: dict[str, str]
    svg: str
    line: int


@dataclass
class ReportModel:
    """Everything a printer needs, in document order."""

    title: str
    source_path: str
    items: list[Any]
    verdicts: list[Verdict]
    summary: dict[str, int]
    versions: dict[str, str]
    date: str
    seconds: float = 0.0
    env: dict[str, Any] = field(default_factory=dict)
    figures: list[FigureBlock] = field(default_factory=list)


def fmt_value(value: Any) -> str:
    """Format evidence values the same way in every printer."""
    if isinstance(value, dict):
        return ", ".join(f"{k} = {fmt_value(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return "(" + ", ".join(fmt_value(v) for v in value) + ")"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, Fraction):
        return str(value)
    return "" if value is None else str(value)


def statement_latex(v: Verdict) -> str | None:
    """Safe LaTeX for the statement: the verdict's own, the author's, or from the parse tree."""
    if v.latex and safe_math(v.latex):
        return safe_math(v.latex)
    if v.origin == "latex" and v.source and safe_math(v.source):
        return safe_math(v.source)  # the equation as the author typeset it
    try:  # parse "relation given hyp, ..." with the claim language's own parser
        from ..lang.parser import parse_statement
        from .texexpr import TexExpr
        claim = parse_statement(f"claim r: {v.statement}")
        tex = TexExpr()
        out = tex.print(claim.relation)
        if claim.given:
            out += r"\quad\text{given } " + ", ".join(tex.print(g) for g in claim.given)
        return safe_math(out)
    except Exception:  # noqa: BLE001 - no parser or no parse: the printers show code
        return None


def _blocks(tokens: list[Token]) -> list[tuple[int, int]]:
    """Index ranges [start, end) of the top-level blocks."""
    out, i = [], 0
    while i < len(tokens):
        start, depth = i, 0
        while True:
            depth += tokens[i].nesting
            i += 1
            if depth <= 0:
                break
        out.append((start, i))
    return out


def reproduce_for(path: str | None, paper: bool = False) -> Callable[[Verdict], str]:
    """The command that re-checks one claim: ``--paper`` for the built-in paper, else
    ``path`` (as it works from the report's folder), shell-quoted."""
    def command(v: Verdict) -> str:
        if paper:
            return f"symnorm check --paper --only {shell_quote(v.label)}"
        return reproduce_command(path if path is not None else v.file, v.label)
    return command


def build_model(source: str, result: DocumentResult, *, figures: Sequence[FigureBlock] = (),
                versions: dict[str, str] | None = None, date: str = "",
                source_path: str = "", reproduce: Callable[[Verdict], str] | None = None
                ) -> ReportModel:
    """Interleave prose, claim blocks, claim cards and figures in document order."""
    command = reproduce or reproduce_for(None)
    explained = False  # the Gram notation is explained on its first use
    md = markdown_parser()
    env: dict[str, Any] = {}
    tokens = md.parse(source, env)
    parts = source_lines(source)  # lines as markdown-it counts them (not str.splitlines)
    lines = [line + "\n" for line in parts[:-1]] + [parts[-1]]
    pending = sorted(result.verdicts, key=lambda v: (v.line, v.column))
    figs = sorted(figures, key=lambda f: f.line)
    items: list[Any] = []
    run: list[tuple[int, int, int, int]] = []  # (first line, end line, first token, end)
    number = 0

    def flush() -> None:
        if run:
            a, b = run[0][0], run[-1][1]
            items.append(Prose("".join(lines[a:b]), tuple(tokens[run[0][2]:run[-1][3]]),
                               a + 1))
            run.clear()

    def take(lo: int, hi: int) -> None:  # place verdicts and figures on lines lo..hi
        nonlocal number, pending, figs, explained
        for v in [v for v in pending if lo <= v.line <= hi]:
            number += 1
            steps = card_steps(v)
            legend = not explained and any(GRAM_MARK in (t or "") for _, t in steps)
            explained = explained or legend
            text = v.statement or v.source or (
                lines[v.line - 1].strip() if 0 < v.line <= len(lines) else "")
            items.append(ClaimCard(number, v, statement_latex(v), steps, text,
                                   command(v), legend, tuple(evidence_rows(v.evidence))))
        items.extend(f for f in figs if lo <= f.line <= hi)
        pending = [v for v in pending if not lo <= v.line <= hi]
        figs = [f for f in figs if not lo <= f.line <= hi]

    for start, end in _blocks(tokens):
        tok = tokens[start]
        a, b = tok.map if tok.map else (0, 0)
        lang = claim_fence(tok.info) if tok.type == "fence" else ""
        owns = any(a < v.line <= b for v in pending) or any(a < f.line <= b for f in figs)
        if lang or owns:
            if lang:
                flush()
                items.append(SourceBlock(tok.content, tok.info.strip(), a + 1))
            else:
                run.append((a, b, start, end))
                flush()
            take(a + 1, b)
        else:
            run.append((a, b, start, end))
    flush()
    if pending or figs:
        items.append(Heading("Further claims and figures"))
        take(0, 10**12)
    verdicts = [i.verdict for i in items if isinstance(i, ClaimCard)]
    return ReportModel(
        title=_title(tokens) or Path(source_path or result.path).stem,
        source_path=source_path or result.path, items=items, verdicts=verdicts,
        summary=summarize(verdicts), versions=dict(versions or {}), date=date,
        seconds=result.seconds, env=env, figures=list(figures))


def _title(tokens: list[Token]) -> str:
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and tok.tag == "h1" and i + 1 < len(tokens):
            return tokens[i + 1].content.strip()
    return ""
