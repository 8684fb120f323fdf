"""The plain-text claim language: one statement per line into the typed syntax tree.

A hand-written tokenizer and Pratt parser; nothing is evaluated while parsing, and every
error carries ``file:line:column``, the offending text and what would be accepted.

>>> from symnorm.lang.parser import parse_expression
>>> str(parse_expression("J*c == eps/s**3*c"))
'J * c == eps / s ** 3 * c'
>>> str(parse_statement("claim pair: BN(0; [0, b]) == -b/sqrt(b^2 + 4*eps)").relation)
'BN(0; [0, b]) == (-b) / sqrt(b ** 2 + 4 * eps)'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from ..errors import SourceError
from ..safetext import MAX_LABEL
from .syntax import (
    Assume,
    BinOp,
    Call,
    Claim,
    Declare,
    Expr,
    Figure,
    Let,
    Name,
    Neg,
    Num,
    Pos,
    Relation,
    Statement,
    Transpose,
    Use,
    VectorLit,
)

__all__ = ["KEYWORDS", "LIMITS", "parse_expression", "parse_relation", "parse_statement"]

#: Safety caps, each reported with a clear message.
LIMITS = {
    "line_chars": 10_000,     # characters in one statement
    "depth": 60,              # nesting of parentheses, calls and operators
    "literal_digits": 200,    # digits in one numeric literal
    "tokens": 4_000,          # tokens in one statement
}
KEYWORDS = ("use", "scalar", "vector", "matrix", "let", "assume", "claim", "figure", "latex",
            "layer")
_RELOPS = ("==", "!=", "<=", ">=", "<", ">")

_TOKEN = re.compile(r"""
    (?P<ws>[ \t]+)
  | (?P<num>(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*'*)
  | (?P<op>\*\*|==|!=|<=|>=|[-+*/^@()\[\],;:<>=.])
""", re.VERBOSE)


@dataclass
class _Tok:
    kind: str
    text: str
    col: int  # 1-based column in the file


class _Parser:
    def __init__(self, text: str, file: str, line: int, col0: int) -> None:
        self.file, self.line = file, line
        if len(text) > LIMITS["line_chars"]:
            raise SourceError(
                f"statement too long ({len(text)} characters)", file, line, col0,
                hint=f"at most {LIMITS['line_chars']} characters per statement")
        self.toks = self._tokenize(text, col0)
        self.i = 0
        self.depth = 0

    # --- tokens -----------------------------------------------------------------------
    def _tokenize(self, text: str, col0: int) -> list[_Tok]:
        toks: list[_Tok] = []
        i = 0
        while i < len(text):
            m = _TOKEN.match(text, i)
            if not m:
                raise self._err(f"unexpected character {text[i]!r}", col0 + i,
                                "accepted: names, numbers, + - * / ** ^ @ ( ) [ ] , ; .T and "
                                "== != < <= > >=")
            kind = m.lastgroup or ""
            if kind != "ws":
                # x': a primed name is the name xprime, as LaTeX's x' reads (docs/latex.md)
                word = m.group().replace("'", "prime") if kind == "name" else m.group()
                toks.append(_Tok(kind, word, col0 + i))
                if len(toks) > LIMITS["tokens"]:
                    raise self._err("statement has too many tokens", col0 + i,
                                    f"at most {LIMITS['tokens']}")
            i = m.end()
        toks.append(_Tok("end", "", col0 + len(text)))
        return toks

    def _err(self, msg: str, col: int, hint: str = "") -> SourceError:
        return SourceError(msg, self.file, self.line, col, hint)

    @property
    def tok(self) -> _Tok:
        return self.toks[self.i]

    def _pos(self, t: _Tok | None = None) -> Pos:
        return Pos(self.line, (t or self.tok).col)

    def advance(self) -> _Tok:
        t = self.tok
        self.i += 1
        return t

    def accept(self, text: str) -> _Tok | None:
        if self.tok.kind in ("op", "name") and self.tok.text == text:
            return self.advance()
        return None

    def expect(self, text: str, what: str = "") -> _Tok:
        t = self.accept(text)
        if t is None:
            found = self.tok.text or "end of line"
            raise self._err(f"expected {text!r} {what}but found {found!r}".replace("  ", " "),
                            self.tok.col)
        return t

    def name(self, what: str) -> _Tok:
        if self.tok.kind != "name":
            found = self.tok.text or "end of line"
            raise self._err(f"expected {what} but found {found!r}", self.tok.col,
                            "a name is a letter or _ followed by letters, digits or _")
        return self.advance()

    def end(self) -> None:
        if self.tok.kind != "end":
            raise self._err(f"unexpected {self.tok.text!r} after the end of the statement",
                            self.tok.col)

    # --- expressions ------------------------------------------------------------------
    def _enter(self) -> None:
        self.depth += 1
        if self.depth > LIMITS["depth"]:
            raise self._err("expression nested too deeply", self.tok.col,
                            f"at most {LIMITS['depth']} levels of parentheses and operators")

    def relation(self) -> Relation:
        left = self.expr()
        t = self.tok
        if t.kind == "op" and t.text in _RELOPS:
            self.advance()
            right = self.expr()
            if self.tok.kind == "op" and self.tok.text in _RELOPS:
                raise self._err("chained relations are not accepted", self.tok.col,
                                "write one relation per claim")
            return Relation(t.text, left, right, self._pos(t))
        if t.kind == "op" and t.text == "=":
            raise self._err("'=' is not a relation", t.col, "use '==' to claim equality")
        found = t.text or "end of line"
        raise self._err(f"expected a relation (== != < <= > >=) but found {found!r}", t.col)

    def expr(self, min_prec: int = 0) -> Expr:
        self._enter()
        left = self.unary()
        while True:
            t = self.tok
            op = "**" if t.text == "^" else t.text
            prec = {"+": 1, "-": 1, "*": 2, "/": 2, "@": 2, "**": 4}.get(op) if t.kind == "op" \
                else None
            if prec is None or prec < min_prec:
                break
            self.advance()
            right = self.expr(prec if op == "**" else prec + 1)
            left = BinOp(op, left, right, self._pos(t))
        self.depth -= 1
        return left

    def unary(self) -> Expr:
        t = self.tok
        if t.kind == "op" and t.text in "+-" and t.text:
            self.advance()
            self._enter()
            operand = self.expr(3)  # binds looser than ** : -x**2 is -(x**2)
            self.depth -= 1
            return operand if t.text == "+" else Neg(operand, self._pos(t))
        return self.postfix()

    def postfix(self) -> Expr:
        e = self.atom()
        while self.tok.kind == "op" and self.tok.text == ".":
            dot = self.advance()
            if not (self.tok.kind == "name" and self.tok.text == "T"):
                raise self._err("only '.T' (transpose) may follow a '.'", dot.col)
            self.advance()
            e = Transpose(e, self._pos(dot))
        return e

    def atom(self) -> Expr:
        t = self.tok
        if t.kind == "num":
            self.advance()
            digits = len(re.sub(r"[^0-9]", "", t.text.split("e")[0].split("E")[0]))
            exp = re.search(r"[eE]([+-]?\d+)$", t.text)
            if digits > LIMITS["literal_digits"] or (exp and len(exp.group(1)) > 4):
                raise self._err(f"numeric literal too large ({len(t.text)} characters)", t.col,
                                f"at most {LIMITS['literal_digits']} digits")
            return Num(Fraction(t.text), self._pos(t))
        if t.kind == "name":
            self.advance()
            if self.tok.kind == "op" and self.tok.text == "(":
                return self.call(t)
            return Name(t.text, self._pos(t))
        if t.kind == "op" and t.text == "(":
            self.advance()
            self._enter()
            e = self.expr()
            self.depth -= 1
            self.expect(")", "to close '(' ")
            return e
        if t.kind == "op" and t.text == "[":
            return VectorLit(tuple(self.items("[", "]")), self._pos(t))
        found = t.text or "end of line"
        raise self._err(f"expected an expression but found {found!r}", t.col,
                        "an expression is a number, a name, a call f(...), [a, b] or (...)")

    def items(self, open_: str, close: str) -> list[Expr]:
        self.expect(open_)
        self._enter()
        out: list[Expr] = []
        if not self.accept(close):
            while True:
                out.append(self.expr())
                if self.accept(close):
                    break
                self.expect(",", f"or {close!r} ")
        self.depth -= 1
        return out

    def call(self, name: _Tok) -> Call:
        self.expect("(")
        self._enter()
        args: list[Expr] = []
        batch: list[Expr] | None = None
        if not self.accept(")"):
            while True:
                args.append(self.expr())
                if self.accept(";"):
                    batch = self.items("[", "]")
                    self.expect(")", "to close the call ")
                    break
                if self.accept(")"):
                    break
                self.expect(",", "or ')' ")
        self.depth -= 1
        return Call(name.text, tuple(args), self._pos(name),
                    tuple(batch) if batch is not None else None)

    # --- statements -------------------------------------------------------------------
    def statement(self, source: str) -> Statement:
        kw = self.tok
        if kw.kind != "name" or kw.text not in KEYWORDS:
            raise self._err(f"unknown statement {kw.text!r}", kw.col,
                            "a statement starts with one of: " + ", ".join(KEYWORDS))
        self.advance()
        pos = self._pos(kw)
        if kw.text == "use":
            vocab = self.name("a vocabulary name").text
            opts: list[tuple[str, Expr]] = []
            if self.accept("("):
                while True:
                    key = self.name("an option name").text
                    self.expect("=")
                    opts.append((key, self.expr()))
                    if self.accept(")"):
                        break
                    self.expect(",", "or ')' ")
            self.end()
            return Use(vocab, tuple(opts), pos)
        if kw.text == "layer":  # layer l: LaTeX superscripts a^l, a^{(l)} name the layer
            name = self.name("the layer letter")
            self.end()
            return Declare("layer", (name.text,), pos)
        if kw.text in ("scalar", "vector", "matrix"):
            names = [self.name(f"a {kw.text} name").text]
            while self.accept(","):
                names.append(self.name(f"a {kw.text} name").text)
            self.end()
            return Declare(kw.text, tuple(names), pos)
        if kw.text == "let":
            name = self.name("the name being defined").text
            params: list[str] = []
            if self.accept("("):
                params.append(self.name("a parameter name").text)
                while self.accept(","):
                    params.append(self.name("a parameter name").text)
                self.expect(")")
            self.expect("=", "(a definition is `let NAME = expr`) ")
            body = self.expr()
            self.end()
            return Let(name, tuple(params), body, pos)
        if kw.text == "assume":
            rel = self.relation()
            self.end()
            return Assume(rel, pos)
        if kw.text == "claim":
            label = self.label()
            rel = self.relation()
            given: list[Relation] = []
            if self.accept("given"):
                given.append(self.relation())
                while self.accept(","):
                    given.append(self.relation())
            self.end()
            return Claim(label, rel, tuple(given), pos, source=source)
        raise self._err("'latex' statements are read by the LaTeX reader", kw.col)

    def label(self) -> str:
        first = self.name("a claim label")
        parts = [first.text]
        while self.tok.kind in ("op", "name", "num") and self.tok.text != ":":
            if self.tok.text not in (".", "-") and self.tok.kind == "op":
                break
            parts.append(self.advance().text)
        label = "".join(parts)
        if len(label) > MAX_LABEL:
            raise self._err(f"claim label {label[:20]}... is {len(label)} characters long",
                            first.col, f"a label has at most {MAX_LABEL} characters")
        self.expect(":", "after the claim label ")
        return label


def _split_comment(text: str) -> str:
    return text.split("#", 1)[0].rstrip()


def parse_statement(text: str, file: str = "<text>", line: int = 1, col: int = 1
                    ) -> Statement:
    """Parse one statement line (comments after ``#`` are dropped)."""
    body = _split_comment(text)
    stripped = body.lstrip()
    col0 = col + len(body) - len(stripped)
    m = re.match(r"figure\s+([A-Za-z_][A-Za-z0-9_]*)", stripped)
    if m:
        return Figure(m.group(1), _figure_options(stripped, m.end(), file, line, col0),
                      Pos(line, col0))
    return _Parser(stripped, file, line, col0).statement(stripped)


_OPTION = re.compile(r'\s*([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|[^\s"]+)')


def _figure_options(text: str, i: int, file: str, line: int, col0: int
                    ) -> tuple[tuple[str, str], ...]:
    if len(text) > LIMITS["line_chars"]:
        raise SourceError("statement too long", file, line, col0,
                          hint=f"at most {LIMITS['line_chars']} characters per statement")
    out = []
    while text[i:].strip():
        m = _OPTION.match(text, i)
        if not m:
            raise SourceError("malformed figure option", file, line, col0 + i,
                              'options are key=value or key="text with spaces"')
        out.append((m.group(1), m.group(2).strip('"')))
        i = m.end()
    return tuple(out)


def parse_expression(text: str, file: str = "<text>", line: int = 1, col: int = 1):
    """Parse an expression or a relation (used by tests and the Python API)."""
    p = _Parser(text, file, line, col)
    e = p.expr()
    if p.tok.kind == "op" and p.tok.text in _RELOPS:
        t = p.advance()
        e = Relation(t.text, e, p.expr(), Pos(line, t.col))
    p.end()
    return e


def parse_relation(text: str, file: str = "<text>", line: int = 1, col: int = 1) -> Relation:
    """Parse exactly one relation."""
    p = _Parser(text, file, line, col)
    r = p.relation()
    p.end()
    return r
