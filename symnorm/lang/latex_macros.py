r"""A paper's own macros: ``\newcommand``, ``\renewcommand``, ``\providecommand``,
``\DeclareMathOperator`` and ``\def`` lines in a ``latex`` block, expanded in the equations
after them.

Papers typeset their equations with macros of their own (``\newcommand{\vx}{\mathbf{x}}``,
``\DeclareMathOperator{\Var}{Var}``, ``\newcommand{\d}[1]{\mathbf{#1}}``).  An equation of a
``latex`` block (or of a ``latex LABEL:`` statement) made of such definitions only defines
them for the rest of the document, as a LaTeX preamble does; it is no claim.  Each later
equation is read with its macros expanded as TeX expands them: the body replaces the macro
and its arguments, ``#1`` .. ``#9`` replaced by the arguments (a braced group without its
braces, or one token), and nothing is added (``\newcommand{\xc}{x - \mu}`` makes ``\xc^2``
read ``x - \mu^2``, as TeX prints it).  The reader then reads the expanded text with every
rule it has, and every position it reports is the macro's in the equation as written.

What is refused, each with file, line and column: a definition beside math in one equation,
a macro defined twice with ``\newcommand`` (or over a command the reader knows: ``\mu``), an
optional argument ``[2][default]``, a delimited ``\def`` parameter, ``\let``, more than 9
arguments, ``#`` in a body that names no argument, a macro missing an argument, and an
expansion that does not end (a macro using itself) or grows past the equation limit
(:data:`symnorm.lang.latex_tokens.MAX_LENGTH` characters).

>>> m = {}
>>> define_macros(r"\newcommand{\d}[1]{\mathbf{#1}} \DeclareMathOperator{\Var}{Var}", m, "<t>", 1, 1)
True
>>> expand(r"\d{y} = \Var[\d x]", m, "<t>", 1, 1).text
'\\mathbf{y} = \\operatorname{Var}[\\mathbf{x}]'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from symnorm.errors import SourceError
from symnorm.lang.latex_tokens import (
    ACCENTS, BOLD, FORBIDDEN, FRACS, FUNCTION_MACROS, GREEK, MAX_LENGTH, RELATIONS, SPACING,
)

__all__ = ["Expanded", "Macro", "define_macros", "expand", "is_definition"]

#: How many times an expansion may be rescanned before it is refused as not ending.
MAX_DEPTH = 32

#: The commands that open a definition (``\newcommand*`` and friends take a star).
_DEFINERS = ("\\newcommand", "\\renewcommand", "\\providecommand", "\\DeclareMathOperator",
             "\\def")
_OPEN = re.compile(r"\s*(\\(?:newcommand|renewcommand|providecommand|DeclareMathOperator)"
                   r"\*?|\\def)(?![A-Za-z])")
_COMMENT = re.compile(r"(?<!\\)%[^\n]*")
_CONTROL = re.compile(r"\\[A-Za-z]+|\\.", re.DOTALL)
#: Commands a definition may not take as its name: they define, read files or change the
#: lexer (:data:`FORBIDDEN`), or delimit what the reader reads around a macro.
_UNDEFINABLE = frozenset(FORBIDDEN) | {"\\left", "\\right", "\\begin", "\\end", "\\\\"}
#: Commands the reader reads itself: ``\newcommand`` of one is an error, as in LaTeX
#: (``\renewcommand`` replaces it, ``\providecommand`` leaves it).
_KNOWN = frozenset(GREEK) | frozenset(FUNCTION_MACROS) | frozenset(BOLD) | frozenset(ACCENTS) \
    | frozenset(FRACS) | frozenset(SPACING) | frozenset(r for r in RELATIONS if r[0] == "\\") \
    | frozenset({"\\sum", "\\prod", "\\partial", "\\nabla", "\\sqrt", "\\cdot", "\\times",
                 "\\odot", "\\circ", "\\otimes", "\\mathrm", "\\operatorname", "\\text",
                 "\\mathcal", "\\mathbb", "\\mathsf", "\\top", "\\quad", "\\qquad", "\\dot",
                 "\\boxed", "\\color", "\\tag", "\\label", "\\over", "\\limits", "\\approx",
                 "\\in", "\\to", "\\mapsto", "\\rightarrow", "\\leftarrow", "\\gets", "\\ldots",
                 "\\cdots", "\\dots", "\\infty", "\\lim", "\\max", "\\min", "\\underbrace",
                 "\\overbrace", "\\stackrel", "\\overset", "\\textrm", "\\mbox", "\\lVert",
                 "\\rVert", "\\lvert", "\\rvert", "\\langle", "\\rangle"})


@dataclass(frozen=True)
class Macro:
    """A defined macro: its name (``\\vx``), number of arguments and body as written."""

    name: str
    args: int
    body: str
    line: int
    col: int


@dataclass(frozen=True)
class Expanded:
    """An equation with its macros expanded: ``origin[k]`` is the offset in ``source`` (the
    equation as written) of character ``k`` of ``text`` (a body's characters are the macro's
    own; an argument's keep theirs)."""

    text: str
    source: str
    origin: tuple[int, ...]


class _Text:
    """Characters with their offsets in the written equation."""

    def __init__(self) -> None:
        self.chars: list[str] = []
        self.origin: list[int] = []

    def add(self, s: str, at: int | list[int]) -> None:
        if not s:
            return
        # TeX reads "\alpha" then "x" as two tokens; as text they must not join into \alphax
        if s[0].isalpha() and self.chars and _ends_in_control_word(self.chars):
            self.chars.append(" ")
            self.origin.append(at if isinstance(at, int) else at[0])
        self.chars.extend(s)
        self.origin.extend([at] * len(s) if isinstance(at, int) else at)

    def text(self) -> str:
        return "".join(self.chars)


def _ends_in_control_word(chars: list[str]) -> bool:
    k = len(chars) - 1
    while k >= 0 and chars[k].isalpha():
        k -= 1
    if k == len(chars) - 1 or k < 0 or chars[k] != "\\":
        return False
    j, n = k - 1, 0  # an escaped backslash (\\) before the letters is a row break
    while j >= 0 and chars[j] == "\\":
        j, n = j - 1, n + 1
    return n % 2 == 0


def is_definition(text: str) -> bool:
    """Whether ``text`` (one equation as written) begins with a macro definition."""
    return _OPEN.match(_COMMENT.sub("", text)) is not None


def define_macros(text: str, macros: dict[str, Macro], file: str, line: int, col: int) -> bool:
    """Read ``text``, one or more definitions and nothing else, into ``macros``; False if it
    is no definition at all.  Raises :class:`SourceError` at the first bad definition (then
    none of the equation's definitions is added)."""
    if not is_definition(text):
        return False
    if len(text) > MAX_LENGTH:
        raise SourceError(f"macro definitions too long ({len(text)} characters; the limit is "
                          f"{MAX_LENGTH})", file, line, col)
    code = _COMMENT.sub(lambda c: " " * len(c.group()), text)
    where = _where(text, line, col)
    new = dict(macros)
    at = 0
    while True:
        while at < len(code) and code[at].isspace():
            at += 1
        if at == len(code):
            break
        m = _OPEN.match(code, at)
        if m is None:
            raise SourceError("a macro definition must stand alone: "
                              f"'{code[at:at + 20].strip()}' follows it in the same equation",
                              file, *where(at), "put the definitions on lines of their own, "
                              "before the equations that use them")
        at = _one_definition(code, m, new, file, where)
    macros.clear()
    macros.update(new)
    return True


def _where(text: str, line: int, col: int):  # type: ignore[no-untyped-def]
    def pos(offset: int) -> tuple[int, int]:
        before = text[:offset]
        nl = before.count("\n")
        return (line + nl, offset - before.rfind("\n") if nl else col + offset)
    return pos


def _one_definition(code: str, m: re.Match[str], macros: dict[str, Macro], file: str,
                    where) -> int:  # type: ignore[no-untyped-def]
    kind, start = m.group(1).rstrip("*"), m.start(1)

    def fail(msg: str, off: int, hint: str = "") -> SourceError:
        return SourceError(msg, file, *where(off), hint)

    at = _skip(code, m.end())
    braced = at < len(code) and code[at] == "{"
    if braced:
        name, at = _group(code, at, fail, kind)
        name = name.strip()
    else:
        c = _CONTROL.match(code, at)
        if c is None:
            raise fail(f"{kind} needs the macro's name (\\name) after it", at)
        name, at = c.group(), c.end()
    if not re.fullmatch(r"\\[A-Za-z]+", name):
        raise fail(f"{kind}: {name!r} is not a macro name (a backslash and letters)", start)
    if name in _UNDEFINABLE:
        raise fail(f"{kind}{{{name}}}: {name} cannot be redefined here", start,
                   "macros may name math only; definitions, environments and file access "
                   "are never expanded")
    args = 0
    if kind == "\\def":
        params = re.match(r"(?:#[1-9])*", code[at:]).group()  # type: ignore[union-attr]
        if params != "".join(f"#{k}" for k in range(1, len(params) // 2 + 1)):
            raise fail(f"\\def{name}: parameters must be #1#2... in order", at)
        args, at = len(params) // 2, at + len(params)
        if at < len(code) and code[at] != "{":
            raise fail(f"\\def{name}: a delimited parameter ({code[at:at + 10].strip()!r}) is "
                       "not accepted", at, f"write \\newcommand{{{name}}}[{args}]{{...}}")
    elif kind != "\\DeclareMathOperator":
        at = _skip(code, at)
        if at < len(code) and code[at] == "[":
            close = code.find("]", at)
            if close < 0 or not code[at + 1:close].strip().isdigit():
                raise fail(f"{kind}{{{name}}}: the number of arguments must be [1] .. [9]", at)
            args = int(code[at + 1:close])
            if not 1 <= args <= 9:
                raise fail(f"{kind}{{{name}}}: {args} arguments (at most 9)", at)
            at = _skip(code, close + 1)
            if at < len(code) and code[at] == "[":
                raise fail(f"{kind}{{{name}}}: an optional argument with a default "
                           "([n][default]) is not accepted", at,
                           "define the macro with its arguments all required")
    at = _skip(code, at)
    if at >= len(code) or code[at] != "{":
        raise fail(f"{kind}{{{name}}} needs its body in braces", at)
    body_at = at + 1
    body, at = _group(code, at, fail, kind)
    if kind == "\\DeclareMathOperator":
        if not re.fullmatch(r"\s*[A-Za-z][A-Za-z0-9]*\s*", body):
            raise fail(f"\\DeclareMathOperator{{{name}}}: the operator's name must be letters "
                       f"and digits, got {body.strip()!r}", body_at)
        body = f"\\operatorname{{{body.strip()}}}"
    else:
        for h in re.finditer(r"#(.?)", body):
            if not (h.group(1).isdigit() and 1 <= int(h.group(1)) <= args):
                raise fail(f"{kind}{{{name}}}: '#{h.group(1)}' names no argument of the macro "
                           f"(it takes {args})", body_at + h.start())
    known = name in macros or name in _KNOWN
    if kind == "\\newcommand" and known:
        what = "defined earlier in the document" if name in macros else "a command symnorm reads"
        raise fail(f"\\newcommand{{{name}}}: {name} is already {what}", start,
                   f"write \\renewcommand{{{name}}} to replace it")
    if kind == "\\renewcommand" and not known:
        raise fail(f"\\renewcommand{{{name}}}: {name} is not defined", start,
                   f"write \\newcommand{{{name}}}")
    if kind == "\\providecommand" and known:
        return at  # LaTeX keeps the existing meaning
    macros[name] = Macro(name, args, body, *where(start))
    return at


def _skip(code: str, at: int) -> int:
    while at < len(code) and code[at].isspace():
        at += 1
    return at


def _group(code: str, at: int, fail, what: str) -> tuple[str, int]:  # type: ignore[no-untyped-def]
    """The content of the braced group opening at ``at`` and the offset after it."""
    depth, k = 0, at
    while k < len(code):
        c = code[k]
        if c == "\\":
            k += 2
            continue
        depth += {"{": 1, "}": -1}.get(c, 0)
        if depth == 0:
            return code[at + 1:k], k + 1
        k += 1
    raise fail(f"{what}: '{{' is never closed", at)


def expand(text: str, macros: dict[str, Macro], file: str, line: int, col: int) -> Expanded:
    """``text`` with every macro of ``macros`` expanded (module docstring)."""
    origin = list(range(len(text)))
    where = _where(text, line, col)
    current = text
    for _ in range(MAX_DEPTH):
        out, changed = _Text(), False
        # comments stay as written (the tokenizer blanks them): a macro there is not used
        code = _COMMENT.sub(lambda c: " " * len(c.group()), current)
        k = 0
        while k < len(current):
            c = _CONTROL.match(code, k) if code[k] == "\\" else None
            if c is None or c.group() not in macros:
                nxt = code.find("\\", k + 1) if c is None else c.end()
                nxt = len(current) if nxt < 0 else nxt
                out.add(current[k:nxt], origin[k:nxt])
                k = nxt
                continue
            mac, use = macros[c.group()], origin[k]
            k, args = _arguments(current, code, c.end(), mac, origin,
                                 lambda msg, off: SourceError(msg, file, *where(off)))
            grows = len(mac.body) + sum(len(a) * mac.body.count(f"#{n}")
                                        for n, (a, _) in enumerate(args, 1))
            if len(out.chars) + grows + len(current) - k > MAX_LENGTH:
                raise SourceError(f"expanding {mac.name} makes the equation longer than "
                                  f"{MAX_LENGTH} characters", file, *where(use),
                                  "a macro that repeats itself many times is not read")
            _substitute(out, mac, args, use)
            changed = True
        if not changed:
            return Expanded(current, text, tuple(origin))
        current, origin = out.text(), out.origin
    used = sorted({c.group() for c in _CONTROL.finditer(current) if c.group() in macros})
    first = next(c for c in _CONTROL.finditer(current) if c.group() in macros)
    raise SourceError(f"the expansion of {', '.join(used)} does not end (after {MAX_DEPTH} "
                      "rounds a macro still uses itself)", file, *where(origin[first.start()]),
                      "a macro may use other macros, never itself")


def _arguments(current: str, code: str, at: int, mac: Macro, origin: list[int],
               fail) -> tuple[int, list[tuple[str, list[int]]]]:  # type: ignore[no-untyped-def]
    """The ``mac.args`` arguments after offset ``at``: each a braced group's content or one
    token, with their origins."""
    args: list[tuple[str, list[int]]] = []
    for n in range(mac.args):
        at = _skip(code, at)
        if at >= len(code) or code[at] in "}":
            raise fail(f"{mac.name} takes {mac.args} argument{'s' * (mac.args > 1)}; "
                       f"argument {n + 1} is missing", origin[min(at, len(origin) - 1)])
        if code[at] == "{":
            depth, k = 0, at
            while k < len(code):
                if code[k] == "\\":
                    k += 2
                    continue
                depth += {"{": 1, "}": -1}.get(code[k], 0)
                if depth == 0:
                    break
                k += 1
            if k >= len(code):
                raise fail(f"argument {n + 1} of {mac.name}: '{{' is never closed", origin[at])
            args.append((current[at + 1:k], origin[at + 1:k]))
            at = k + 1
        else:
            c = _CONTROL.match(code, at)
            end = c.end() if c else at + 1
            args.append((current[at:end], origin[at:end]))
            at = end
    return at, args


def _substitute(out: _Text, mac: Macro, args: list[tuple[str, list[int]]], use: int) -> None:
    k = 0
    for h in re.finditer(r"#([1-9])", mac.body):
        out.add(mac.body[k:h.start()], use)
        s, where = args[int(h.group(1)) - 1]
        out.add(s, where)
        k = h.end()
    out.add(mac.body[k:], use)
