"""Derivation documents: Markdown whose ``symnorm`` (and ``latex``) fenced blocks are checked.

Markdown is parsed with markdown-it-py, so fences inside lists, indented code and other
Markdown structure are read as Markdown readers see them.  Inside a ``symnorm`` block
there is one statement per line (``#`` starts a comment); ``latex LABEL: <equation>``
hands one display equation to the LaTeX reader.  A block with info string
``latex LABEL`` holds one equation per line (labels ``LABEL``, ``LABEL-2``, ...).

>>> doc = parse_text("# T\\n\\n```symnorm\\nuse layernorm\\nclaim z: J*ones == 0\\n```\\n")
>>> [c.label for c in doc.scope.claims], doc.errors
(['z'], [])
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

from ..errors import LimitError, SourceError
from ..safeio import MAX_DOCUMENT_BYTES, read_capped
from ..safetext import LABEL_CHARS, MAX_LABEL, is_label
from .context import Scope
from .parser import parse_statement
from .latex_macros import is_definition
from .syntax import Claim, Declare, Let, Name, Pos

if TYPE_CHECKING:
    from .latex_macros import Macro

__all__ = ["MAX_DOCUMENT_BYTES", "Block", "Definition", "Document", "markdown_parser",
           "parse_text", "read_document", "source_lines"]


@dataclass
class Block:
    """A fenced block: ``kind`` is ``symnorm`` or ``latex``; ``line`` is its first content line."""

    kind: str
    info: str
    text: str
    line: int


@dataclass(frozen=True)
class Definition:
    """A LaTeX relation read as a definition (``let``): reported with status ``defined``."""

    label: str  # the equation's label; the row is labelled ``LABEL.NAME``
    name: str
    text: str  # the definition as read: ``let sigma = sqrt(...)``
    line: int
    column: int
    source: str  # the equation as written
    #: the vocabularies whose meaning of the name this is (the equation used the name and
    #: the reader put in its meaning), "" for a definition the equation states
    vocabulary: str = ""
    #: the vocabularies whose meaning of the name the equation replaces with the source's
    #: own (sigma with eps, symnorm/lang/latex_own.py), "" otherwise
    own: str = ""


@dataclass
class Document:
    """A parsed derivation document: its source, checked blocks, scope and statement errors."""

    path: str
    source: str
    blocks: list[Block]
    scope: Scope
    errors: list[SourceError] = field(default_factory=list)
    definitions: list[Definition] = field(default_factory=list)
    #: the macros its latex blocks defined so far (\newcommand ...: latex_macros.py)
    macros: dict[str, Macro] = field(default_factory=dict)


def markdown_parser() -> MarkdownIt:
    """The one Markdown reading of a document, shared by the checker and the report.

    CommonMark with raw HTML off (shown as text, so a fence inside ``<div>`` or ``<!--``
    is a fence for the reader and for the checker alike), tables and dollar math.
    """
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.validateLink = _link_allowed
    return md.use(dollarmath_plugin, double_inline=True).enable(["table", "strikethrough"])


def _link_allowed(url: str) -> bool:
    """No link to script, local-file or inline-data URLs (markdown-it allows data:image)."""
    return not url.strip().lower().startswith(("javascript:", "vbscript:", "file:", "data:"))


def source_lines(source: str) -> list[str]:
    """The lines of ``source`` as Markdown numbers them (only LF, CR LF and CR end a line)."""
    return source.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _blocks(source: str) -> list[Block]:
    out = []
    for tok in markdown_parser().parse(source):
        if tok.type != "fence" or tok.map is None:
            continue
        info = tok.info.strip()
        kind = info.split()[0].lower() if info else ""
        if kind in ("symnorm", "latex") and not (kind == "latex" and len(info.split()) < 2):
            out.append(Block(kind, info, tok.content, tok.map[0] + 2))
    return out


def parse_text(source: str, path: str = "<text>") -> Document:
    """Parse document text; statement errors are collected, not raised."""
    if len(source.encode("utf-8", "replace")) > MAX_DOCUMENT_BYTES:
        raise LimitError(f"{path}: document larger than {MAX_DOCUMENT_BYTES} bytes")
    blocks = _blocks(source)
    scope = Scope(path)
    doc = Document(path, source, blocks, scope)
    for block in blocks:
        scope.begin_block(block.line)  # settings end with their block (docs/claims.md)
        lines = block.text.split("\n")  # Markdown's own line ends, not str.splitlines
        if block.kind == "latex":
            label = block.info.split(None, 1)[1].strip()  # "a b" is one (invalid) label
            n = 0  # equations so far; macro definitions (latex_macros.py) take no label
            for i, text, unclosed in _grouped_lines(lines):
                n += not is_definition(text)
                lab = label if n <= 1 else f"{label}-{n}"
                if unclosed is not None and not unclosed[2].startswith("\\begin"):
                    # (an open environment is named by the reader, as on one line)
                    at, col, what = unclosed
                    doc.errors.append(SourceError(
                        f"'{what}' is never closed: the latex block ends first (the lines "
                        f"from line {block.line + i} on were read as one equation, since a "
                        "group left open continues on the next line)", path, block.line + at,
                        col + 1, f"close it with {_CLOSER.get(what, _BRACE)} on the equation's last line"))
                    continue
                _latex(doc, text, lab, block.line + i, 1)
            continue
        failed_at: int | None = None  # the first statement of this block that failed
        for i, raw in enumerate(lines):
            lineno = block.line + i
            stripped = raw.strip()
            if not stripped or stripped.startswith("#"):
                continue
            is_claim = stripped.split(None, 1)[0] in ("claim", "latex")
            if failed_at is not None and is_claim:
                # an assumption or definition above it was refused: the claim would be
                # checked under other settings than the block states
                doc.errors.append(SourceError(
                    f"not checked: line {failed_at} of this block has an error, so the "
                    "settings in force here are not what the block states", path, lineno, 1,
                    "fix that line first"))
                continue
            if stripped.startswith(("latex ", "latex\t")):
                _latex_statement(doc, raw, lineno)
                continue
            document = stripped.split(None, 1)[0] == "document"
            if document:  # `document use ...`: blank the word, keep the columns
                raw = raw.replace("document", " " * len("document"), 1)
            try:
                if document and not raw.strip():
                    raise SourceError("`document` needs a setting after it", path, lineno,
                                      1, "e.g. `document assume eps > 0`")
                scope.add(parse_statement(raw, path, lineno), document=document)
            except (SourceError, LimitError) as exc:
                doc.errors.append(_as_source_error(exc, path, lineno))
                failed_at = failed_at if failed_at is not None or is_claim else lineno
            except RecursionError:
                doc.errors.append(SourceError("statement nested too deeply", path, lineno, 1))
                failed_at = failed_at if failed_at is not None or is_claim else lineno
    scope.end_block()
    return doc


def _latex_equations(lines: list[str]) -> list[tuple[int, str]]:
    """Equations of a ``latex`` block: one per non-empty line, except that a line whose
    groups are left open continues on the next lines until they close: ``\\begin{..}`` ...
    ``\\end{..}``, braces ``{`` ... ``}`` (``\\boxed{`` on one line, ``}`` on a later one) and
    ``\\left`` ... ``\\right`` each form one equation (line index, text)."""
    return [(i, text) for i, text, _ in _grouped_lines(lines)]


def _grouped_lines(lines: list[str]) -> list[tuple[int, str, tuple[int, int, str] | None]]:
    """:func:`_latex_equations` with, for an equation still open where the block ends, the
    outermost group left open (line index, column, what opened it); None otherwise."""
    out: list[tuple[int, str, tuple[int, int, str] | None]] = []
    open_at: int | None = None
    stack: list[tuple[int, int, str]] = []
    for i, line in enumerate(lines):
        code = _COMMENT.sub("", line)
        if open_at is None and not line.strip():
            continue
        if open_at is None:
            open_at = i
        closed = False
        for m in _GROUP.finditer(code):
            s = m.group()
            if s == "{":  # named with the macro it opens (\\boxed{), at that macro
                lead = _MACRO_BEFORE.search(code, 0, m.start())
                stack.append((i, lead.start(), lead.group().rstrip() + s) if lead else
                             (i, m.start(), s))
            elif s == "\\left" or s.startswith("\\begin"):
                stack.append((i, m.start(), s))
            elif s == "}" or s == "\\right" or s.startswith("\\end"):
                if stack:
                    stack.pop()
                else:
                    closed = True  # more closers than openers: the reader names the extra one
        if not stack or closed:
            out.append((open_at, "\n".join(lines[open_at:i + 1]), None))
            open_at, stack = None, []
    if open_at is not None:  # a group still open at the end of the block
        out.append((open_at, "\n".join(lines[open_at:]), stack[0]))
    return out


_CLOSER = {"\\left": "\\right"}
_BRACE = "'}'"
_MACRO_BEFORE = re.compile(r"\\[A-Za-z]+\s*$")
_COMMENT = re.compile(r"(?<!\\)%.*")
#: what opens or closes a group across lines; a whole ``\\begin{name}`` is one match (its
#: braces are not a group), ``\\leftarrow`` and ``\\{`` are no group, nor is ``\\\\``
_GROUP = re.compile(r"\\(?:begin|end)\s*\{[^{}]*\}|\\(?:left|right)(?![A-Za-z])|\\[A-Za-z]+|\\.|[{}]")


def _as_source_error(exc: Exception, path: str, line: int) -> SourceError:
    if isinstance(exc, SourceError):
        return exc
    return SourceError(str(exc), path, line, 1)


def _latex_statement(doc: Document, raw: str, lineno: int) -> None:
    head, sep, rest = raw.partition(":")
    col = len(head) + 2
    parts = head.split()
    if not sep or len(parts) != 2:
        doc.errors.append(SourceError("malformed latex statement", doc.path, lineno, 1,
                                      "write `latex LABEL: <equation>`"))
        return
    _latex(doc, rest, parts[1], lineno, col)


def _latex(doc: Document, text: str, label: str, line: int, col: int) -> None:
    try:
        from .latex import parse_latex_equation
        from .latex_env import WHERE_CLAUSE, latex_env
        from .latex_groups import check_statement, per_channel, per_channel_reading, sigma_forms
        from .latex_macros import define_macros, expand
    except ImportError:  # pragma: no cover - the LaTeX reader ships with the package
        doc.errors.append(SourceError("LaTeX support is not available", doc.path, line, col))
        return
    lead = len(text) - len(text.lstrip())
    # an equation is atomic: if any of its statements is an error, it defines nothing
    state, known = doc.scope.snapshot(), len(doc.definitions)
    try:
        if define_macros(text.strip(), doc.macros, doc.path, line, col + lead):
            return  # \newcommand ... lines: macros for the equations after them
        if not is_label(label):  # labels reach shells and terminals: a safe alphabet only
            cut = label if len(label) <= MAX_LABEL else f"{label[:20]}..."
            raise SourceError(f"invalid claim label {cut!r} ({len(label)} characters)",
                              doc.path, line, 1,
                              f"labels match {LABEL_CHARS}, at most {MAX_LABEL} characters")
        env = replace(latex_env(doc.scope), read_before=frozenset(
            d.name for d in doc.definitions if d.vocabulary),
            vocab_declared=frozenset(doc.scope.vocab_declared))
        expanded = expand(text.strip(), doc.macros, doc.path, line, col + lead) \
            if doc.macros else None
        shown = text.strip() if expanded is None else expanded.text  # what was read
        stmts = parse_latex_equation(shown, label, file=doc.path, line=line,
                                     column=col + lead, is_defined=doc.scope.is_defined,
                                     is_function=doc.scope.is_function,
                                     is_dimension=lambda n: _is_dimension(doc.scope, n),
                                     env=env, expanded=expanded)
        if not any(isinstance(st, (Claim, Let)) for st in stmts):
            # `a > 5` alone would silently check nothing: say so
            raise SourceError(f"equation {label} holds only assumptions; nothing to check",
                              doc.path, line, col + lead,
                              "write the inequality as a claim (`claim L: s > 0`) or put it "
                              "beside the equation it qualifies")
        uses = ", ".join(f"use {v}" for v in doc.scope.latex_vocabs())
        # GroupNorm's per-entry statistics: sigma's two readings, one statement per channel
        stmts = sigma_forms(stmts, env.entries, doc.scope.is_defined, doc.path)
        for st in stmts:
            if isinstance(st, Declare) and st.kind == "scalar":  # the vocabulary's gamma, beta
                doc.scope.vocab_declared.update(n for n in st.names if n in env.affine)
            check_statement(st, doc.scope, env.entries, doc.path)
            st = per_channel(st, doc.scope, env.entries, doc.path)
            st = per_channel_reading(st, doc.scope, env.entries)
            doc.scope.in_latex = True
            try:
                doc.scope.add(st)
            finally:
                doc.scope.in_latex = False
            if isinstance(st, Let):
                meaning = env.meanings.get(st.name)
                vocabulary = not st.params and meaning is not None and st.body == meaning
                doc.definitions.append(_definition(st, label, shown,
                                                   uses if vocabulary else "",
                                                   uses if st.own_meaning else ""))
                if vocabulary:
                    # the vocabulary's meaning (the reader defines a name of the vocabulary's
                    # only so): it holds in blocks whose vocabularies agree
                    doc.scope.mark_vocabulary(st.name, f"{uses}, equation {label}")
                elif not st.params and meaning is not None and not st.own_meaning:
                    # a where-clause's own meaning of a vocabulary name (sigma with eps): a
                    # later equation whose vocabularies give the name another meaning could
                    # mean either, so there it is a conflict (an error), never silently one
                    doc.scope.mark_vocabulary(st.name, f"{WHERE_CLAUSE}{label}, its own meaning")
                # (a row of its own that gives sigma the source's meaning with eps is the
                # document's definition from here on, as a let: latex_own.py)
    except (SourceError, LimitError) as exc:
        doc.scope.restore(state)
        del doc.definitions[known:]
        doc.errors.append(_as_source_error(exc, doc.path, line))
    except RecursionError:
        doc.scope.restore(state)
        del doc.definitions[known:]
        doc.errors.append(SourceError("LaTeX nested too deeply", doc.path, line, col))


def _is_dimension(scope: Scope, name: str) -> bool:
    """Whether ``name`` is defined as the dimension (``let m = d``): a sum bound may use it."""
    if name not in scope.lets or scope.lets[name].stmt.params:
        return False
    dim = scope.expand(Name("d", Pos(1, 1)), {})
    return scope.lets[name].expanded == dim


def _definition(st: Let, label: str, source: str, vocabulary: str = "",
                own: str = "") -> Definition:
    head = f"{st.name}({', '.join(st.params)})" if st.params else st.name
    return Definition(label, st.name, f"let {head} = {st.body}", st.pos.line, st.pos.col,
                      source, vocabulary, own)


def read_document(path: str | Path) -> Document:
    """Read and parse a derivation document from disk."""
    p = Path(path)
    try:
        data = read_capped(p)  # stat first: no pipe, no device, nothing over the cap
    except OSError as exc:
        raise SourceError(f"cannot read {p}: {exc.strerror}", str(p), 1, 1) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SourceError(f"not UTF-8 text (byte {exc.start})", str(p), 1, 1) from None
    return parse_text(text, str(p))
