"""The recursive-descent expression parser behind :func:`symnorm.lang.latex.parse_latex_equation`.

Grammar (tokens from :mod:`symnorm.lang.latex_tokens`; ``docs/latex.md`` has examples)::

    equation := SEP* relation (SEP+ relation)* SEP* ["."]
    relation := expr (RELOP expr)+                   # chains give one relation per pair
    expr     := ["+"|"-"] term (("+"|"-") term | "{" (("+"|"-") term)+ "}" [product])*
                                                     # a {+ b}: TeX prints the sum a + b
    term     := factor (("\\cdot"|"\\times"|"*"|"/") factor | factor)*   # juxtaposition
    factor   := atom scripts [call scripts]
    atom     := number | letter | greek | \\mathbf 1 | \\frac | \\sqrt | ( expr ) | [ expr ]
              | \\| expr \\| | "|" expr "|" | \\langle expr, expr \\rangle | \\operatorname{..}
              | \\mathrm{..} | \\mathcal X | \\hat x | \\sum_{i=1}^m term | { product }
    scripts  := ("_" sub | "^" sup)*                 # each at most once

Nesting is capped at :data:`MAX_DEPTH` levels, so no input can exhaust Python's stack.

>>> from symnorm.lang.latex_tokens import tokenize
>>> p = ExprParser("aPx", tokenize("aPx", "<t>", 1, 1), "<t>", lambda n: False,
...                lambda n: False)
>>> str(p.expr())
'a * P * x'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from fractions import Fraction

from symnorm.errors import SourceError
from symnorm.lang.latex_atoms import parse_factor
from symnorm.lang.latex_axes import at_method, method_call, method_power
from symnorm.lang.latex_brace import BraceClaim
from symnorm.lang.latex_tokens import (
    DEFINERS,
    GREEK,
    IF,
    LEAD_OPS,
    RELATIONS,
    ROOT_SIGN,
    SEPARATORS,
    Tok,
)
from symnorm.lang.syntax import BinOp, Call, Expr, Name, Neg, Num, Pos

__all__ = ["MAX_DEPTH", "MAX_DIGITS", "ExprParser", "RawRel"]

#: Deepest nesting of groups, fractions, roots and scripts.
MAX_DEPTH = 40
#: Longest numeric literal (digits).
MAX_DIGITS = 200

_NONFACTOR = set(RELATIONS) | set(DEFINERS) | set(SEPARATORS) | {IF} | {
    "\\cdot", "\\times", "\\odot", "\\rangle", "\\}", "\\over", "\\approx", "\\simeq", "\\sim"}
_CLOSE = {"(": ")", "[": "]", "{": "}"}
#: Arrows that may name a map's variable (x \rightarrow LN(x) = ...).
_ARROWS = ("\\rightarrow", "\\to", "\\mapsto", "\\longrightarrow", "\\longmapsto")
BOLD_MACROS = ("\\mathbf", "\\boldsymbol", "\\bm", "\\vec")


@dataclass(frozen=True)
class RawRel:
    """One relation as written: ``op`` is a claim-language relation or a definer."""

    op: str
    op_text: str
    left: object
    right: object
    pos: Pos
    source: str
    #: the relations of one chain (``a = b = c``) share ``chain``; a condition written after
    #: ``\text{if}`` has ``cond_of`` = the chain it qualifies (-1: not a condition)
    chain: int = 0
    cond_of: int = -1
    #: the variable of a map written with an arrow (``x \\rightarrow LN(x) = ...``), or ""
    map_var: str = ""


class ExprParser:
    """Parses the token list of one equation; holds the position and nesting depth."""

    def __init__(self, text: str, toks: list[Tok], file: str,
                 defined: Callable[[str], bool], is_function: Callable[[str], bool]) -> None:
        self.text, self.toks, self.file = text, toks, file
        self.defined, self.is_function = defined, is_function
        #: whether a name denotes the dimension d (an upper bound of \sum must)
        self.is_dimension: Callable[[str], bool] = lambda n: n == "d"
        self.i = 0
        self.depth = 0
        #: the last factor joined by juxtaposition across written spacing or a \\tag
        self.spaced: Tok | None = None
        self.closers: list[str | None] = []
        self.local_fns: set[str] = set()
        #: whether a formula with no relation may stand alone (a vocabulary names an output)
        self.bare_allowed = False
        #: the document's layer letter (``layer l``): ^l and ^{(l)} name the layer, no power
        self.layer: str | None = None
        #: sets a vocabulary names: set letter -> the vector whose entries it holds
        self.sets: dict[str, str] = {}
        #: per-entry statistics and index sets of the block (latex_groups.EntryReading)
        self.entries: object = None
        #: channel superscripts under use batchnorm (latex_channel.ChannelReading), or None
        self.channel: object = None
        #: whether a name is a free symbol (declared scalar, vector, matrix, or an affine
        #: parameter): only those multiply a parenthesis by juxtaposition; a defined quantity
        #: (\mu, \sigma, v, s) before ( reads as an application in sources (\sigma(x))
        self.free_symbol: Callable[[str], bool] = lambda n: True
        #: the conventional name a word spells where that name has its vocabulary meaning
        #: (``mean``: ``mu``, ``output``: ``y``), else None (vocab.WORD_NAMES)
        self.word_name: Callable[[str], str | None] = lambda w: None
        #: whether the document itself (not a vocabulary's LaTeX meaning) defines a name
        self.own: Callable[[str], bool] = defined
        #: whether the equation applies src or dst to index letters (oneDNN's tensor-index
        #: notation, latex_tensor.py): then NAME(t, n, c) is a tensor entry
        self.tensor_mode = False
        #: the index letters of the sums being read (``\sum_r``: x_r is entry r)
        self.sum_letters: list[str] = []
        #: names of the dimension written as upper bounds of sums (``m``, ``NHW``)
        self.dims_used: set[str] = set()
        #: claims stated by math labels (\underbrace{A}_{= 1}), in reading order
        self.braces: list[BraceClaim] = []
        #: the vocabulary's output when it takes its vocabulary meaning (``y(x)`` reads as y)
        self.output: str | None = None
        #: whether the document declares an upstream gradient in differential notation
        #: (``vector dy``): then ``d\hat x``, ``d\sigma^2`` are adjoints, not errors
        self.differentials = False
        #: the names of the block's layer (``RMSNorm``, ``LN``) when its output has its
        #: vocabulary meaning: NAME(x) reads as the output
        self.layer_names: frozenset[str] = frozenset()
        #: where a layer's name applied to the input x was read as the output (line, col)
        self.layer_tags: set[tuple[int, int]] = set()
        #: where a layer's name was applied to another argument (line, col) -> the name
        self.layer_at: dict[tuple[int, int], str] = {}
        #: the vocabulary's input a name is the document's exact alias of (``let X = x``:
        #: X -> x), else None: the accent on it is the input's (latex_accent.py)
        self.input_alias: Callable[[str], str | None] = lambda n: None
        #: whether ``NAME_{pl}`` with letters that are no index letters of the reader is
        #: the entry of a data matrix of the layer's vectors (latex_rows.py)
        self.data_row: Callable[[str], bool] = lambda n: False
        #: names a symnorm block made aliases of the vocabulary's LaTeX-only names
        #: (``let Y = y``): each reads as that name
        self.aliases: dict[str, str] = {}
        #: whether the document or the equation itself gives a name a meaning (a symbol, a
        #: definition, a function), as opposed to a vocabulary: its layer names yield to it
        self.own_name: Callable[[str], bool] = lambda n: n in self.local_fns or defined(n)
        #: the line of the document's definition of one of the block's layer names made where
        #: no vocabulary named the layer so (then the name has two meanings), else None
        self.layer_clash: Callable[[str], int | None] = lambda n: None

    # --- tokens -------------------------------------------------------------------------

    def span(self, a: int, b: int) -> str:
        """The source text of tokens a..b-1 (the tokenizer may have reordered a few:
        ``\\hat{x_i}`` is read as ``\\hat{x}_i``)."""
        toks = self.toks[a:b]
        return self.text[min(t.start for t in toks):max(t.end for t in toks)]

    def peek(self, k: int = 0) -> Tok | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def at(self, *texts: str) -> bool:
        t = self.peek()
        return t is not None and t.text in texts

    def next(self, what: str = "more input") -> Tok:
        t = self.peek()
        if t is None:
            raise self.err(f"equation ended, expected {what}")
        self.i += 1
        return t

    def expect(self, text: str, opened: Tok | None = None) -> Tok:
        t = self.peek()
        if t is None or t.text != text:
            got = "the end of the equation" if t is None else repr(t.text)
            where = f" to close {opened.text!r} at {opened.line}:{opened.col}" if opened else ""
            raise self.err(f"expected {text!r}{where}, got {got}", t)
        self.i += 1
        return t

    def err(self, msg: str, tok: Tok | None = None, hint: str = "") -> SourceError:
        if tok is None:
            last = self.toks[-1]
            return SourceError(msg, self.file, last.line, last.col + len(last.text), hint)
        return SourceError(msg, self.file, tok.line, tok.col, hint)

    @staticmethod
    def pos(t: Tok) -> Pos:
        return Pos(t.line, t.col)

    @contextmanager
    def nest(self, tok: Tok | None) -> Iterator[None]:
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise self.err(f"LaTeX nested more than {MAX_DEPTH} levels deep", tok,
                               "simplify or split the equation")
            yield
        finally:
            self.depth -= 1

    # --- equation and relations -----------------------------------------------------------

    def equation(self) -> list[RawRel]:
        rels: list[RawRel] = []
        prev: tuple[int, Expr, int] | None = None
        chain = 0
        row: list[int] = []  # chains of the current row
        last_row: list[int] = []  # those of the row before it
        cond_of = -1  # after \text{if}: the chain the row's further relations qualify
        while True:
            row_break = False
            spaced = None  # a \quad written between a condition and what follows it
            while self.at(*SEPARATORS, IF):
                if self.at("\\\\"):
                    if row:
                        last_row = row
                    row_break, row, cond_of = True, [], -1
                elif self.at(IF):
                    cond_of = self._condition_target(row, cond_of)
                elif self.at("\\quad", "\\qquad") and cond_of != -1 and \
                        self.text[self.peek().start:].startswith(("\\quad", "\\qquad")):
                    spaced = self.peek()
                self.i += 1
            if spaced is not None and cond_of != -1 and self.peek() is not None and \
                    not (self.at(".") and self.peek(1) is None):
                raise self.err("a relation after a condition, set apart by a space: is it "
                               "another condition or a claim of its own?", spaced,
                               "separate conditions with ',' (or \\text{and}); put a claim "
                               "that follows a condition on a row of its own (\\\\)")
            if self.peek() is None or (self.at(".") and self.peek(1) is None):
                break
            # `a &= b \\ &= c` (align): a row that starts with a relation continues the chain
            cont = prev if row_break and self.at(*RELATIONS, *DEFINERS) else None
            if cont is not None and len(last_row) > 1:
                # the row before holds a condition, a where-clause or another relation beside
                # its chain: the link would start from whichever came last (red team 17: a
                # condition's right side, so `... \text{if } \epsilon = 1 \\ &= 1` read 1 == 1)
                raise self.err("a row that continues a chain (&= ...) after a row with more "
                               "than one relation (a condition, a where-clause, a relation "
                               "beside it): which one it continues is ambiguous", self.peek(),
                               "write the continued chain's rows first and the conditions "
                               "or side relations in a row or equation of their own")
            new, prev = self.relation(cont)
            if cont is None:
                chain += 1
            row.append(chain)
            rels += [replace(r, chain=chain, cond_of=cond_of) for r in new]
            t = self.peek()
            if t is None or (t.text == "." and self.peek(1) is None):
                break
            if t.text not in SEPARATORS and t.text != IF:
                raise self.err(f"unexpected {t.text!r} after a relation", t,
                               "separate relations with ',', '\\quad', ';' or '\\\\'")
        if not rels:
            raise self.err("no relation in the equation", self.toks[0])
        if len(rels) > 1 and any(r.op == "" for r in rels):
            bare = next(r for r in rels if r.op == "")
            raise SourceError("a formula with no relation beside other relations",
                              self.file, bare.pos.line, bare.pos.col,
                              "a formula alone is a claim about the vocabulary's output only "
                              "when it is the whole equation; write y = ...")
        return rels

    def _condition_target(self, row: list[int], cond_of: int) -> int:
        """The chain a condition word (``\\text{if}``) qualifies: the one just before it,
        alone in its row, so that what the condition applies to is never a guess."""
        tok = self.peek()
        word = self.text[tok.start:tok.end]
        if cond_of != -1:
            raise self.err(f"a second condition word {word!r} in one row", tok,
                           "list the conditions after one word, separated by commas")
        if not row:
            raise self.err(f"{word!r} with no relation before it in its row", tok,
                           "a condition follows the claim it qualifies: y = ... \\text{ if } "
                           "a = 1")
        if len(row) > 1:
            raise self.err(f"{word!r} after several relations of one row: which of them it "
                           "qualifies is ambiguous", tok,
                           "put the conditional claim on a row of its own (\\\\) or in its "
                           "own equation")
        return row[-1]

    def relation(self, cont: tuple[int, Expr, int] | None = None
                 ) -> tuple[list[RawRel], tuple[int, Expr, int] | None]:
        """One relation or chain; ``cont`` is the last member of the row it continues.

        Returns the relations and the chain's last member (token span and expression).
        An expression with no relation is returned as ``RawRel('', ...)`` when
        :attr:`bare_allowed` (the caller decides what it means) and is an error otherwise.
        """
        first = self.peek()
        assert first is not None
        mapped = self._map_definition()
        if mapped is not None:
            return [mapped], None
        start_i = self.i
        arrow = self._map_arrow() if cont is None else None
        layer_claim = False
        if cont is not None:
            bounds = [cont]
        else:
            self._function_header()
            names, head_i = self.layer_names, self.i
            if arrow is not None:  # x -> LN(x) = ...: the map's name, not the layer's output
                self.layer_names = frozenset()
            try:
                bounds = [(self.i, self.expr(), self.i)]
            finally:
                self.layer_names = names
            head = bounds[0][1]
            if arrow is not None and isinstance(head, Call) and head.func in names:
                # x -> LN(x) = ... with the block's layer named: a claim about the layer
                # (red team 13: read as a definition, a false d2l formula passed unchecked)
                self._layer_arrow(arrow, head)
                self.i = head_i
                bounds = [(self.i, self.expr(), self.i)]
                layer_claim = True
        if arrow is not None and not layer_claim:
            var, tok = arrow
            head = bounds[0][1]
            if not (isinstance(head, Call) and len(head.args) == 1 and head.batch is None
                    and isinstance(head.args[0], Name) and head.args[0].id == var
                    and self.at("=", *DEFINERS)):
                raise self.err(f"{tok.text}: a map written with an arrow is read only as a "
                               f"definition f: x \\mapsto ... or as {var} {tok.text} F({var}) = "
                               "... (d2l.ai's x \\rightarrow LN(x) = ...)", tok,
                               "a limit (\\epsilon \\to 0) is stated exactly with `given eps "
                               "== 0` in a symnorm line, or with \\mathcal N_0")
            bounds = [(start_i, head, bounds[0][2])]  # the source shows the arrow too
        ops: list[Tok] = []
        while self.at(*RELATIONS, *DEFINERS, "\\approx"):
            op = self.next()
            if op.text in ("<", ">") and self.at("="):
                raise self.err(f"'{op.text}=' is not a LaTeX relation", op,
                               "write \\le or \\ge")
            ops.append(op)
            start = self.i
            self.spaced = None
            bounds.append((start, self.expr(), self.i))
            if self.spaced is not None and self.at(*RELATIONS, *DEFINERS):
                gap = self.spaced
                raise self.err(f"a product across {gap.gap!r} between two relations", gap,
                               "two relations need a separator (',', '\\quad', '\\\\'); "
                               "for a product write \\cdot")
        if not ops:
            t = self.peek()
            if t is not None and t.text in ("\\approx", "\\simeq", "\\sim"):
                raise self.err(f"{t.text}: an approximate equality is not checked", t,
                               "state what it approximates exactly, e.g. the limit eps -> 0 "
                               "as `claim L: ... given eps == 0` in a symnorm line, or as "
                               "= with \\mathcal N_0")
            if self.bare_allowed and (t is None or t.text == "." and self.peek(1) is None):
                a, e, b = bounds[0]
                src = self.span(a, b)
                return [RawRel("", "", None, e, self.pos(self.toks[a]), src)], None
            got = "the end of the equation" if t is None else repr(t.text)
            raise self.err(f"expected a relation (=, \\neq, <, \\le, ...), got {got}",
                           t, "every part of an equation between separators must be a "
                           "relation (a formula alone is a claim about a vocabulary's output "
                           "only when it is the whole equation)")
        out = []
        for k, op in enumerate(ops):
            (a, left, _), (_, right, b) = bounds[k], bounds[k + 1]
            src = self.span(a, b)
            if op.text == "\\approx" and len(ops) > 1:
                raise self.err("\\approx inside a chain: which links are exact?", op,
                               "state the approximation as a relation of its own")
            out.append(RawRel(RELATIONS.get(op.text, "==" if op.text == "\\approx" else op.text),
                              op.text, left, right,
                              self.pos(self.toks[a]), src))
        if arrow is not None and not layer_claim:  # the map's variable: its statistics are
            out[0] = replace(out[0], map_var=arrow[0])  # the argument's
        return out, bounds[-1]

    def _layer_arrow(self, arrow: tuple[str, Tok], head: Call) -> None:
        """``x \\rightarrow LN(x) = ...`` (and ``\\operatorname{LN}: x \\mapsto ...``)
        naming the block's layer is a claim about the layer at its input x, whose statistics
        the body's names then are; on another variable the body's statistics would be the
        variable's by the arrow and x's by the block's names: refused."""
        var, tok = arrow
        arg = head.args[0] if len(head.args) == 1 else None
        if not isinstance(arg, Name) or arg.id != var or head.batch is not None:
            raise self.err(f"{tok.text}: a map written with an arrow is read only as a "
                           f"definition f: x \\mapsto ... or as {var} {tok.text} F({var}) = "
                           "... (d2l.ai's x \\rightarrow LN(x) = ...)", tok)
        if var != "x":
            raise self.err(
                f"{tok.text}: a map of the block's layer {head.func} written with an arrow on "
                f"{var}: by the arrow the body's statistics (\\hat\\mu, \\sigma) would be "
                f"those of {var}, by the block's names those of its input x: two readings",
                tok, f"write the arrow on the layer's input (x {tok.text} {head.func}(x) = "
                f"...), or {head.func}({var}) = ... without the arrow with {var}'s statistics "
                "written out (\\mathrm{E}[" + var + "])")

    def _map_arrow(self) -> tuple[str, Tok] | None:
        """``x \\rightarrow \\textrm{LN}(x) = ...`` (d2l.ai): the map sending x to LN(x),
        defined (or stated) by the relation that follows; returns (x, the arrow) after
        consuming both, or None (nothing consumed) when the relation does not start so."""
        t, a = self.peek(), self.peek(1)
        if t is not None and t.text in BOLD_MACROS and any(
                x.text in _ARROWS for x in self.toks[self.i + 1:self.i + 5]):  # \mathbf{x} \to
            start = self.i
            node = self.factor()
            if not isinstance(node, Name) or not self.at(*_ARROWS):
                self.i = start
                return None
            return node.id, self.next()
        if t is None or a is None or a.text not in _ARROWS:
            return None
        if not (len(t.text) == 1 and t.text.isalpha()) and t.text not in GREEK:
            return None
        self.i += 2
        return GREEK.get(t.text, t.text), a

    def _map_definition(self) -> RawRel | None:
        """``f: x \\mapsto ...``, ``\\mathcal N: x \\mapsto ...``: the definition
        ``f(x) := ...`` of a map by its formula (an error if the name is already defined)."""
        k = next((j for j in range(self.i, min(self.i + 8, len(self.toks)))
                  if self.toks[j].text == ":"), None)
        if k is None or not any(t.text in ("\\mapsto", "\\longmapsto")
                                for t in self.toks[k + 1:k + 12]):
            return None
        start = self.i
        head = self.factor()
        if not isinstance(head, Name) or self.i != k:
            raise self.err("the name of a map before ':' must be one name (f, \\mathcal N, "
                           "\\operatorname{LN})", self.toks[start])
        self.i = k + 1
        var_tok = self.peek()
        var = self.factor()
        if not isinstance(var, Name) or self.i != k + 2 or not self.at("\\mapsto",
                                                                     "\\longmapsto"):
            raise self.err("a map is written f: x \\mapsto ... with one variable", var_tok)
        self.i += 1
        layer = head.id in self.layer_names and self.output is not None
        if layer:  # \operatorname{LN}: x \mapsto ...: a claim about the block's layer
            self._layer_arrow((var.id, self.toks[self.i - 1]), Call(head.id, (var,), var.pos))
        body = self.expr()
        src = self.span(start, self.i)
        if layer:
            assert self.output is not None
            hp = self.pos(self.toks[start])
            self.layer_tags.add((hp.line, hp.col))
            return RawRel("==", "=", Name(self.output, hp), body, hp, src)
        self.local_fns.add(head.id)
        return RawRel(":=", "\\mapsto", Call(head.id, (var,), var.pos), body,
                      self.pos(self.toks[start]), src, map_var=var.id)

    def _function_header(self) -> None:
        """``f(x, y) = ...`` with an undefined single-letter ``f`` is a function definition."""
        toks, j = self.toks, self.i

        def text(k: int) -> str:
            return toks[k].text if k < len(toks) else ""

        first = text(j)
        if len(first) == 1 and first.isalpha():
            name = first
        elif first in GREEK:
            name = GREEK[first]
        else:
            return
        j += 1
        if text(j) == "_":
            j += 1
            if text(j) == "{":
                while j < len(toks) and text(j) != "}":
                    j += 1
            j += 1
        if text(j) != "(":
            return
        j += 1
        while len(text(j)) == 1 and text(j).isalpha() or text(j) in GREEK:
            j += 1
            if text(j) != ",":
                break
            j += 1
        if (text(j) == ")" and (text(j + 1) == "=" or text(j + 1) in DEFINERS)
                and not self.defined(name)):
            self.local_fns.add(name)

    # --- expressions ----------------------------------------------------------------------

    def expr(self) -> Expr:
        t = self.peek()
        if t is None:
            raise self.err("equation ended, expected an expression")
        with self.nest(t):
            sign = None
            if t.text in ("+", "-"):
                sign = self.next()
            node = self.term()
            if sign is not None and sign.text == "-":
                node = Neg(node, self.pos(sign))
            while True:
                if self.at("+", "-"):
                    op = self.next()
                    node = BinOp(op.text, node, self.term(), node.pos)
                elif self.signed_group():
                    node = self._continued_in_group(node)
                else:
                    return node

    def signed_group(self) -> bool:
        """Whether a braced group opening with ``+`` or ``-`` comes next (``a {+ b}``,
        ``a \\color{red}{+ b}``): after an operand TeX prints that sign as binary."""
        t, nxt = self.peek(), self.peek(1)
        return t is not None and t.text == "{" and nxt is not None and nxt.text in ("+", "-")

    def _continued_in_group(self, node: Expr) -> Expr:
        """``a {+ b - c}``: the sum ``a + b - c`` that TeX prints (the braces are invisible).

        A product after the group continues its last term, as printed: ``a {+ b} c`` is
        ``a + b c``.  A script on the group (``a {+ b}^2``) is refused: it would attach to
        the group, which prints no parentheses.
        """
        opener = self.next()
        sign = self.peek()
        assert sign is not None
        self.closers.append(None)
        try:
            while self.at("+", "-"):
                op = self.next()
                node = BinOp(op.text, node, self.term(), node.pos)
        finally:
            self.closers.pop()
        self.expect("}", opener)
        t = self.peek()
        if t is not None and t.text in ("^", "_", "'"):
            raise self.err(f"{t.text!r} on the braced group {{{sign.text} ...}} at "
                           f"{opener.line}:{opener.col}: TeX prints the group's sign as a "
                           f"binary {sign.text} and the script on the whole group", t,
                           "write a + b^2 or a + (b)^2 without the braces")
        if t is not None and (t.text in ("*", "/", "\\cdot", "\\times", "\\odot")
                              or self.starts_factor(t)):
            assert isinstance(node, BinOp)
            node = BinOp(node.op, node.left, self.term(node.right), node.pos)
        return node

    def starts_factor(self, t: Tok) -> bool:
        s = t.text
        if s in ("\\|", "|"):
            return not self.closers or self.closers[-1] != s
        if t.is_cmd:
            return s not in _NONFACTOR
        if s == "{" and t is self.peek():
            return self._group_after_operand(t)
        return s[0].isalnum() or s in ("(", "[", "{", ROOT_SIGN)

    def _group_after_operand(self, t: Tok) -> bool:
        """Whether the braced group at ``t``, after an operand, is a factor.

        TeX's braces are invisible, so a group whose content starts with an operator
        continues the formula with that operator: ``a {+ b}`` is the sum (no factor: the
        caller's :meth:`expr` reads it), and a group opening with any other operator
        (``a \\color{red}{\\cdot b}``) or nested braces around one are refused, never
        read as a product with a unary sign.
        """
        k = 1
        while (nxt := self.peek(k)) is not None and nxt.text == "{":
            k += 1
        if nxt is None or nxt.text not in LEAD_OPS:
            return True
        if k == 1 and nxt.text in ("+", "-"):
            return False
        what = "nested braces around a group" if k > 1 else "a braced group"
        raise self.err(f"{what} that starts with {nxt.text!r} after an operand: TeX prints "
                       f"{nxt.text} as a binary operator there, which this reader does not "
                       "take from inside braces", t,
                       f"write the operator outside the braces (a {nxt.text} {{b}}); a sum "
                       "may be written a {+ b}")

    def term(self, first: Expr | None = None) -> Expr:
        """A product of factors; ``first`` is its first factor when already read (the end
        of a braced group ``{+ b}`` that the product continues)."""
        node = self.factor() if first is None else first
        while (t := self.peek()) is not None:
            if t.text in ("\\cdot", "\\times", "*"):
                self.i += 1
                node = BinOp("*", node, self.factor(), node.pos, written=t.text)
            elif t.text == "\\odot":  # entrywise: hadamard(u, v) (latex_index.lower)
                self.i += 1
                node = BinOp("odot", node, self.factor(), node.pos)
                nxt = self.peek()
                if nxt is not None and self.starts_factor(nxt):
                    raise self.err(f"ambiguous operand of \\odot: a product continues with "
                                   f"{nxt.text!r}", nxt, "put the operand in parentheses: "
                                   "g \\odot (2x), or (g \\odot x) y")
            elif t.text == "/":
                self.i += 1
                node = BinOp("/", node, self.factor(), node.pos)
                nxt = self.peek()
                if nxt is not None and self.starts_factor(nxt) and nxt.text != "\\sum":
                    raise self.err(f"ambiguous product after '/': {nxt.text!r}", nxt,
                                   "write \\frac{a}{bc} or (a/b)c")
            elif self.starts_factor(t):
                if t.gap:
                    self.spaced = t
                    if t.text == "(" and self._number_in_parentheses():
                        raise self.err("a number in parentheses after a space looks like an "
                                       "equation number, not a factor", t,
                                       "number equations with \\tag{4}; for a product write "
                                       "\\cdot (4)")
                if t.text[0].isdigit():
                    raise self.err(f"number {t.text} directly after a factor", t,
                                   "write the number first (2x) or use \\cdot")
                node = BinOp("*", node, self.factor(), node.pos)
            else:
                break
        return node

    def _number_in_parentheses(self) -> bool:
        """Whether the tokens at the position are ``( digits )``."""
        toks = [self.peek(k) for k in range(3)]
        return (None not in toks and toks[1].text[0].isdigit()  # type: ignore[union-attr]
                and toks[2].text == ")")  # type: ignore[union-attr]

    def factor(self) -> Expr:
        t = self.peek()
        if t is None:
            raise self.err("equation ended, expected a factor")
        node = parse_factor(self, t)
        if at_method(self):  # x.mean(), x.var(ddof=0): latex_axes.py
            node = method_power(self, method_call(self, node, t), t)
        return node

    def number(self, single: bool = False) -> Num:
        """A literal; ``single`` takes one digit, as in ``x^23`` or ``\\frac12``."""
        t = self.next("a number")
        s = t.text
        if single and len(s) > 1:
            rest = Tok(s[1:], t.start + 1, t.end, t.line, t.col + 1)
            self.toks[self.i - 1:self.i] = [Tok(s[0], t.start, t.start + 1, t.line, t.col),
                                            rest]
            s = s[0]
        if len(s) > MAX_DIGITS:
            raise self.err(f"numeric literal with {len(s)} digits (the limit is "
                           f"{MAX_DIGITS})", t)
        return Num(Fraction(s), self.pos(t))

    def group(self, opener: Tok) -> Expr:
        """After ``(`` or ``[``: the expression and its matching closer."""
        self.closers.append(None)
        try:
            e = self.expr()
        finally:
            self.closers.pop()
        self.expect(_CLOSE[opener.text], opener)
        return e

    def delimited(self, opener: Tok, closer: str) -> Expr:
        """After ``\\|`` or ``|``: the expression up to the same delimiter."""
        self.closers.append(closer)
        try:
            e = self.expr()
        finally:
            self.closers.pop()
        self.expect(closer, opener)
        return e

    def call_args(self, opener: Tok) -> tuple[tuple[Expr, ...], tuple[Expr, ...] | None]:
        """After ``(`` of a call: ``a, b`` and optionally ``; \\{0, b\\}`` (a batch)."""
        self.closers.append(None)
        try:
            args = [self.expr()]
            while self.at(","):
                self.i += 1
                args.append(self.expr())
            batch = None
            if self.at(";"):
                self.i += 1
                if self.at("\\{", "["):
                    o = self.next()
                    items = [self.expr()]
                    while self.at(","):
                        self.i += 1
                        items.append(self.expr())
                    self.expect("\\}" if o.text == "\\{" else "]", o)
                else:
                    items = [self.expr()]
                    while self.at(","):
                        self.i += 1
                        items.append(self.expr())
                batch = tuple(items)
        finally:
            self.closers.pop()
        self.expect(")", opener)
        return tuple(args), batch

    def is_fn(self, name: str) -> bool:
        return name in self.local_fns or bool(self.is_function(name))

