"""Checking documents: parse in the parent, decide each claim in a killable worker.

Every claim runs in a worker process (pebble) under a wall-clock limit and an address-space
limit, so an adversarial claim ends as ``undecided`` and the rest of the document is still
checked.  Workers die with the process that started them (``PR_SET_PDEATHSIG`` on Linux),
so killing ``symnorm`` leaves no worker running.  Workers are forked from the parent, which has SymPy imported already, so the
sandbox costs little (see ``benchmarks/bench_sandbox.py``).

>>> r = check_text("```symnorm\\nuse layernorm\\nclaim z: J*ones == 0\\n```\\n", sandbox=False)
>>> [(v.label, v.status) for v in r.verdicts]
[('z', 'proved')]
"""

from __future__ import annotations

import os
import re
import resource
import sys
import time
from dataclasses import replace
from collections.abc import Callable, Iterable
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import Any

from ..engines.child import die_with_parent
from ..errors import InternalError, LimitError, SourceError, SymnormError
from ..lang.context import PreparedClaim
from ..lang.document import Definition, Document, parse_text, read_document, source_lines
from ..safetext import LABEL_CHARS, MAX_LABEL
from .limits import DEFAULT_TIMEOUT, MAX_DPS, MAX_TIMEOUT, MIN_DPS, wall_guard
from .verdict import (
    DEFINED,
    ERROR,
    PROVED,
    PROVED_FOR,
    REFUTED,
    UNDECIDED,
    DocumentResult,
    Verdict,
)
from .walk import SKIPPED_WORDS, collect_paths, find_documents

__all__ = [
    "DEFAULT_TIMEOUT",
    "MAX_DPS",
    "MEMORY_LIMIT",
    "MIN_DPS",
    "check_document",
    "check_paths",
    "check_text",
    "collect_paths",
    "find_documents",
    "labels_like",
    "planned_labels",
    "unknown_label",
]

MEMORY_LIMIT = 3 * 1024 ** 3  # bytes of address space per worker
#: Figures drawn per document; further figure statements are errors.
MAX_FIGURES = 12

Progress = Callable[[Verdict], None]


def _limit_memory(limit: int, parent: int | None = None) -> None:
    if parent is not None:
        die_with_parent(parent)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ValueError, OSError):  # pragma: no cover - platform without RLIMIT_AS
        pass
    sys.setrecursionlimit(20_000)


def _work(claim: PreparedClaim, dps: int, timeout: float) -> Verdict:
    if claim.alternative is not None:
        return _both_readings(claim, dps, timeout)
    v = _decided(claim, dps, timeout)
    v.notes += claim.notes
    if not claim.needs_proof:
        return v
    if not claim.other_reading:  # the claim reaches no parameter it drops: one reading
        return v
    if v.status in (PROVED, PROVED_FOR):
        v.notes.append("proved with the layer's gain and bias, for all their values, so it "
                       "holds without them too (the equation writes them not, and the use "
                       "line does not say which layer it is)")
        return v
    # two readings (a LaTeX equation that drops the gain and bias): one verdict only if
    # the other reading, the parameters dropped at 1 and 0, gives it too
    other = replace(claim, given=claim.given + claim.other_reading, needs_proof="",
                    other_reading=())
    w = _decided(other, dps, timeout) if v.status == REFUTED and claim.other_reading else None
    if w is not None and w.status == REFUTED:
        v.notes.append("refuted with the layer's gain and bias, and without them (the "
                       "equation writes them not): false for either layer")
        return v
    seen = f"{v.status}{': ' + v.scope if v.scope else ''}"
    if w is not None:
        seen += f"; without them {w.status}{': ' + w.scope if w.scope else ''}"
    out = _verdict(claim, ERROR, f"{claim.file}:{claim.pos.line}:{claim.pos.col}: "
                   f"{claim.needs_proof} (read with them it is {seen})")
    out.seconds = v.seconds + (w.seconds if w is not None else 0.0)
    return out


def _both_readings(claim: PreparedClaim, dps: int, timeout: float) -> Verdict:
    """A claim whose equation has two readings that differ in more than hypotheses (the same
    index on both sides of a partial, docs/latex.md): each reading is decided, and only a
    verdict both give stands; otherwise an error naming both readings and their verdicts."""
    other = claim.alternative
    assert other is not None
    what, this, that, hint = claim.readings
    v = _work(replace(claim, alternative=None), dps, timeout)
    w = _work(other, dps, timeout)
    seconds = v.seconds + w.seconds
    proved = (PROVED, PROVED_FOR)
    if v.status in proved and w.status in proved:
        out = w if w.status == PROVED_FOR else v  # the narrower scope of the two
        out.notes.append(f"{what}: proved in both, as {this} and as {that}: the equation "
                         f"holds whichever is meant (the other reading: {other.statement})")
    elif v.status == REFUTED and w.status == REFUTED:
        out = v
        out.notes.append(f"{what}: refuted in both, as {this} (the counterexample) and as "
                         f"{that} (read as {other.statement}): false whichever is meant")
    else:
        def said(x: Verdict) -> str:
            return f"{x.status}{' (' + x.scope + ')' if x.scope else ''}"
        out = _verdict(claim, ERROR, f"{claim.file}:{claim.pos.line}:{claim.pos.col}: "
                       f"{what}, and they disagree: read as {this} it is {said(v)}; read as "
                       f"{that} it is {said(w)} ({hint})")
        out.notes += [f"read as {this}: {claim.statement}",
                      f"read as {that}: {other.statement}"]
    out.seconds = seconds
    return out


def _decided(claim: PreparedClaim, dps: int, timeout: float) -> Verdict:
    from .decide import decide
    try:
        return decide(claim, dps=dps, budget=timeout)
    except InternalError as exc:
        return _verdict(claim, ERROR, f"INTERNAL ERROR (a bug in symnorm, please report): {exc}",
                        engine="cross-check")
    except (RecursionError, MemoryError):
        return _verdict(claim, UNDECIDED, "the claim exceeded the recursion or memory limit")
    except (SymnormError, OverflowError, ZeroDivisionError) as exc:
        return _verdict(claim, UNDECIDED, f"{type(exc).__name__}: {exc}")
    except Exception as exc:  # noqa: BLE001 - an engine failure is "cannot decide", loudly
        return _verdict(claim, UNDECIDED, f"engine failure: {type(exc).__name__}: {exc}")


class _CpuBudgetSpent(BaseException):
    """The worker's CPU budget ran out (raised from SIGPROF).  Not an ``Exception``, so that
    no engine's broad ``except Exception`` can take it for a failed sample point."""


def _stop(signum: int, frame: object) -> None:
    raise _CpuBudgetSpent


def _work_bounded(claim: PreparedClaim, dps: int, timeout: float) -> Verdict:
    """:func:`_work` in a pool worker, stopped after ``timeout`` seconds of this process's CPU
    time (``ITIMER_PROF``), so that a long single step (a SymPy simplification) cannot outlast
    the budget that the engines only check between steps.  CPU time, not wall time: a
    competing process does not change the verdict.  Forked children do not inherit the timer;
    each has its own CPU limit (``symnorm/engines/child.py``)."""
    import signal
    import threading
    if threading.current_thread() is not threading.main_thread():  # pragma: no cover
        return _work(claim, dps, timeout)
    old = signal.signal(signal.SIGPROF, _stop)
    try:
        try:
            signal.setitimer(signal.ITIMER_PROF, timeout)
            return _work(claim, dps, timeout)
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
    except _CpuBudgetSpent:
        return _verdict(claim, UNDECIDED, f"time limit of {timeout:g} s exceeded (CPU time)")
    finally:
        signal.signal(signal.SIGPROF, old)


def _verdict(claim: PreparedClaim, status: str, message: str, engine: str = "") -> Verdict:
    return Verdict(file=claim.file, line=claim.pos.line, column=claim.pos.col,
                   label=claim.label, statement=claim.statement, status=status,
                   message=message, engine=engine, origin=claim.origin, source=claim.source,
                   assumptions=list(claim.assumption_text))


_CLAIM_LABEL = re.compile(rf"\s*claim\s+({LABEL_CHARS})\s*:|\s*latex\s+({LABEL_CHARS})\s*:"
                          r"|\s*(figure\s+[A-Za-z_][A-Za-z0-9_]*)")


def _error_verdict(doc: Document | None, exc: SourceError) -> Verdict:
    label = f"line {exc.line}"
    if doc is not None:
        lines = source_lines(doc.source)
        if 0 < exc.line <= len(lines):
            m = _CLAIM_LABEL.match(lines[exc.line - 1])
            if m and len(m.group(m.lastindex or 0)) <= MAX_LABEL:  # a long one is the error
                label = m.group(1) or m.group(2) or re.sub(r"\s+", " ", m.group(3))
    return Verdict(file=exc.file, line=exc.line, column=exc.column, label=label,
                   statement="", status=ERROR, message=str(exc))


def _defined_verdict(path: str, d: Definition) -> Verdict:
    """A LaTeX equation read as a definition: visible, counted apart, never checked."""
    if d.vocabulary:  # the equation used the name; the vocabulary gave its meaning
        message = (f"the vocabulary's meaning of {d.name} ({d.vocabulary}), used by the "
                   f"equation on line {d.line}; the equation does not define {d.name} and "
                   "nothing is claimed about it")
    elif d.own:  # sigma with eps on a row of its own: the source's sigma from here on
        message = (f"the source's own {d.name} (line {d.line}), with eps, which the "
                   f"vocabulary's {d.name} ({d.own}) does not hold: the rest of the document "
                   f"reads {d.name} as this definition; the equation's claim checks that it is "
                   "the layer's denominator")
    else:
        message = (f"defines {d.name} (line {d.line}); not checked. To check this equation "
                   f"instead, define {d.name} before it (docs/latex.md)")
    return Verdict(file=path, line=d.line, column=d.column, label=f"{d.label}.{d.name}",
                   statement=d.text, status=DEFINED, origin="latex", source=d.source,
                   message=message)


def _check_args(timeout: float, dps: int) -> None:
    if not (isinstance(dps, int) and MIN_DPS <= dps <= MAX_DPS):
        raise LimitError(f"dps must be an integer between {MIN_DPS} and {MAX_DPS} (got {dps})")
    if not 0 < timeout <= MAX_TIMEOUT:
        raise LimitError(f"timeout must be more than 0 and at most {MAX_TIMEOUT:.0f} seconds "
                         f"(got {timeout:g})")


def _work_list(doc: Document, only: str | None
               ) -> tuple[list[PreparedClaim], list[Verdict], list[Verdict], list[Any]]:
    """What checking ``doc`` produces, in the order progress is reported: the claims to
    decide, then the error and definition rows (all filtered by ``only``), and the figures."""
    claims = [c for c in doc.scope.claims if only is None or c.label == only]
    errors = [_error_verdict(doc, e) for e in doc.errors]
    defined = [_defined_verdict(doc.path, d) for d in doc.definitions]
    figures = list(doc.scope.figures)
    errors += [Verdict(file=doc.path, line=f.pos.line, column=f.pos.col,
                       label=f"figure {f.name}", statement="", status=ERROR,
                       message=f"{doc.path}:{f.pos.line}: more than {MAX_FIGURES} figures "
                       "in one document; this one is not drawn")
               for f in figures[MAX_FIGURES:]]
    if only is not None:
        errors = [e for e in errors if e.label == only]
        defined = [v for v in defined if v.label == only]
    return claims, errors, defined, figures


def planned_labels(doc: Document, only: str | None = None) -> list[str]:
    """The labels checking ``doc`` reports, in the order a progress callback sees them."""
    claims, errors, defined, _ = _work_list(doc, only)
    return [c.label for c in claims] + [v.label for v in errors + defined]


def _plan(progress: Progress | None, labels: list[str]) -> None:
    """Tell a progress display that has a ``plan`` method which labels are coming."""
    plan = getattr(progress, "plan", None)
    if plan is not None:
        plan(labels)


def check_parsed(doc: Document, *, timeout: float = DEFAULT_TIMEOUT, dps: int = 50,
                 only: str | None = None, sandbox: bool = True,
                 progress: Progress | None = None) -> DocumentResult:
    """Decide every claim of a parsed document (or only the one labelled ``only``)."""
    return _start(doc, timeout=timeout, dps=dps, only=only, sandbox=sandbox,
                  progress=progress, plan=True)()


def _start(doc: Document, *, timeout: float, dps: int, only: str | None, sandbox: bool,
           progress: Progress | None, pool=None, plan: bool = False
           ) -> Callable[[], DocumentResult]:
    """Schedule a document's claims (on ``pool`` when given, so that several documents
    share the workers) and return the function that collects its result; with ``plan``,
    first tell ``progress`` which labels are coming."""
    _check_args(timeout, dps)
    t0 = time.monotonic()
    claims, errors, defined, figures = _work_list(doc, only)
    if plan:
        _plan(progress, [c.label for c in claims] + [v.label for v in errors + defined])
    futures = None
    if sandbox and claims and pool is not None:
        futures = _schedule(pool, claims, dps, timeout)

    def collect() -> DocumentResult:
        results: dict[int, Verdict] = {}
        if futures is not None:
            results = _collect(claims, futures, timeout, progress)
        elif sandbox and claims:
            results = _run_pool(claims, dps, timeout, progress)
        else:
            for i, c in enumerate(claims):
                results[i] = _work(c, dps, timeout)
                if progress:
                    progress(results[i])
        for e in errors + defined:
            if progress:
                progress(e)
        verdicts = [results[i] for i in range(len(claims))] + errors + defined
        verdicts.sort(key=lambda v: (v.line, v.column, v.label))
        return DocumentResult(doc.path, verdicts, figures[:MAX_FIGURES],
                              round(time.monotonic() - t0, 3))
    return collect


def _schedule(pool, claims: list[PreparedClaim], dps: int, timeout: float) -> list:
    return [pool.schedule(_work_bounded, args=(c, dps, timeout), timeout=wall_guard(timeout)) for c in claims]


def _run_pool(claims: list[PreparedClaim], dps: int, timeout: float,
              progress: Progress | None) -> dict[int, Verdict]:
    workers = max(1, min(2, len(claims)))
    with sandbox_pool(workers) as pool:
        return _collect(claims, _schedule(pool, claims, dps, timeout), timeout, progress)


def _collect(claims: list[PreparedClaim], futures: list, timeout: float,
             progress: Progress | None) -> dict[int, Verdict]:
    from pebble import ProcessExpired
    results: dict[int, Verdict] = {}
    for i, (c, fut) in enumerate(zip(claims, futures)):
        try:
            v = fut.result()
        except FutureTimeout:
            v = _verdict(c, UNDECIDED, f"time limit of {timeout:g} s exceeded (stopped by the "
                         f"wall-clock guard at {wall_guard(timeout):g} s)")
            v.seconds = wall_guard(timeout)
        except ProcessExpired as exc:
            v = _verdict(c, UNDECIDED, f"the worker was stopped ({_expired(exc)}); "
                         "the claim exceeded the memory limit or crashed it")
        except (MemoryError, RecursionError):
            v = _verdict(c, UNDECIDED, "the claim exceeded the recursion or memory limit")
        except Exception as exc:  # noqa: BLE001 - a worker failure must not stop the run
            v = _verdict(c, ERROR, f"INTERNAL ERROR (a bug in symnorm, please report): "
                         f"{type(exc).__name__}: {exc}")
        results[i] = v
        if progress:
            progress(v)
    return results


def sandbox_pool(workers: int):
    """A pebble pool whose workers have the memory limit and die with this process."""
    from pebble import ProcessPool
    return ProcessPool(max_workers=workers, initializer=_limit_memory,
                       initargs=(MEMORY_LIMIT, os.getpid()))


def _expired(exc: Exception) -> str:
    code = getattr(exc, "exitcode", None)
    return f"exit code {code}" if code is not None else str(exc)


def _read(path: str | Path) -> Document | DocumentResult:
    """A parsed document, or the one-row result that says why it cannot be read."""
    try:
        return read_document(path)
    except SourceError as exc:
        return DocumentResult(str(path), [_error_verdict(None, exc)])
    except LimitError as exc:
        return DocumentResult(str(path), [Verdict(file=str(path), line=1, label="document",
                                                  statement="", status=ERROR,
                                                  message=str(exc))])


def check_document(path: str | Path, *, timeout: float = DEFAULT_TIMEOUT, dps: int = 50,
                   only: str | None = None, sandbox: bool = True,
                   progress: Progress | None = None) -> DocumentResult:
    """Check one derivation document from disk."""
    doc = _read(path)
    if isinstance(doc, DocumentResult):
        return doc
    return check_parsed(doc, timeout=timeout, dps=dps, only=only, sandbox=sandbox,
                        progress=progress)


def check_text(text: str, file: str = "<text>", **kwargs) -> DocumentResult:
    """Check document text (Markdown with ``symnorm`` blocks)."""
    try:
        doc = parse_text(text, file)
    except LimitError as exc:
        return DocumentResult(file, [Verdict(file=file, line=1, label="document", statement="",
                                             status=ERROR, message=str(exc))])
    return check_parsed(doc, **kwargs)


def labels_like(text: str, labels: Iterable[str]) -> list[str]:
    """The labels that start with ``text`` (or, failing that, look like it), for a message.

    >>> labels_like("eq3", ["eq3.1", "eq1", "eq3.2"])
    ['eq3.1', 'eq3.2']
    """
    labels = sorted(set(labels))
    starting = [x for x in labels if x.startswith(text)] or \
        [x for x in labels if x.lower().startswith(text.lower())]
    if starting:
        return starting
    import difflib
    return difflib.get_close_matches(text, labels, n=5, cutoff=0.6)


def unknown_label(only: str, labels: Iterable[str], where: str = "") -> str:
    """The message for an ``--only`` label that is not there, with the nearest labels.

    >>> unknown_label("eq3", ["eq3.1", "eq3.2", "eq1"])
    "no claim labelled 'eq3'; labels starting with it: eq3.1, eq3.2"
    """
    like = labels_like(only, labels)
    hint = (f"; labels starting with it: {', '.join(like)}" if like and like[0].startswith(only)
            else f"; did you mean {', '.join(like)}?" if like else "")
    return f"no claim labelled {only!r}{where}{hint}"


def _no_blocks(path: Path) -> DocumentResult:
    return DocumentResult(str(path), [Verdict(
        file=str(path), line=1, label="document", statement="", status=ERROR,
        message=f"{path}: no ```symnorm block (nor ```latex LABEL block), so nothing to "
                "check; a derivation document is Markdown with such fenced blocks "
                "(docs/claims.md)")])


def check_paths(paths: Iterable[str | Path], *, only: str | None = None,
                progress: Progress | None = None,
                skipped: list[tuple[Path, str]] | None = None,
                timeout: float = DEFAULT_TIMEOUT, dps: int = 50,
                sandbox: bool = True) -> list[DocumentResult]:
    """Check every document under ``paths``.

    A named file without a ``symnorm`` block is an error; in folders such files are skipped,
    and a folder without any document raises :class:`~symnorm.errors.SourceError`.  With
    ``only``, a label no document has raises :class:`~symnorm.errors.SourceError` naming the
    labels that start with it, before anything is checked.  Folders a walk does not enter
    are added to ``skipped`` with the reason.
    """
    loaded: list[Document | DocumentResult] = []
    for p in paths:
        kept: list[Document | DocumentResult] = []
        for q, named in find_documents([p], skipped):
            doc = _read(q)
            if isinstance(doc, Document) and not doc.blocks:
                if named:  # a folder's other Markdown files are not derivation documents
                    kept.append(_no_blocks(q))
            else:
                kept.append(doc)
        if not kept:
            raise SymnormError(f"no derivation documents (Markdown files with a ```symnorm "
                               f"block) in {p}; not searched: {SKIPPED_WORDS}")
        loaded += kept
    if only is not None:
        everything = [lab for d in loaded if isinstance(d, Document)
                      for lab in planned_labels(d)]
        everything += [v.label for d in loaded if isinstance(d, DocumentResult)
                       for v in d.verdicts]
        if only not in everything:
            raise SymnormError(unknown_label(only, everything))
    docs = [d for d in loaded if isinstance(d, Document)]
    _plan(progress, [lab for d in docs for lab in planned_labels(d, only)])
    # planned for every document at once above, so each document must not plan again
    each = (lambda v: progress(v)) if progress is not None else None
    _check_args(timeout, dps)
    if not sandbox or len(docs) < 2:
        return [d if isinstance(d, DocumentResult) else
                _start(d, timeout=timeout, dps=dps, only=only, sandbox=sandbox,
                       progress=each)() for d in loaded]
    # One pool of workers decides the claims of every document: all are scheduled first,
    # then collected in order (both cores stay busy across documents, and each worker keeps
    # its caches). A document's ``seconds`` is the wall time from the previous document's
    # result to its own, so that the figures add up to the run's wall time.
    out: list[DocumentResult] = []
    with sandbox_pool(2) as pool:
        pending = [(lambda d=d: d) if isinstance(d, DocumentResult) else
                   _start(d, timeout=timeout, dps=dps, only=only, sandbox=True,
                          progress=each, pool=pool) for d in loaded]
        last = time.monotonic()
        for collect in pending:
            r = collect()
            now = time.monotonic()
            r.seconds = round(now - last, 3)
            last = now
            out.append(r)
    return out
