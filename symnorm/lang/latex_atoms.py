"""Atoms and scripts of the LaTeX subset: one factor such as ``\\mathcal N_\\epsilon(x)^2``.

Called by :meth:`symnorm.lang.latex_parser.ExprParser.factor` with the nesting depth
already counted; every branch either consumes its tokens and returns a syntax node or
raises a :class:`SourceError` that names the token.

>>> from symnorm.lang.latex import parse_latex_equation
>>> str(parse_latex_equation(r"y = \\|Px\\|_2^2", "t", is_defined=lambda n: n in ("P", "x"))[0].body)
'norm(P * x) ** 2'
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from symnorm.errors import SourceError
from symnorm.lang.latex_accent import accented_name
from symnorm.lang.latex_axes import axis_argument, std_error
from symnorm.lang.latex_brace import BRACES, read_brace
from symnorm.lang.latex_gloss import GLOSS
from symnorm.lang.latex_implied_sum import unindexed_sum
from symnorm.lang.latex_kronecker import is_kronecker, kronecker_entry
from symnorm.lang.latex_index import (
    INDEX_LETTERS,
    LOSS,
    SUM_ENTRIES,
    ExprPartial,
    Indexed,
    IndexSum,
    MatrixEntry,
    Partial,
    term_nodes,
)
from symnorm.lang.latex_nabla import read_nabla
from symnorm.lang.latex_channel import channel_superscript
from symnorm.lang.latex_operator import operator_ahead, read_operator
from symnorm.lang.latex_onnx import ONNX_OPERATORS, onnx_identifier, read_onnx_call
from symnorm.lang.latex_output import read_layer_call, read_output_call
from symnorm.lang.latex_tensor import TENSORS, TensorEntry
from symnorm.lang.latex_rows import data_letters_ok, entry_partial
from symnorm.lang.latex_tokens import (
    ACCENTS,
    BOLD,
    BUILTIN_NAMES,
    DEFINERS,
    FRACS,
    FUNCTION_MACROS,
    GREEK,
    LEAD_OPS,
    RELATIONS,
    ROOT_SIGN,
    Tok,
)
from symnorm.lang.syntax import BinOp, Call, Expr, Name, Neg, Num, Pos, Transpose, nodes
from symnorm.lang.latex_groups import (
    IndexSet,
    entry_statistic,
    entry_variance,
    group_statistic,
    index_set,
)
from symnorm.lang.vocab import ALL_LAYER_NAMES, WORD_NAMES, WORD_STATISTICS

if TYPE_CHECKING:
    from symnorm.lang.latex_parser import ExprParser

__all__ = ["parse_factor"]

_TRANSPOSE = object()
_TRANSPOSES = ("\\top", "\\intercal", "T")
_OPNAMES = {"tr": "trace", "Tr": "trace"}
_NAMED = ("\\operatorname", "\\mathrm")
_KNOWN_HINT = ("accepted: \\frac \\sqrt \\cdot \\times \\left \\right \\| \\langle \\sum "
               "\\mathbf \\mathcal \\operatorname \\mathrm \\hat \\exp \\log, Greek letters, "
               "\\top, relations = \\neq < > \\le \\ge (see docs/latex.md)")


_ENTRYWISE = (("not read as an entrywise (Hadamard) product: it also means composition or "
               "the Kronecker product"),
              ("write \\odot for the entrywise product (hadamard(g, x), read at every d), "
               "or state the claim with a scalar gain (\\gamma \\hat x)"))
_MAP = ("a map written with an arrow is read only as a definition f: x \\mapsto ...",
        ("name the map (f: x \\mapsto ..., \\mathcal N: x \\mapsto ...) or write f(x) = ...; a limit "
         "(\\epsilon \\to 0) is stated exactly with `given eps == 0` in a symnorm line or "
         "with \\mathcal N_0"))
#: Operators sources print that have no reading here, each with its nearest accepted form.
_REFUSED_OPS = {"\\circ": _ENTRYWISE, "\\otimes": _ENTRYWISE,
                "\\mapsto": _MAP, "\\to": _MAP, "\\rightarrow": _MAP,
                "\\longmapsto": _MAP, "\\longrightarrow": _MAP}


def _letter(t: Tok | None) -> bool:
    return t is not None and len(t.text) == 1 and t.text.isalpha()


def parse_factor(p: ExprParser, t: Tok) -> Expr:
    """Parse one factor starting at token ``t`` (not yet consumed)."""
    if t.text == "\\sum":
        with p.nest(t):  # a sum's body is a term, not an expression: count it here
            return _sum(p)  # type: ignore[return-value]
    if t.text[0].isdigit():
        return _post(p, "expr", p.number(), t)
    p.i += 1
    kind, val = _atom(p, t)
    return _post(p, kind, val, t)


def _atom(p: ExprParser, t: Tok) -> tuple[str, object]:
    s, pos = t.text, p.pos(t)
    if _letter(t):
        word = _word_run(p, t)
        if word is not None:
            if word in ONNX_OPERATORS and p.at("(", "<") and not _own_word(p, word):
                return "expr", read_onnx_call(p, t, word)
            if word in PLAIN_FUNCTIONS:
                return "call", word
            return ("func" if word in ("MS", "RMS", "E", "Var") else "name"), word
        return ("I", Name("I", pos)) if s == "I" else ("name", s)
    if s in GREEK:
        return "name", GREEK[s]
    if s in ("\\src", "\\dst") and p.tensor_mode:  # oneDNN's macros for its tensors
        return "name", s[1:]
    if s in ("(", "["):
        return "expr", p.group(t)
    if s == "{":
        lead = p.peek()
        if lead is not None and (lead.text in RELATIONS or lead.text in DEFINERS):
            raise p.err(f"a braced group that starts with the relation {lead.text!r}: TeX "
                        "prints it as a relation between what comes before the braces and "
                        "their content", lead, f"write the relation outside the braces "
                        f"(a {lead.text} b); a colour may wrap a whole relation: "
                        f"\\color{{red}}{{a {lead.text} b}}")
        if lead is not None and lead.text in LEAD_OPS and lead.text not in ("+", "-"):
            raise p.err(f"a braced group that starts with {lead.text!r}: TeX prints it as "
                        "a binary operator on what comes before the braces", lead,
                        f"write the operator outside the braces (a {lead.text} {{b}})")
        p.closers.append(None)
        try:
            e = p.expr()
            if p.at("\\over"):  # plain TeX {a \over b}: the braces delimit the fraction
                p.i += 1
                den = p.expr()
                p.expect("}", t)
                return "expr", BinOp("/", e, den, pos)
        finally:
            p.closers.pop()
        if p.at(","):  # csh970605's BN{\gamma,\beta}(x_i): a subscript that lost its _
            raise p.err("a comma inside a brace group {..., ...}: TeX prints the list in "
                        "braces as written, which is no expression (a subscript that lost "
                        "its '_', BN_{\\gamma,\\beta}?)", p.peek(),
                        "write the subscript with _ (BN_{\\gamma,\\beta}), or separate "
                        "relations outside the braces")
        p.expect("}", t)
        if isinstance(e, Neg) or isinstance(e, BinOp) and e.op in ("+", "-", "/"):
            raise p.err("braces {...} around a sum or quotient are invisible in LaTeX", t,
                        "use parentheses ( ) or \\left( \\right)")
        if p.at("^", "_") and not isinstance(e, (Name, Indexed, Num, Call, MatrixEntry)):
            # {\sum_i x_i}^2, {ab}^2: TeX sets the script after the group's last symbol, so
            # the rendered formula shows x_i^2 or b^2, not a power of the whole (red team 20)
            raise p.err("a script on braces {...} around more than one symbol: the braces "
                        "are invisible in LaTeX, so the script is printed on the last symbol",
                        t, "use parentheses for a power of the whole (\\left( ... "
                        "\\right)^2), or put the script on the symbol it belongs to")
        return "expr", e
    if s == "\\|":
        return "norm", p.delimited(t, "\\|")
    if s == "|":
        size = _set_size(p)
        if size is not None:
            return "expr", size
        return "expr", Call("abs", (p.delimited(t, "|"),), pos)
    if s == "\\langle":
        p.closers.append(None)
        try:
            a = p.expr()
            p.expect(",", t)
            b = p.expr()
        finally:
            p.closers.pop()
        p.expect("\\rangle", t)
        return "expr", BinOp("*", Transpose(a, pos), b, pos)
    if s in FRACS:
        return "expr", _frac(p, t)
    if s == "\\sqrt":
        return "expr", _sqrt(p, t)
    if s == ROOT_SIGN:
        return "expr", _root_sign(p, t)
    if s in BOLD:
        word = _letter_arg(p, t)
        if s == "\\mathbb" and word == "E":  # \mathbb E[x]: the expectation (a mean)
            return "func", "E"
        if s == "\\mathbb" and word == "V" and p.at("[", "("):  # \mathbb V[x]: the variance
            return "func", "Var"
        if s == "\\mathbb" and word != "1":  # \mathbb R: sets
            raise p.err(f"\\mathbb {word} is not accepted (only \\mathbb 1, the ones "
                        "vector)", t, "write a plain name; sets (\\mathbb R) and "
                        "expectations (\\mathbb E) have no meaning in a claim")
        if word == "1":
            return "ones", Name("ones", pos)
        if word == "0":
            return "expr", Num(Fraction(0), pos)
        if word.isdigit():
            raise p.err(f"{s} {word}: only \\mathbf 1 (ones) and \\mathbf 0 are accepted", t)
        return ("I", Name("I", pos)) if word == "I" else ("name", word)
    if s in ("\\mathcal", "\\mathscr"):
        word = _letter_arg(p, t)
        if not word.isalpha() or len(word) != 1:
            raise p.err(f"{s} takes one letter", t)
        return "func", word
    if s in _NAMED:
        word = _word_arg(p, t)
        if word == "d" and s == "\\mathrm" and (frac := _slash_derivative(p, t, True)):
            return "expr", frac  # \mathrm{d}L/\mathrm{d}\beta: as dL/d\beta
        if word == "d":
            raise p.err(f"{s}{{d}} is a differential, not the dimension d", t,
                        "write d for the dimension; a derivative of the loss is read as "
                        "\\frac{\\mathrm d L}{\\mathrm d \\beta} or "
                        "\\mathrm{d}L/\\mathrm{d}\\beta, others are named "
                        "(\\frac{\\partial \\ell}{\\partial x}) or jacobian(...)")
        word = _OPNAMES.get(word, word)
        if word == "epsilon" and not p.defined(word):  # \mathrm{epsilon}: the letter's name
            word = "eps"
        elif word in WORD_STATISTICS and p.at("(", "[") and not _own_word(p, word):
            return "func", WORD_STATISTICS[word]  # \operatorname{mean}(x): E[x]
        elif not _own_word(p, word) and (spelled := p.word_name(word)) is not None:
            return "name", spelled  # \mathrm{mean}, \text{output}: the vocabulary's names
        return ("name" if len(word) == 1 or word == "eps" else "func"), word
    if s in ACCENTS:
        word = _letter_arg(p, t)
        if not word[0].isalpha():
            raise p.err(f"{s} takes a letter", t)
        return "name", accented_name(p, word, t)  # let X = x: \hat X is \hat x
    if s in FUNCTION_MACROS:
        return "call", FUNCTION_MACROS[s]
    if s == "\\nabla" and p.at("_"):  # \nabla_{g} L, \nabla_{x}: latex_nabla.py
        return "expr", read_nabla(p, t)
    if s == "\\nabla":  # XLA's \nabla y, \nabla\gamma: the adjoint, as d y, d\gamma
        if not p.differentials or not _adjacent_name(p, p.peek().start if p.peek() else -1):
            raise p.err("\\nabla: a gradient in this notation is read only where the document "
                        "declares the upstream gradient under it (`vector dy`: \\nabla y and "
                        "dy are dL/dy), and only before a name", t,
                        "declare `vector dy` for the layer's output y, or write the partial "
                        "(\\frac{\\partial \\ell}{\\partial \\gamma})")
        return "expr", _differential(p, t)
    if s == "\\partial" and p.at("("):
        return "expr", _inline_partial(p, t)
    if s == "\\partial":
        raise p.err("\\partial is accepted only as \\frac{\\partial \\ell}{\\partial z} "
                    "(a named derivative) or \\partial (..) / \\partial x_i", t)
    if s == "\\{":
        raise p.err("set braces \\{...\\} are accepted only as the batch of "
                    "\\operatorname{BN}(x;\\{...\\})", t)
    if s == "\\mathsf":
        raise p.err("\\mathsf is accepted only in the transpose ^{\\mathsf T}", t)
    if s in BRACES:
        return "expr", read_brace(p, t)
    if s == GLOSS:
        raise p.err(f"prose {p.text[t.start:t.end]!r} inside an equation", t,
                    "a gloss \\text{(...)} is read only at the start or the end of a row, "
                    "or as the label of \\underbrace{...}_{\\text{...}}")
    if s in ("\\text", "\\textrm", "\\mbox", "\\textit", "\\textbf"):
        raise p.err(f"prose {s}{{...}} inside an equation", t,
                    "move the words out of the equation; conditions go after a separator "
                    "as relations (a>0)")
    if s in _REFUSED_OPS:
        raise p.err(f"{s}: {_REFUSED_OPS[s][0]}", t, _REFUSED_OPS[s][1])
    if s in ("\\top", "\\intercal"):  # a + \top: it transposes only as a superscript
        raise p.err(f"{s} here transposes nothing: a transpose is read only as a superscript "
                    f"of its own (x^{s}, x^{{{s}}})", t, f"write (...)^{s} after what it "
                    "transposes")
    if t.is_cmd:
        raise p.err(f"unsupported LaTeX command {s}", t, _KNOWN_HINT + "; a macro of the "
                    f"source's own: define it on a line of its own before the equation "
                    f"(\\newcommand{{{s}}}{{...}}, \\DeclareMathOperator{{{s}}}{{...}})")
    raise p.err(f"unexpected {s!r}", t)


#: Words that sources print for a quantity (``momentum``, ``running\\_mean``); written as a
#: run of letters they would otherwise read as a product of single letters.
_WORDS = frozenset({"mean", "var", "variance", "std", "scale", "bias", "weight", "momentum",
                    "running", "eps", "epsilon", "gamma", "beta", "gain", "shift", "rms",
                    "norm", "out", "input", "output", "sqrt", "exp", "log", "sum", "avg",
                    "offset", "src", "dst"})


#: Words of plain-text formulas applied to a bracket whose reading is not unique (or is no
#: LaTeX symnorm reads): what each could mean, and the nearest accepted forms.  Burn's
#: ``Y = norm(X) * γ + β`` means the layer's normalization, while norm(v) is the Euclidean
#: norm in the claim language and in most mathematics; Keras's ``sum(x_i[j] for j in
#: range(k))`` is a Python generator over the entries of row i.
_WORD_READINGS = {
    "norm": ("norm(...) is the Euclidean norm \\|v\\| in the claim language and in most "
             "mathematics, while framework docs (Burn's Y = norm(X) * γ + β) print it for the "
             "layer's normalization \\hat x: two readings",
             "write \\hat x (or \\frac{x-\\mu}{\\sqrt{\\sigma^2+\\epsilon}}) for the "
             "normalization, \\|x\\| for the Euclidean norm"),
    "sum": ("a sum is read only as \\sum (a Python sum(... for j in range(k)) over a "
            "generator is not read)",
            "write \\sum_{j=1}^{k} x_j over the entries (with let k = d), "
            "\\frac{1}{k}\\sum_{j=1}^{k} x_j or mean(x) for the mean, "
            "\\frac{1}{k}\\sum_{j=1}^{k} (x_j-\\mu)^2 or var(x) for the variance"),
}


#: Functions plain-text formulas write without a backslash, always with a parenthesis
#: (ONNX's ``sqrt(variance + epsilon)``): the functions ``\sqrt``, ``\exp``, ``\log``.
PLAIN_FUNCTIONS = frozenset({"sqrt", "exp", "log"})


def _tensor_entry(p: ExprParser, name: str, t: Tok) -> Expr | None:
    """``src(t, n, c)_{}``, ``\\sigma^2(t, n)``: a tensor entry at index letters (only in an
    equation that applies src or dst, see latex_tensor.py), or None when no letter tuple
    follows the name (and its superscript)."""
    k = p.i
    sup_at = None
    if p.at("^"):  # \sigma^2(t, n): the power of the entry
        sup_at = k
        k = _after_scripts(p)
    j, letters = k, []
    if j >= len(p.toks) or p.toks[j].text != "(":
        return None
    j += 1
    while j + 1 < len(p.toks) and _letter(p.toks[j]) and p.toks[j + 1].text in (",", ")"):
        letters.append(p.toks[j].text)
        j += 2
        if p.toks[j - 1].text == ")":
            break
    else:
        return None
    if name not in TENSORS and name not in GREEK.values() and not p.defined(name):
        return None
    sup: object = None
    if sup_at is not None:
        _, sup = _scripts(p)
    p.i = j
    node = TensorEntry(name, tuple(letters), p.pos(t))
    if p.at("_") and p.peek(1) is not None and p.peek(1).text == "{" \
            and p.peek(2) is not None and p.peek(2).text == "}":  # type: ignore[union-attr]
        p.i += 3  # oneDNN's rst source writes \\src(t, n, c)_{}: an empty subscript
    _, sup2 = _scripts(p) if sup is None else (None, None)
    return _apply(node, sup if sup is not None else sup2, t, p)  # type: ignore[arg-type]


def _own_word(p: ExprParser, word: str) -> bool:
    """Whether the document defines ``word`` itself (a vocabulary's LaTeX meaning, such as
    the word ``variance``, or a built-in function such as ``mean`` is not a definition of
    the word)."""
    return p.own(word) and word not in BUILTIN_NAMES


def _joined_name(p: ExprParser, word: str, last: Tok, k: int) -> tuple[int, str] | None:
    """``running_mean``, ``sample_var`` written with a plain ``_`` (CS231n's docstrings): the
    one name ``word_letters`` when the document itself declares or defines exactly that name
    and the parts touch; (the index after it, the name) or None (then ``_`` is a subscript).
    """
    j, name, end = k, word, last.end
    found = None
    while j + 1 < len(p.toks) and p.toks[j].text == "_" and p.toks[j].start == end \
            and _letter(p.toks[j + 1]) and p.toks[j + 1].start == p.toks[j].end:
        j += 1
        name += "_"
        while j < len(p.toks) and _letter(p.toks[j]) and p.toks[j].start == p.toks[j - 1].end:
            name += p.toks[j].text
            j += 1
        end = p.toks[j - 1].end
        if p.own(name):
            found = (j, name)
    nxt = p.peek(found[0] - p.i) if found is not None else None
    if nxt is not None and nxt.start == p.toks[found[0] - 1].end and (  # type: ignore[index]
            nxt.text[0].isalnum() or nxt.text == "_"):
        return None  # running_mean_x: more of the word follows
    return found


def _word_run(p: ExprParser, t: Tok) -> str | None:
    """A multi-letter name written as letters against each other (``momentum``,
    ``running\\_mean``), or None when the letters are a product of single letters.

    A run holding ``\\_`` is always one name.  A run of plain letters is one name when the
    document defines that name, and an error when every one of its letters is defined too
    (ambiguous) or when it spells a word that sources use for a quantity but the document
    does not define (``mean`` is never m*e*a*n).  Otherwise letters are a product (``aPx``).
    """
    toks, k = [t], p.i  # t itself is consumed; k is the next token
    while (nxt := p.peek(k - p.i)) is not None and nxt.start == toks[-1].end and (
            _letter(nxt) or nxt.text == "\\_" and _letter(p.peek(k - p.i + 1))
            and p.peek(k - p.i + 1).start == nxt.end):  # type: ignore[union-attr]
        toks.append(nxt)
        k += 1
    word = "".join("_" if x.text == "\\_" else x.text for x in toks)
    after = p.peek(k - p.i)
    # ReduceMean(X), InvStdDev: latex_onnx.py; a capitalised word of the vocabulary (Output,
    # Mean) keeps its meaning there too, never an identifier the equation would define
    # (red team 17: Output = Mul(X, 2) was a definition, after which Output = Add(X, X) held)
    if getattr(p, "onnx_mode", False) and _uncapitalised(p, word, after) == word and (
            onnx := onnx_identifier(p, toks, word)) is not None:
        p.i = k
        return onnx
    if len(toks) > 1 and (joined := _joined_name(p, word, toks[-1], k)) is not None:
        p.i, word = joined  # running_mean (plain _) where the document declares that name
        return word
    word = _uncapitalised(p, word, after)
    if word in STATISTIC_WORDS and after is not None and after.text in ("[", "(") \
            and not p.defined(word):  # Var[x], MS[x], RMS(x): a statistic, applied
        if all(p.defined(x.text) for x in toks):
            raise p.err(f"{word!r} before a bracket is both a statistic and a product of "
                        "defined letters", t, f"write \\mathrm{{{word}}}[...] for the statistic "
                        "or put spaces between the letters (a\\,b) for the product")
        p.i = k
        return word
    if word in WORD_STATISTICS and after is not None and after.text in ("[", "(") \
            and not _own_word(p, word):  # mean(x^2), var(X), rms(x): the statistic, applied
        if all(p.defined(x.text) for x in toks):
            raise p.err(f"{word!r} before a bracket is both a statistic and a product of "
                        "defined letters", t, f"write \\mathrm{{{word}}}(...) for the "
                        "statistic or put spaces between the letters (a\\,b) for the product")
        p.i = k
        return WORD_STATISTICS[word]
    if word in TENSORS and p.tensor_mode and after is not None and after.text == "(":
        p.i = k  # src(t, n, c): oneDNN's tensor at the index letters (latex_tensor.py)
        return word
    if word in PLAIN_FUNCTIONS and after is not None and after.text == "(" \
            and not _own_word(p, word):  # sqrt(variance + epsilon): plain-text docstrings
        p.i = k
        return word
    if word == "epsilon" and not p.defined(word) and p.defined("eps"):
        p.i = k  # the letter epsilon spelled out (PaddlePaddle: Var(x) + epsilon)
        return "eps"
    if len(toks) == 1:
        if (nxt := p.peek()) is not None and nxt.text == "\\_":
            raise p.err("'\\_' must join letters of a name (running\\_mean)", nxt)
        return None
    if "_" in word:
        p.i = k
        return word
    if p.differentials and len(toks) == 2 and toks[0].text == "d":
        return None  # dy, dr: differential notation, read by the atom after d (the adjoint)
    if p.defined(word) and word not in BUILTIN_NAMES:  # mean, sum: functions, not names
        singles = {x.text for x in toks}
        if all(p.defined(c) for c in singles):
            raise p.err(f"{word!r} is both a defined name and a product of defined letters",
                        t, f"write \\mathrm{{{word}}} for the name or put spaces between the "
                        "letters (a\\,b) for the product")
        p.i = k
        return word
    if word in ALL_LAYER_NAMES and after is not None and after.text == "(":
        _layer_clash(p, word, t)
    if word in ALL_LAYER_NAMES and after is not None and after.text == "(" \
            and not p.own_name(word):  # RMSNorm(x): a layer's name
        p.i = k
        return word
    spelled = None if _own_word(p, word) else p.word_name(word)
    if spelled is not None:  # mean, variance, output: the vocabulary's mu, variance, y
        if all(p.defined(x.text) for x in toks):
            raise p.err(f"{word!r} is both the vocabulary's {spelled} and a product of "
                        "defined letters", t, f"write \\mathrm{{{word}}} for the word or put "
                        "spaces between the letters (a\\,b) for the product")
        p.i = k
        return spelled
    if after is not None and after.text == "(" and _CAMEL.fullmatch(word):
        # FusedActivation(...) (DirectML): an identifier, never F*u*s*e*d*A*...
        raise p.err(f"unknown function {word}: the document does not define it", t,
                    f"define it (`let {word}(y) = ...`) or write what it computes")
    if after is not None and after.text in ("(", "[") and len(toks) > 1 and any(
            word[j:] in PLAIN_FUNCTIONS or word[j:] in WORD_STATISTICS
            or word[j:] in STATISTIC_WORDS for j in range(1, len(word) - 2)):
        # rsqrt(...), xmean(...): never the letters before a function word times its call
        raise p.err(f"{word!r} before a bracket is a word the document does not define",
                    t, f"define it (`let {word}(y) = ...`), write the product with spaces "
                    "(r \\, \\sqrt{...}), or write the function it means (1/sqrt(...) for "
                    "rsqrt)")
    if word == "std":  # torch.std divides by N-1, numpy.std by N (latex_axes.py)
        raise std_error(p, t)
    if word in _WORD_READINGS and after is not None and after.text in ("(", "["):
        said, hint = _WORD_READINGS[word]
        raise p.err(f"{word!r} is written as a word: {said}", t, hint)
    if word.lower() in _WORDS or word.lower().rstrip("s") in _WORDS:
        raise p.err(f"{word!r} is written as a word but the document does not define it",
                    t, f"declare it (`scalar {word}`) or define it (`let {word} = ...`); "
                    "for the mean and variance of x write \\mathrm{E}[x], \\mathrm{Var}[x]; "
                    "a product of single letters needs spaces (a\\,b)")
    return None


#: ``FusedActivation``, ``LayerNorm``: capitalised parts joined, an identifier's spelling
_CAMEL = re.compile(r"(?:[A-Z][a-z]+){2,}")


def _uncapitalised(p: ExprParser, word: str, after: Tok | None) -> str:
    """``Output``, ``Input``, ``Mean``, ``Mean(x^2)``, ``Variance(x)`` (DirectML's operator
    page, a README): a capitalised word that sources print for a quantity or a statistic is
    that lower-case word, where the document defines neither spelling (then the word itself
    is read).  ``Var`` alone stays a word of its own (the statistic ``Var`` is read only
    applied, as ``Var[x]``)."""
    low = word.lower()
    if len(word) < 2 or not (word[0].isupper() and word[1:].islower()) or p.defined(word) \
            or _own_word(p, low):
        return word
    applied = after is not None and after.text in ("(", "[")
    if low in WORD_NAMES and low != "var" or low in WORD_STATISTICS and applied:
        return low
    return word


def _prime_count(p: ExprParser, k: int = 0) -> tuple[int, int]:
    """(primes, tokens) of a prime decoration at ``p.i + k``: ``'``, ``''``, ``^\\prime``,
    ``^{\\prime}``, ``^{\\prime\\prime}``; (0, 0) where there is none.  ``^{\\prime 2}``
    (a prime and a power in one group) is an error."""
    toks = [p.peek(k + j) for j in range(3)]
    if toks[0] is not None and toks[0].text == "'":
        n = 0
        while (tok := p.peek(k + n)) is not None and tok.text == "'":
            n += 1
        return n, n
    if toks[0] is None or toks[0].text != "^" or toks[1] is None:
        return 0, 0
    if toks[1].text == "\\prime":
        return 1, 2
    if toks[1].text != "{" or toks[2] is None or toks[2].text != "\\prime":
        return 0, 0
    n = 0
    while (tok := p.peek(k + 1 + 1 + n)) is not None and tok.text == "\\prime":
        n += 1
    close = p.peek(k + 2 + n)
    if close is None or close.text != "}":
        raise p.err("a prime and a power in one superscript (x^{\\prime 2})", toks[1],
                    "write the power outside: (x')^2 or x'^2")
    return n, n + 3


def _primed(p: ExprParser, kind: str, val: object, t: Tok) -> object:
    """``x'``, ``\\mathbf{x}^{\\prime}``: a prime is part of the name (``xprime``, as
    ``\\hat x`` is ``xhat``), distinct from the unprimed name; on anything but a name it
    is an error."""
    n, used = _prime_count(p)
    if not n:
        return val
    prime = p.peek()
    assert prime is not None
    if kind != "name":
        raise p.err(f"a prime on {t.text}: \\prime is read only as a decoration of a "
                    "name (x', \\mathbf{x}^{\\prime})", prime,
                    "a derivative is written \\frac{\\partial ...}{\\partial ...}; name "
                    "the quantity (x', y') instead")
    p.i += used
    name = str(val) + "prime" * n
    after = p.peek()
    if after is not None and after.text == "(" and not p.free_symbol(name):
        raise p.err(f"{t.text}'(...): a prime on a function is its derivative, which is not "
                    "read", prime, "write the derivative with \\frac{\\partial ...}"
                    "{\\partial ...}, or define the function f' names (`let fprime(t) = ...`)")
    return name


def _post(p: ExprParser, kind: str, val: object, t: Tok) -> Expr:
    """Scripts, calls and powers after an atom."""
    val = _primed(p, kind, val, t)
    if kind in ("name", "func") and str(val) in p.aliases:
        kind, val = "name", p.aliases[str(val)]  # let Y = y: Y is the vocabulary's y
    pos = p.pos(t)
    if kind in ("name", "func") and str(val) in _STATISTICS and p.at("[", "(") and (
            kind == "func" and val != "MS" or not p.defined(str(val))):
        return _apply(_statistic(p, str(val), t), _scripts_no_sub(p, t), t, p)
    if kind == "func" and len(str(val)) > 1 and p.at("["):
        # \mathrm{RMS}[x]: brackets apply a named function, as sources print statistics
        o = p.next()
        arg = p.group(o)
        return _apply(Call(str(val), (arg,), pos), _scripts_no_sub(p, t), t, p)
    if kind == "name" and p.tensor_mode and (entry := _tensor_entry(p, str(val), t)) is not None:
        return entry
    if kind in ("name", "func", "call"):
        name = str(val)
        after = p.peek(_after_scripts(p) - p.i)
        if (kind == "name" and after is not None and after.text == "(" and len(name) == 1
                and not p.defined(name) and name not in p.local_fns):
            raise p.err(f"unknown function {name}: declare {name} before using it", t,
                        f"define it in a symnorm block (`let {name}(y) = ...`, e.g. an "
                        "activation's formula) or in this equation "
                        f"({name}(y) = ...); declare `scalar {name}` for a product")
        if kind == "name" and name == p.output and p.at("("):
            return _apply(read_output_call(p, t, name), _scripts_no_sub(p, t), t, p)
        if name in ALL_LAYER_NAMES and p.at("("):
            _layer_clash(p, name, t)
        if name in ALL_LAYER_NAMES and p.at("(") and not p.own_name(name):
            layer = read_layer_call(p, t, name)  # \mathrm{RMSNorm}(x): the output
            if layer is not None:
                return _apply(layer, _scripts_no_sub(p, t), t, p)
        if (kind == "name" and after is not None and after.text == "(" and not p.is_fn(name)
                and name not in p.local_fns and name != "d" and p.is_dimension(name)):
            # use rmsnorm's N(2x): a count of d before a bracket is never a silent product
            raise p.err(f"{t.text}(...): {name} is a name of the dimension d here, and sources "
                        f"write {t.text}(v) for a function's value at v (layernorm's N(x)), so "
                        "it is not read as a product", t,
                        f"for the product write {t.text} \\cdot (...); for a map, use the "
                        "vocabulary that has it or define it (`let F(y) = ...`)")
        if (kind == "name" and after is not None and after.text == "(" and not p.is_fn(name)
                and name not in p.local_fns and not p.free_symbol(name)
                and not p.is_dimension(name) and not _transposed(p)
                and not (is_kronecker(p, name) and p.at("_"))):
            # J^\top (\gamma \odot dy): a transpose before the bracket is a matrix's, so
            # a product (a function's value is transposed after its call, f(v)^\top)
            raise p.err(f"{t.text}(...): {name} is not a declared symbol (scalar, vector, "
                        f"matrix), and sources write {t.text}(v) for a quantity's value at v, "
                        "so it is not read as a product", t,
                        f"for a product write {t.text} \\cdot (...); for the statistic of "
                        "another vector write it out (\\frac{1}{d}\\sum_i v_i, "
                        "\\mathrm{E}[v], \\mathrm{Var}[v])")
        if after is not None and after.text == "(" and (kind != "name" or p.is_fn(name)):
            params: tuple[str, ...] = ()
            bind: tuple[tuple[str, Expr], ...] = ()
            base: Expr | None = None
            if p.at("_"):  # an expression: N_0, N_{2\epsilon}, \log_2
                params, bind, base = _call_subscript(p, name, t, kind == "call")
            if not p.at("("):
                bad = p.peek()
                raise p.err(f"{bad.text if bad else ''!r} before the arguments of {name}",
                            bad, "write (f(x))^2 for a power; one subscript at most")
            o = p.next()
            args, batch = p.call_args(o)
            call = Call(name, args, pos, batch, params, bind)
            if base is not None:  # \log_b(x) = log(x)/log(b)
                call = BinOp("/", call, Call("log", (base,), pos), pos)
            sub2, sup2 = _scripts(p)
            if sub2 is not None:
                raise p.err(f"subscript after the arguments of {name}", t)
            return _apply(call, sup2, t, p)
    start = p.i
    sub, sup = _scripts(p)
    sup = _name_superscript(p, kind, val, sup, start, t)
    if kind in ("name", "func", "call"):
        name = str(val)
        if name == "d" and kind == "name" and sub is None:  # dx, d^2x: not d*x
            if sup is None and (frac := _slash_derivative(p, t)) is not None:
                return frac  # dE/dX: the derivative, read as \frac{\partial E}{\partial X}
            if sup is None and p.differentials and _adjacent_name(p, p.toks[p.i - 1].end):
                return _differential(p, t)  # the document declared dy: d\hat x is an adjoint
            _not_differential(p, t, p.toks[p.i - 1].end)
        if kind == "call":
            raise p.err(f"{t.text} needs a parenthesized argument", t, f"write {t.text}(x)")
        node = _named(p, name, sub, t)
        variance = entry_variance(p, node, sup, t)  # GroupNorm: sigma^2 is i's group's
        return variance if variance is not None else _apply(node, sup, t, p)
    if sub is not None:
        allowed = {"I": ["d"], "ones": ["d"], "norm": ["2"]}.get(kind)
        # \mathbf{1}_N, I_m: the size written with a name the document defines as d
        size = kind in ("I", "ones") and len(sub) == 1 and p.is_dimension(sub[0])
        if sub != allowed and not size:
            what = {"I": "I_d", "ones": "\\mathbf 1_d", "norm": "\\|y\\|_2"}.get(kind)
            size_hint = " or a name the document defines as the dimension (`let N = d` " \
                "before \\mathbf 1_N)" if kind in ("I", "ones") else ""
            raise p.err(f"subscript _{','.join(sub)} is not accepted here", t,
                        f"only {what}{size_hint}" if what else "subscripts belong to names")
    node = Call("norm", (val,), pos) if kind == "norm" else val
    return _apply(node, sup, t, p)  # type: ignore[arg-type]


#: ``E[x]``, ``\\mathrm{E}[x]``, ``\\mathbb{E}[x]``, ``\\mathrm{Var}[x]``,
#: ``\\operatorname{Var}(x)``, ``\\mathbb{V}[x]``, ``\\mathrm{MS}[x]`` (the mean square)
_STATISTICS = ("E", "Var", "MS")
#: Words that mean a statistic when an application bracket follows them (``Var[x]``,
#: ``RMS[x]``); a bare word stays an error unless the document defines it.
STATISTIC_WORDS = frozenset({"Var", "MS", "RMS"})


def _statistic(p: ExprParser, name: str, t: Tok) -> Expr:
    """The mean or the biased variance of the entries of a vector, brackets as application.

    ``E[x]`` is ``mean(x)``; ``Var[x]`` is ``(x - mean(x)*ones).T*(x - mean(x)*ones)/d`` (the
    population variance, dividing by d, as the frameworks normalize).
    """
    o = p.next()
    p.closers.append(None)
    try:
        arg = p.expr()
    finally:
        p.closers.pop()
    if p.at(","):  # Mean(X, axes), mean[data, axis]: the axis, checked (latex_axes.py)
        axis_argument(p, p.text[t.start:o.start].strip(), "]" if o.text == "[" else ")")
    else:
        p.expect("]" if o.text == "[" else ")", o)
    pos = p.pos(t)
    grouped = group_statistic(p, name, arg, t)  # GroupNorm: the statistic of i's group
    if grouped is not None:
        return grouped
    if name == "MS":  # the mean of the entrywise squares (of a vector only: resolved by shape)
        sq = BinOp("**", arg, Num(Fraction(2), pos), pos)
        return BinOp("/", Call(SUM_ENTRIES, (sq,), pos), Name("d", pos), pos)
    mean = Call("mean", (arg,), pos)
    if name == "E":  # E[x^2]: the mean of the entrywise squares (resolved by shape later)
        return mean
    dev = BinOp("-", arg, BinOp("*", mean, Name("ones", pos), pos), pos)
    return BinOp("/", BinOp("*", Transpose(dev, pos), dev, pos), Name("d", pos), pos)


def _scripts_no_sub(p: ExprParser, t: Tok) -> object:
    sub, sup = _scripts(p)
    if sub is not None:
        raise p.err(f"subscript after {t.text}[...]", t)
    return sup


def _after_scripts(p: ExprParser) -> int:
    """Index of the first token after the scripts at the current position (a lookahead).

    A wrong guess only sends the input to the branch that will refuse it, never past it.
    """
    k = p.i
    while (tok := p.peek(k - p.i)) is not None and tok.text in ("_", "^", "'"):
        k += 1
        tok = p.peek(k - p.i)
        if tok is not None and tok.is_cmd and tok.text not in GREEK:  # \mathcal{B}, \top
            k += 1
            tok = p.peek(k - p.i)
            if tok is None or tok.text != "{":
                k += 1 if tok is not None and _letter(tok) else 0
                continue
        if tok is not None and tok.text == "{":
            depth = 0
            while (tok := p.peek(k - p.i)) is not None:
                depth += {"{": 1, "}": -1}.get(tok.text, 0)
                k += 1
                if depth == 0:
                    break
        elif tok is not None and tok.text != "'":
            k += 1
    return k


def _call_subscript(p: ExprParser, name: str, t: Tok, builtin: bool
                    ) -> tuple[tuple[str, ...], tuple[tuple[str, Expr], ...], Expr | None]:
    r"""The subscript of a called function, as (names, fixed values, log base).

    ``N_\epsilon``/``BN_{\gamma,\beta}`` name parameters (the function must use them);
    ``N_0``, ``N_{2\epsilon}`` fix eps inside the call; ``N_{\epsilon=\delta}`` fixes a named
    parameter; ``\log_b`` is the base b.  Everything else in the subscript is an error.
    """
    u = p.expect("_")
    items: list[tuple[str | None, Expr]] = []
    if p.at("{"):
        o = p.next()
        p.closers.append(None)
        try:
            items.append(_binding(p))
            while p.at(","):
                p.i += 1
                items.append(_binding(p))
        finally:
            p.closers.pop()
        p.expect("}", o)
    else:
        k = p.peek()
        single = _single_atom(p, k) if k is not None else None
        if single is None:
            raise p.err(f"subscript {k.text if k else ''!r} on {name}: write _{{...}}", u)
        items.append((None, single))
    if builtin:
        if name == "log" and len(items) == 1 and items[0][0] is None:
            return (), (), items[0][1]
        raise p.err(f"subscript on {t.text} is not accepted", u,
                    "only \\log_b (the base b) takes a subscript")
    names = tuple(e.id for k, e in items if k is None and isinstance(e, Name))
    values = [e for k, e in items if k is None and not isinstance(e, Name)]
    bind = tuple((k, e) for k, e in items if k is not None)
    if values:
        if len(values) > 1 or names or bind:
            raise p.err(f"subscript of {name}: at most one value (it replaces eps)", u,
                        "name the parameter: _{\\epsilon=0}")
        v = values[0]
        if not (_is_number(v) or any(isinstance(n, Name) and n.id == "eps"
                                     for n in nodes(v))):
            raise p.err(f"subscript {v} of {name}: a value subscript is a number or a "
                        "multiple of eps (it replaces eps)", u,
                        "name the parameter it sets: _{\\epsilon=...}")
        bind = (("eps", v),)
    if len({k for k, _ in bind}) != len(bind):
        raise p.err(f"subscript of {name} fixes a parameter twice", u)
    return names, bind, None


def _is_number(e: Expr) -> bool:
    return isinstance(e, Num) or isinstance(e, Neg) and isinstance(e.operand, Num)


def _binding(p: ExprParser) -> tuple[str | None, Expr]:
    r"""One item of a function's subscript: ``\epsilon``, ``2\epsilon`` or ``\epsilon=0``."""
    first = p.peek()
    e = p.expr()
    if not p.at("="):
        return None, e
    if not isinstance(e, Name):
        raise p.err("only a parameter name can stand left of '=' in a subscript", first)
    p.i += 1
    return e.id, p.expr()


def _adjacent_name(p: ExprParser, end: int) -> bool:
    r"""Whether a name starts directly at ``end`` (``d\hat x``, ``dy_i``, ``d\sigma^2``)."""
    nxt = p.peek()
    return nxt is not None and nxt.start == end and (
        _letter(nxt) or nxt.text in GREEK or nxt.text in ACCENTS or nxt.text in BOLD)


def _slash_derivative(p: ExprParser, t: Tok, upright: bool = False) -> Expr | None:
    r"""``dE/dX``, ``dL/dx_i``, ``dE/dY``: a derivative printed as a plain-text fraction
    (issue threads, docstrings: Caffe's ``dE/dX = ...``), read exactly as
    ``\frac{\partial E}{\partial X}`` (a :class:`Partial`): the declared upstream gradient
    ``dE_dY`` (or ``dy`` in differential notation) itself, or the adjoint through the layer;
    without such a declaration the equation reader refuses it, naming the line to add.

    Only ``d`` written against one letter (or Greek letter), an optional one-token
    subscript, ``/`` and again ``d`` against a letter: None (nothing consumed) otherwise.
    ``upright``: the d is ``\mathrm{d}`` (``\mathrm{d}L/\mathrm{d}\beta``), on both sides;
    it is no dimension, so a space may follow it.  A power after the variable
    (``dL/d\sigma^2``) is refused: the derivative by the power, or the power of the derivative.
    """
    toks = p.toks
    k = p.i

    def name_at(j: int, end: int | None) -> tuple[str, str | None, int] | None:
        if j >= len(toks) or end is not None and toks[j].start != end:
            return None
        tok = toks[j]
        if _letter(tok) and len(tok.text) == 1:
            base = tok.text
        elif tok.text in GREEK:
            base = GREEK[tok.text]
        else:
            return None
        j += 1
        if j + 1 < len(toks) and toks[j].text == "_" and (
                _letter(toks[j + 1]) or toks[j + 1].text.isdigit()):
            return base, toks[j + 1].text, j + 2
        return base, None, j

    num = name_at(k, None if upright else toks[k - 1].end)
    if num is None:
        return None
    j = num[2]
    n = _d_tokens(p, j + 1 - p.i) if j < len(toks) and toks[j].text == "/" else 0
    if not n or (n > 1) != upright:  # the same d above and below the slash
        return None
    var = name_at(j + 1 + n, None if upright else toks[j + n].end)
    if var is None:
        return None
    p.i = var[2]
    if p.at("^"):
        written = p.text[t.start:toks[var[2] - 1].end]
        power = p.peek(1)
        shown = power.text if power is not None else ""
        top = p.text[toks[k].start:toks[num[2] - 1].end]
        below = p.text[toks[j + 1 + n].start:toks[var[2] - 1].end]
        raise p.err(f"{written}^{shown}: a plain-text d-fraction followed by a superscript is "
                    f"not read (the derivative by {below}^{shown}, or the power of "
                    f"{written}: two readings)", p.peek(),
                    f"write \\frac{{\\partial {top}}}{{\\partial {below}^{shown}}} for the "
                    f"derivative by {below}^{shown}")

    def entry(base: str, sub: str | None) -> tuple[str, str | None]:
        if sub is None or sub in INDEX_LETTERS or sub in p.sum_letters:
            return base, sub
        return f"{base}_{sub}", None

    (a, ai), (b, bi) = entry(num[0], num[1]), entry(var[0], var[1])
    node: Any = Partial(a, ai, None, b, bi, None, p.pos(t), slash=True)
    return node


def _differential(p: ExprParser, t: Tok) -> Expr:
    r"""``d\hat x_i``, ``d\sigma^2``, ``dy_i`` where the document opts in (it declares the
    upstream gradient ``dy``): the adjoint of the loss by that quantity, a
    :class:`Partial` in differential notation resolved by the equation reader."""
    start = p.peek()
    base = _plain_name(p)
    sub, sup = _scripts(p)
    if sup is not _TRANSPOSE and sup is not None and not (
            isinstance(sup, Num) and sup.value.denominator == 1):
        raise p.err(f"d{base}: in differential notation the quantity may carry only a digit "
                    "exponent (d\\sigma^2) or a transpose (dy^\\top)", start or t,
                    "name the power")
    two = "".join(sub) if sub is not None and all(len(s) == 1 for s in sub) else ""
    if len(two) == 2 and data_letters_ok(two, p.defined) and p.data_row(base) \
            and sup is None:
        # CS182's dy_{i,j}: the adjoint of an entry of a data matrix (latex_row_partials.py)
        return Partial(LOSS, None, None, base, two, None, p.pos(t), differential=True)
    if sub is not None and len(sub) != 1:
        raise p.err(f"comma in the subscript of d{base}", start or t)
    index = sub[0] if sub is not None and (sub[0] in INDEX_LETTERS
                                           or sub[0] in p.sum_letters) else None
    name = base if sub is None or index is not None else f"{base}_{sub[0]}"
    power = int(sup.value) if isinstance(sup, Num) else None
    node: Any = Partial(LOSS, None, None, name, index, power, p.pos(t), differential=True)
    if sup is _TRANSPOSE:  # dy^\\top \\hat x: the transposed adjoint
        return Transpose(node, p.pos(t))
    return node


def _not_differential(p: ExprParser, t: Tok, end: int) -> None:
    """``dx``, ``dy_i``, ``d\\sigma`` look like differentials: never a silent product with d.

    The dimension d written directly against a name (no space) is refused; ``d s^3`` or
    ``d\\,s^3`` (space between) and ``d \\cdot s`` are products.
    """
    nxt = p.peek()
    if nxt is None or nxt.start != end or not p.starts_factor(nxt):
        return
    if _letter(nxt) or nxt.text in GREEK or nxt.text in ACCENTS or nxt.text in BOLD \
            or nxt.text in ("\\partial", "\\mathcal", "\\mathrm", "\\operatorname"):
        raise p.err(f"'d{nxt.text}' looks like a differential", t,
                    f"for the product of the dimension d and {nxt.text} write 'd {nxt.text}' "
                    f"(with a space) or 'd \\cdot {nxt.text}'; derivatives are named "
                    "(\\frac{\\partial \\ell}{\\partial y_i}) or jacobian(...)")


def _names_of(e: object) -> set[str]:
    return {n.id for n in nodes(e) if isinstance(n, Name)}  # type: ignore[arg-type]


def _named(p: ExprParser, name: str, sub: list[str] | None, t: Tok) -> Expr:
    pos = p.pos(t)
    if sub is None:
        return Name(name, pos)
    if is_kronecker(p, name):  # \delta_{ik}, \delta_{i,k}: latex_kronecker.py
        return kronecker_entry(p, sub, t)  # type: ignore[return-value]
    if len(sub) == 2 and all(len(s) == 1 for s in sub):
        # A_{i,j}, x_{i,j}: a comma between two index letters is the entry (i, j), read as
        # A_{ij} is (a matrix's entry, a data matrix's row and column); anything else stays
        # the error below
        entry = _matrix_entry(p, name, sub[0] + sub[1], pos)
        if entry is not None:
            return entry
    if len(sub) != 1:
        raise p.err(f"comma in the subscript of {name}", t)
    if sub[0] in INDEX_LETTERS or sub[0] in p.sum_letters:
        stat = entry_statistic(p, name, sub[0], t)  # \mu_i: the statistic of i's group
        if stat is not None:
            return stat
        return Indexed(name, sub[0], pos)  # type: ignore[return-value]
    entry = _matrix_entry(p, name, sub[0], pos)
    if entry is not None:
        return entry
    full = f"{name}_{sub[0]}"
    # \sigma_{batch} with `let sigma_batch = sigma`: the alias of a LaTeX-only meaning is
    # that meaning, as the alias written without a subscript is (_post)
    return Name(p.aliases.get(full, full), pos)


def _matrix_entry(p: ExprParser, name: str, sub: str, pos: Pos) -> Expr | None:
    r"""``A_{ij}``, ``\delta_{ij}``, a data matrix's ``h_{pl}``: entry (i, j) of a matrix
    (latex_matrix.py, latex_rows.py), or None where the two letters are no such entry."""
    letters = INDEX_LETTERS + tuple(p.sum_letters)
    if len(sub) == 2 and sub[0] != sub[1] and not p.defined(f"{name}_{sub}") and (
            all(c in letters for c in sub)
            or data_letters_ok(sub, p.defined) and p.data_row(name)):
        return MatrixEntry(name, sub[0], sub[1], pos)  # type: ignore[return-value]
    return None


def _apply(node: Expr, sup: object, t: Tok, p: ExprParser) -> Expr:
    if sup is None:
        return node
    if sup is _TRANSPOSE:
        return Transpose(node, p.pos(t))
    return BinOp("**", node, sup, p.pos(t))  # type: ignore[arg-type]


def _scripts(p: ExprParser) -> tuple[list[str] | None, object]:
    sub: list[str] | None = None
    sup: object = None
    while p.at("_", "^", "'"):
        if _prime_count(p)[0]:
            t = p.peek()
            assert t is not None
            raise p.err("a prime here is not a name's decoration (after a subscript, a "
                        "power or a group)", t, "write the prime right after the name: "
                        "x'_i, x^{\\prime}_i")
        t = p.next()
        if t.text == "_":
            if sub is not None:
                raise p.err("double subscript", t)
            sub = _sub_arg(p)
        else:
            if sup is not None:
                raise p.err("double superscript", t, "use braces: x^{a^b}")
            sup = _sup_arg(p, t)
    return sub, sup


def _sub_item(p: ExprParser, single: bool) -> str:
    t = p.peek()
    if t is None:
        raise p.err("equation ended inside a subscript")
    if t.text[0].isdigit():
        if "." in t.text:
            raise p.err("decimal point in a subscript", t)
        return str(p.number(single=single))
    p.i += 1
    if _letter(t):
        return t.text
    if t.text in GREEK:
        return GREEK[t.text]
    if t.text in ("\\mathcal", "\\mathscr", "\\mathbf", "\\mathrm", "\\mathsf",
                  "\\operatorname"):
        return _word_arg(p, t)
    raise p.err(f"{t.text!r} in a subscript", t,
                "subscripts hold letters, digits and Greek letters")


def _sub_arg(p: ExprParser) -> list[str]:
    if not p.at("{"):
        return [_sub_item(p, single=True)]
    o = p.next()
    words = [""]
    while not p.at("}"):
        if p.at(","):
            p.i += 1
            words.append("")
        else:
            words[-1] += _sub_item(p, single=False)
    p.expect("}", o)
    if not all(words):
        raise p.err("empty subscript", o)
    return words


def _single_atom(p: ExprParser, t: Tok) -> Expr | None:
    """An unbraced one-token argument (``x^2``, ``\\frac12``): a digit or a letter."""
    if t.text[0].isdigit():
        return p.number(single=True)
    if _letter(t) or t.text in GREEK:
        p.i += 1
        return Name(GREEK.get(t.text, t.text), p.pos(t))
    return None


def _ambiguous_t(p: ExprParser, t: Tok) -> None:
    """``^T`` (or ``^{T}``) where the document declares or defines a name ``T``: a power and
    a transpose are both readings, so neither is chosen."""
    if t.text == "T" and p.defined("T"):
        raise p.err("'^T' is ambiguous here: T is a name of this document, so it reads both "
                    "as the power (...)^T and as a transpose", t,
                    "write ^\\top (or ^\\intercal) for the transpose, and ^{(T)} or **T "
                    "in a symnorm block for the power")
def _sup_arg(p: ExprParser, caret: Tok) -> object:
    t = p.peek()
    if t is None:
        raise p.err("equation ended after '^'", caret)
    if t.text in _TRANSPOSES:
        _ambiguous_t(p, t)
        p.i += 1
        return _TRANSPOSE
    if t.text == "\\mathsf":
        p.i += 1
        if _word_arg(p, t) != "T":
            raise p.err("\\mathsf is accepted only in the transpose ^{\\mathsf T}", t)
        return _TRANSPOSE
    if t.text == "{":
        a, b = p.peek(1), p.peek(2)
        if a is not None and b is not None and a.text in _TRANSPOSES and \
                b.text in _TRANSPOSES and not p.defined("T"):  # with a name T: a power T*T
            raise p.err(f"a superscript {{{a.text}{b.text}}} (two transposes in one group) is "
                        "not read", b, "a double transpose is written (x^\\top)^\\top")
        if a is not None and a.text in _TRANSPOSES and b is not None and b.text == "}":
            _ambiguous_t(p, a)
            p.i += 3
            return _TRANSPOSE
        if a is not None and a.text == "\\mathsf":
            p.i += 2
            if _word_arg(p, a) != "T":
                raise p.err("\\mathsf is accepted only in the transpose ^{\\mathsf T}", a)
            p.expect("}", t)
            return _TRANSPOSE
        _transpose_inside(p, t)
        p.i += 1
        return p.group(t)
    single = _single_atom(p, t)
    if single is not None:
        return single
    raise p.err(f"superscript {t.text!r} must be one letter or digit or a group {{...}}", t)


def _transpose_inside(p: ExprParser, o: Tok) -> None:
    """Refuse ``x^{(k)\\top}``, ``x^{2\\top}``: a transpose in a superscript group beside
    other content (a channel, a power) is no superscript of its own, so it is not read; the
    group's own text is named, with the accepted form."""
    depth, k = 0, p.i
    while k < len(p.toks):
        s = p.toks[k].text
        depth += {"{": 1, "}": -1}.get(s, 0)
        if depth == 0:
            break
        if depth == 1 and s in ("\\top", "\\intercal"):
            rest = [x for x in p.toks[p.i + 1:k]]
            inner = p.text[rest[0].start:rest[-1].end] if rest else ""
            if not inner:  # x^{\top 2}: the transpose first, then more
                raise p.err(f"{s} with more after it in one superscript: a transpose is read "
                            f"only as a superscript of its own (x^{s}, x^{{{s}}})", p.toks[k],
                            f"write (x^{s})^2 for a power of the transpose")
            raise p.err(f"{s} after {inner} in one superscript {{{inner}{s}}}: a transpose is "
                        f"read only as a superscript of its own (x^{s}, x^{{{s}}})",
                        p.toks[k], f"write the superscript {inner} first and transpose the "
                        f"result: (x^{{{inner}}})^{s}")
        k += 1


def _letter_arg(p: ExprParser, cmd: Tok, nested: bool = False) -> str:
    """The argument of ``\\mathbf``, ``\\hat``...: one letter, digit or Greek letter."""
    braced = p.at("{")
    o = p.next() if braced else cmd
    t = p.peek()
    if t is None:
        raise p.err(f"{cmd.text} without an argument", cmd)
    if t.text[0].isdigit():
        word = str(p.number(single=True))
    else:
        p.i += 1
        if _letter(t):
            word = t.text
        elif t.text in GREEK:
            word = GREEK[t.text]
        elif t.text in BOLD and not nested:
            word = _letter_arg(p, t, nested=True)
        else:
            raise p.err(f"{cmd.text} takes one letter, digit or Greek letter, got {t.text!r}",
                        t)
    if braced:
        p.expect("}", o)
    return word


def _word_arg(p: ExprParser, cmd: Tok) -> str:
    """The argument of ``\\operatorname``/``\\mathrm``: letters and digits, braced."""
    if not p.at("{"):
        t = p.next(f"an argument of {cmd.text}")
        if not _letter(t):
            raise p.err(f"{cmd.text} takes a braced name", t)
        return t.text
    o = p.next()
    word = ""
    while not p.at("}"):
        t = p.next("'}'")
        if t.text == "\\_" and word:  # \mathrm{running\_mean}
            word += "_"
            continue
        if not (t.text.isalnum() and t.text.isascii()):
            raise p.err(f"{t.text!r} inside {cmd.text}{{...}}", t,
                        "only letters and digits form a name")
        word += t.text
    p.expect("}", o)
    if not word or not word[0].isalpha() or word.endswith("_"):
        raise p.err(f"{cmd.text}{{{word}}} is not a name", cmd)
    return word


def _arg(p: ExprParser, cmd: Tok) -> Expr:
    """A macro argument: ``{expr}`` or one letter, digit or Greek letter."""
    t = p.peek()
    if t is None:
        raise p.err(f"{cmd.text} is missing an argument", cmd)
    if t.text == "{":
        p.i += 1
        return p.group(t)
    single = _single_atom(p, t)
    if single is not None:
        return single
    raise p.err(f"{cmd.text} needs braced arguments, got {t.text!r}", t,
                f"write {cmd.text}{{...}}")


def _frac(p: ExprParser, t: Tok) -> Expr:
    nxt = p.peek(1)
    if operator_ahead(p):  # \frac{\partial}{\partial x_i}(..): the operator applied
        return read_operator(p, t)
    if p.at("{") and nxt is not None and nxt.text == "\\partial":
        return _derivative(p, t)
    if _leibniz(p):
        return _upright_derivative(p, t)
    num = _arg(p, t)
    den = _arg(p, t)
    return BinOp("/", num, den, p.pos(t))


def _name_superscript(p: ExprParser, kind: str, val: object, sup: object, start: int,
                      t: Tok) -> object:
    """The superscript just read on an atom (tokens ``start`` to ``p.i``), with the channel
    superscript (``x^{(k)}``, latex_channel.py) and the document's layer letter (``a^l``)
    dropped: both name the one channel or layer modelled, never a power.  The same rule
    holds after ``\\partial`` (``\\partial\\gamma^{(k)}``, ``\\partial y_i^l``)."""
    sup = channel_superscript(p, kind, val, sup, start, t)  # x^{(k)}: latex_channel.py
    if p.layer is not None and sup is not None and sup is not _TRANSPOSE:
        if isinstance(sup, Name) and sup.id == p.layer:
            if kind != "name" or str(val) == "d":
                # 2^l, (1+\epsilon)^l, \|x\|^{(l)}, d^l: a layer index names a quantity of
                # the layer; on anything else it would be an exponent dropped unread
                raise p.err(f"superscript {p.layer} on {t.text}: the layer index "
                            f"{p.layer} belongs to a name (a^{p.layer}, \\mu^{p.layer})", t,
                            "write the layer on the names inside (\\sigma^l, x_i^l); for a "
                            f"power use another letter than the layer {p.layer}")
            sup = None  # a^l: the one layer the document models, no exponent
        elif p.layer in _names_of(sup):
            raise p.err(f"superscript {sup}: only the layer {p.layer} itself is modelled "
                        f"(a^{p.layer}, a^{{({p.layer})}})", t,
                        "other layers (l+1, l-1) are not: state the claim at one layer")
    if isinstance(sup, Name) and len(sup.id) == 1 and not p.defined(sup.id):
        raise p.err(f"superscript {sup.id} is not a defined name: a layer index (a^l, "
                    "a^{(l)}) is read only after the document declares its layer", t,
                    f"declare `layer {sup.id}` in a symnorm block (a_i^{sup.id}, "
                    f"\\mu^{{({sup.id})}} are then the one layer the document models), or "
                    f"define {sup.id} if it is an exponent")
    return sup


def _d_tokens(p: ExprParser, k: int) -> int:
    """How many tokens spell an upright or italic d at ``p.i + k`` (``d``, ``\\mathrm d``,
    ``\\mathrm{d}``), 0 if none."""
    a = p.peek(k)
    if a is not None and a.text == "d":
        return 1
    if a is not None and a.text == "\\mathrm":
        b, c = p.peek(k + 1), p.peek(k + 2)
        if b is not None and b.text == "d":
            return 2
        if b is not None and b.text == "{" and c is not None and c.text == "d":
            nxt = p.peek(k + 3)
            return 4 if nxt is not None and nxt.text == "}" else 0
    return 0


#: what may follow the d of a denominator ``{d ..}`` in a derivative: a factor written
#: against it (never an operator, a script or the end of the group: ``\\frac{d}{d+1}``,
#: ``\\frac{d^2}{d^2+1}``, ``\\frac{d \\cdot a}{d \\cdot b}`` are quotients)
_AFTER_D = ("(", "[", "{", "\\mathcal", "\\mathscr", "\\mathrm", "\\operatorname",
            "\\partial")


def _leibniz(p: ExprParser) -> bool:
    """``\\frac{d..}{d..}`` whose denominator's d is written against a factor
    (``\\frac{d}{dx}``, ``\\frac{dL}{d\\hat x_i}``, ``\\frac{d \\mu}{d (\\mu)}``): a
    derivative, never a quotient of products with the dimension d."""
    if not p.at("{") or not _d_tokens(p, 1):
        return False
    k, depth = 1, 1  # find the denominator's opening brace
    while depth and (tok := p.peek(k)) is not None:
        depth += {"{": 1, "}": -1}.get(tok.text, 0)
        k += 1
    den = p.peek(k)
    if den is None or den.text != "{":
        return False
    n = _d_tokens(p, k + 1)
    var = p.peek(k + 1 + n) if n else None
    return var is not None and (_letter(var) or var.text in GREEK or var.text in ACCENTS
                                or var.text in BOLD or var.text in _AFTER_D)


def _upright_derivative(p: ExprParser, t: Tok) -> Expr:
    """``\\frac{dL}{d\\gamma}``, ``\\frac{d\\ell}{d\\hat x_i}``, ``\\frac{\\mathrm{d}
    \\mathcal L}{\\mathrm{d} \\sigma^2}``: a :class:`Partial` written with d (``upright``),
    which the equation reader reads only when the numerator is the loss.  Any other shape
    (the operator ``\\frac{d}{dx}``, ``\\frac{d^2 y}{dx^2}``, an expression after d) is
    refused here: it is no quotient of products with the dimension d either."""

    def operand(o: Tok) -> tuple[str, str | None, int | None]:
        p.i += _d_tokens(p, 0)
        nxt = p.peek()
        if nxt is None or not (_letter(nxt) or nxt.text in GREEK or nxt.text in ACCENTS
                               or nxt.text in BOLD or nxt.text in ("\\mathcal", "\\mathscr")):
            raise _not_upright(p, t)
        try:
            got = _operand_name(p, o)
        except SourceError as exc:
            raise SourceError("derivative notation: " + exc.message.replace("\\partial", "d"),
                              exc.file, exc.line, exc.column, exc.hint) from None
        if not p.at("}"):
            raise _not_upright(p, t)
        p.i += 1
        return got

    o = p.next()
    num, num_index, num_power = operand(o)
    o2 = p.expect("{")
    var, var_index, var_power = operand(o2)
    node: Any = Partial(num, num_index, num_power, var, var_index, var_power, p.pos(t),
                        upright=True)
    return node


def _not_upright(p: ExprParser, t: Tok) -> SourceError:
    return p.err("derivative notation \\frac{d}{dx} is not accepted in this form: an upright-d "
                 "fraction is read only as \\frac{dL}{dv}, a name L (the loss) by a name v, "
                 "never as a quotient of products with the dimension d", t,
                 "name the derivative (\\frac{\\partial \\ell}{\\partial x}), use jacobian(...) "
                 "in a symnorm line, or write d \\cdot ... for the product with the dimension")


def _sqrt(p: ExprParser, t: Tok) -> Expr:
    n = 2
    if p.at("["):
        o = p.next()
        k = p.peek()
        if k is None or not k.text.isdigit():
            raise p.err("\\sqrt[n] needs a whole number n", k or o)
        n = int(p.number().value)
        p.expect("]", o)
        if n < 2:
            raise p.err(f"\\sqrt[{n}] is not a root", o)
    if n == 2 and p.at("("):  # \sqrt(Var(x) + eps) (PaddlePaddle): the root of the group
        o = p.next()
        body = p.group(o)
        if p.at("^", "_"):
            raise p.err("a script after \\sqrt(...): is it on the root or on the group?",
                        p.peek(), "write \\sqrt{...}^2 or \\sqrt{(...)^2}")
        return Call("sqrt", (body,), p.pos(t))
    body = _arg(p, t)
    if n == 2:
        return Call("sqrt", (body,), p.pos(t))
    q = p.pos(t)
    return BinOp("**", body, BinOp("/", Num(Fraction(1), q), Num(Fraction(n), q), q), q)


def _root_sign(p: ExprParser, t: Tok) -> Expr:
    """``√x``, ``√2``, ``√(Var(x) + ε)``, ``√{..}`` (plain-text formulas): the root of the
    next letter, number or bracketed group.  Where the sign could reach further it is
    refused, never guessed: before a product (``√ab``: √(ab) or (√a)b), a script (``√x^2``,
    ``√x_i``: on the root or on its argument) or ``[`` (a root index, as \\sqrt[n], or a
    bracket)."""
    a = p.peek()
    if a is None:
        raise p.err("\u221a is missing an argument", t)
    if a.text in ("(", "{"):
        p.i += 1
        body = p.group(a)
    elif a.text[0].isdigit():
        body = p.number()
    elif _letter(a) or a.text in GREEK:
        p.i += 1
        body = Name(GREEK.get(a.text, a.text), p.pos(a))
    else:
        raise p.err(f"\u221a before '{a.text}': the sign is read only before a letter, a "
                    "number or a bracketed group", a, "write \u221a(...) or \\sqrt{...}")
    nxt = p.peek()
    if nxt is not None and nxt.text in ("^", "_", "'"):
        raise p.err(f"a script after \u221a{p.text[a.start:nxt.start].strip()}: on the root "
                    "or on its argument? Two readings", nxt,
                    "write \u221a(x^2) or (\u221ax)^2")
    if nxt is not None and a.text not in ("(", "{") and p.starts_factor(nxt):
        first = p.text[a.start:p.toks[p.i - 1].end]
        end = _factor_end(p)  # the whole next factor (√9, \frac{a}{b}), not its first token
        rest, shown = p.text[nxt.start:end], p.text[a.start:end]
        raise p.err(f"\u221a before the product {shown}: the root of the product or the "
                    "root of its first factor times the rest? Two readings", nxt,
                    f"write \u221a({shown}) or (\u221a{first}) {rest}")
    return Call("sqrt", (body,), p.pos(t))


def _factor_end(p: ExprParser) -> int:
    """Where the factor at the current position ends in the text (a lookahead for a
    message: the position is restored; a factor that does not parse shows one token)."""
    at, toks = p.i, list(p.toks)
    try:
        p.factor()
        end = p.toks[p.i - 1].end
    except (SourceError, RecursionError):
        end = toks[at].end
    finally:
        p.i, p.toks[:] = at, toks
    return end


def _plain_name(p: ExprParser) -> str:
    """The name after ``\\partial`` (or a differential's d), with its primes (``x'_i``,
    ``\\mathbf{x}^{\\prime}_i`` name ``xprime``, as in an expression)."""
    name = _plain_base(p)
    n, used = _prime_count(p)
    p.i += used
    name += "prime" * n
    return p.aliases.get(name, name)  # let x' = y: the partial is by (of) the output


def _plain_base(p: ExprParser) -> str:
    t = p.next("a name")
    if _letter(t):
        return t.text
    if t.text in GREEK:
        return GREEK[t.text]
    if t.text in ACCENTS:
        return accented_name(p, _letter_arg(p, t), t)
    if t.text in BOLD:
        return _letter_arg(p, t)
    if t.text in _NAMED:  # \partial \text{rstd}: the word, as it reads in an expression
        word = _word_arg(p, t)
        if word == "epsilon" and not p.defined(word):
            return "eps"
        spelled = None if _own_word(p, word) else p.word_name(word)
        return spelled if spelled is not None else word
    raise p.err(f"expected a name after \\partial, got {t.text!r}", t)


def _derivative(p: ExprParser, t: Tok) -> Expr:
    """``\\frac{\\partial \\ell}{\\partial \\hat x_i}``: a :class:`Partial`, resolved by the
    equation reader (a jacobian, the chain rule through a declared upstream gradient, or
    the derivative's name ``dl_dxhat``)."""
    o = p.next()
    if p.peek(1) is not None and p.peek(1).text == "(":  # type: ignore[union-attr]
        return _fraction_of_bracket(p, t, o)
    num, num_index, num_power = _partial_operand(p, o)
    _operand_ends(p, o, num)
    o2 = p.expect("{")
    var, var_index, var_power = _partial_operand(p, o2)
    _operand_ends(p, o2, var)
    node: Any = Partial(num, num_index, num_power, var, var_index, var_power, p.pos(t))
    return node  # resolved by the equation reader, like Indexed


def _operand_ends(p: ExprParser, o: Tok, name: str) -> None:
    """The ``}`` after a partial's operand; a factor there (vishal's ``\\partial \\gamma
    \\hat{x_i}``) makes the derivative by a product, which is named as such."""
    nxt = p.peek()
    if nxt is not None and nxt.text != "}" and (_letter(nxt) or nxt.text in GREEK
                                                 or nxt.text in ACCENTS or nxt.text in BOLD):
        a = p.i
        while a > 0 and p.toks[a - 1] is not o:
            a -= 1
        b, depth = p.i, 0
        while b < len(p.toks) and (depth or p.toks[b].text != "}"):
            depth += {"{": 1, "}": -1}.get(p.toks[b].text, 0)
            b += 1
        shown = " ".join(p.span(a, b).split())
        raise p.err(f"{{{shown}}}: a partial by (or of) a product ({name} times what follows "
                    "it, an intermediate named by its formula) is not read", nxt, "name the intermediate in a symnorm block (let z = ...) "
                    "and write \\frac{\\partial C}{\\partial z}, or differentiate by one "
                    "name")
    p.expect("}", o)


def _bracket_entry(p: ExprParser, t: Tok) -> tuple[Expr, str]:
    """The parenthesised numerator of ``\\partial (x_j - \\mu)``: an entry with one free
    index letter, and that letter."""
    o = p.next()
    num = p.group(o)
    out: list[str] = []
    _free_letters(num, out)
    if len(set(out)) != 1:
        raise p.err("\\partial (..): the parenthesised numerator must be an entry with one "
                    f"free index letter (it has {', '.join(dict.fromkeys(out)) or 'none'})",
                    t, "write \\partial (x_j - \\mu) / \\partial x_i")
    return num, out[0]


def _fraction_of_bracket(p: ExprParser, t: Tok, o: Tok) -> Expr:
    """``\\frac{\\partial (x_k - \\mu)}{\\partial x_j}`` (Shreyansh Singh's post): exactly
    the inline ``\\partial (x_k - \\mu) / \\partial x_j``, an :class:`ExprPartial`.  The
    bracket must be the whole numerator: a script or a factor after it (``\\partial
    (x_k-\\mu)^2``, ``\\partial (x_k-\\mu) \\gamma``) would leave open whether the
    derivative is of the bracket or of the whole product, so it is refused."""
    d = p.next()  # \partial
    num, letter = _bracket_entry(p, d)
    nxt = p.peek()
    if nxt is not None and nxt.text != "}":
        raise p.err(f"{nxt.text!r} after the bracket in \\frac{{\\partial (..) ...}}: the "
                    "derivative of the bracket, or of the bracket with what follows it? Two "
                    "readings", nxt, "write \\frac{\\partial (...)}{\\partial x_j} with the "
                    "whole quantity inside the brackets")
    p.expect("}", o)
    o2 = p.expect("{")
    var, var_index, var_power = _partial_operand(p, o2)
    _operand_ends(p, o2, var)
    if var_index is None or var_power is not None:
        raise p.err(f"\\frac{{\\partial (..)}}{{\\partial {var}}}: a bracketed numerator is "
                    "read only differentiated by an entry of a declared vector (\\partial "
                    f"x_j), not by {var}", o2, "name the quantity in a symnorm block (let z = "
                    "...) and differentiate the name, or write \\frac{\\partial (x_k - \\mu)}"
                    "{\\partial x_j}")
    return ExprPartial(num, letter, var, var_index, p.pos(t))  # type: ignore[return-value]


def _inline_partial(p: ExprParser, t: Tok) -> Expr:
    """``\\partial (x_j - \\mu) / \\partial x_i`` (a Lean blueprint's inline form): the
    parenthesised entry differentiated by an entry of a variable, an :class:`ExprPartial`
    (the whole ``\\partial (..) / \\partial x_i``, so the ``/`` is the derivative's)."""
    num, letter = _bracket_entry(p, t)
    p.expect("/", t)
    d = p.peek()
    if d is None or d.text != "\\partial":
        raise p.err("\\partial (..) / must be followed by \\partial and the variable", t)
    var, var_index, var_power = _partial_operand(p, d)
    if var_index is not None and len(var_index) == 2:
        msg, hint = entry_partial(var, var_index)
        raise p.err(msg, d, hint)
    if var_index is None or var_power is not None:
        raise p.err(f"\\partial (..) / \\partial {var}: the inline form differentiates by an "
                    "entry of a variable (\\partial x_i)", d)
    return ExprPartial(num, letter, var, var_index, p.pos(t))  # type: ignore[return-value]


def _free_letters(e: object, out: list[str]) -> None:
    if isinstance(e, Indexed):
        out.append(e.index)
    elif isinstance(e, ExprPartial):
        out += [e.num_index, e.var_index]
    elif isinstance(e, MatrixEntry):
        out += [e.row, e.col]
    elif isinstance(e, IndexSum):
        out.append("<sum>")
    elif isinstance(e, BinOp):
        _free_letters(e.left, out)
        _free_letters(e.right, out)
    elif isinstance(e, (Neg, Transpose)):
        _free_letters(e.operand, out)
    elif isinstance(e, Call):
        for a in e.args:
            _free_letters(a, out)


def _partial_operand(p: ExprParser, o: Tok) -> tuple[str, str | None, int | None]:
    """``\\partial \\hat x_i``, ``\\partial\\sigma^2_\\mathcal{B}``: (name, index, power)."""
    p.expect("\\partial")
    return _operand_name(p, o)


def _operand_name(p: ExprParser, o: Tok) -> tuple[str, str | None, int | None]:
    """The name after ``\\partial`` (or a derivative's d): (name, index, power)."""
    at = p.i
    if p.at("\\mathcal", "\\mathscr"):  # \partial\mathcal L: the loss written calligraphic
        k = p.next()
        base = _letter_arg(p, k)
    else:
        base = _plain_name(p)
    bt = p.toks[at]
    start = p.i
    sub, sup = _scripts(p)
    sup = _name_superscript(p, "name", base, sup, start, bt)  # \partial\gamma^{(k)}, y_i^l
    if sup is _TRANSPOSE or sup is not None and not (
            isinstance(sup, Num) and sup.value.denominator == 1):
        raise p.err("an operand of \\partial may carry only a digit exponent (\\sigma^2), "
                    "the channel superscript of use batchnorm (\\gamma^{(k)}) or the "
                    "document's layer letter (y_i^l, after `layer l`)", o)
    two = "".join(sub) if sub is not None and all(len(s) == 1 for s in sub) else ""
    if len(two) == 2 and data_letters_ok(two, p.defined) and p.data_row(base):
        # \partial \hat X_{ij}, \partial y_{i,j}: an entry of a data matrix, its two letters
        # kept as the index (read one vector at a time, latex_row_partials.py)
        power = int(sup.value) if isinstance(sup, Num) else None
        return base, two, power
    if sub is not None and len(sub) != 1:
        raise p.err(f"comma in the subscript of {base}", o)
    index = sub[0] if sub is not None and sub[0] in INDEX_LETTERS else None
    name = base if sub is None or index is not None else f"{base}_{sub[0]}"
    power = int(sup.value) if isinstance(sup, Num) else None
    # \partial\sigma^2_\phi with `let sigma_phi = sigma`: the vocabulary's node
    return p.aliases.get(name, name), index, power


def _sum(p: ExprParser) -> IndexSum:
    """``\\sum_i``, ``\\sum_{i=1}^{m}``, ``\\sum_{i=0}^{d-1}``: a sum over every entry.

    The bounds must say "all d entries": an upper bound is ``d`` or a name the document
    defines as d (``let m = d``); a sum over part of the vector is refused, naming the bound.
    """
    t = p.next()
    if p.at("\\limits", "\\nolimits"):  # where the bounds are typeset: no meaning
        p.i += 1
    index = None
    element: str | None = None  # \sum_{x \in \mathcal B}: the element's name
    within: str | None = None  # \sum_{k\in\mathcal S_i}: the selector of i's group
    over_set = False
    lower_bound = 1
    upper: tuple[Tok, bool] | None = None  # the bound's token, and whether it was N-1
    seen: set[str] = set()
    while p.at("_", "^"):
        s = p.next()
        if s.text in seen:
            raise p.err(f"double {s.text} on \\sum", s)
        seen.add(s.text)
        braced = p.at("{")
        o = p.next() if braced else s
        k = p.next("a sum index" if s.text == "_" else "an upper bound")
        if s.text == "_" and braced and (member := _set_member(p, k)) is not None:
            if isinstance(member, IndexSet):  # \sum_{k\in\mathcal S_i}: latex_groups.py
                if k.text not in INDEX_LETTERS:
                    _other_index(p, k)
                index, within, over_set = member.index, member.select, True
            else:
                # \sum_{x\in\mathcal B}: every entry of x, as the entry x_i (an indexed
                # entry written in the body besides is then an error: one index per sum)
                element, lower_bound, index = member, 1, "i"
        elif s.text == "_" and p.tensor_mode and braced and _letter(k) and not p.at("="):
            # \sum_{nhw}: the letters of a tensor's vector index (latex_tensor.py checks them)
            index = _letter_run(p, k)
            p.i += len(index) - 1
        elif s.text == "_" and p.tensor_mode and not braced and _letter(k):
            index = k.text  # \sum_c over a tensor's index c
        elif s.text == "_":
            if k.text not in INDEX_LETTERS:
                _other_index(p, k)
            if p.at("'"):  # \sum_{c'=...}: a window of entries, not every entry
                raise p.err(f"sum index {k.text}': a decorated index (a prime) is not a sum "
                            "over every entry", p.peek(),
                            "write \\sum_{i=1}^d with a plain index letter")
            index = k.text
            if braced and p.at("="):
                p.i += 1
                lo = p.next("a lower bound")
                if lo.text not in ("0", "1"):
                    raise p.err(f"sum from {lo.text}: only sums over every entry (from 1 to "
                                "d, or from 0 to d-1) are accepted", lo)
                lower_bound = int(lo.text)
        else:
            upper = (k, _upper_bound(p, k, braced))
        if braced and s.text == "_" and index is not None and p.peek() is not None \
                and _letter(p.peek()):  # type: ignore[arg-type]
            two = index + p.peek().text  # type: ignore[union-attr]
            raise p.err(f"\\sum_{{{two}}}: a sum over two indices {index} and "
                        f"{p.peek().text} (a double sum over the entries of a data matrix) "  # type: ignore[union-attr]
                        "is not read", k, "write the sum for one vector of the layer, "
                        "with one index (\\sum_{i=1}^d)")
        if braced:
            p.expect("}", o)
    if index is None and not seen:  # \sum x^2, \sum {o_k^2}: latex_implied_sum.py
        return unindexed_sum(p, t)  # type: ignore[return-value]
    if index is None:
        raise p.err("\\sum needs an index: \\sum_i or \\sum_{i=1}^d", t)
    if (element is not None or over_set) and upper is not None:
        raise p.err("a sum over a set takes no upper bound", t)
    if upper is not None and upper[1] != (lower_bound == 0):
        k, minus = upper
        raise p.err(f"\\sum from {lower_bound} to {GREEK.get(k.text, k.text)}"
                    f"{'-1' if minus else ''} is not every entry", k,
                    "write \\sum_{i=1}^d or \\sum_{i=0}^{d-1}")
    if p.tensor_mode and [x.text for x in p.toks[p.i:p.i + 5]] == ["{", "}", "_", "{", "}"]:
        p.i += 5  # {}_{}: oneDNN's rst source puts an empty atom before the summand
    sign = p.next() if p.at("+", "-") else None
    p.sum_letters.append(index)  # x_r in the body of \sum_r is entry r
    try:
        body: object = p.term()
    finally:
        p.sum_letters.pop()
    if sign is not None and sign.text == "-":
        body = Neg(body, p.pos(sign))  # type: ignore[arg-type]
    if element is not None:
        if any(isinstance(n, Indexed) for n in term_nodes(body)):
            raise p.err(f"an indexed entry inside a sum over {element} in a set", t,
                        f"write the element itself: \\sum_{{{element}\\in\\mathcal B}} {element}")
        body = _index_element(body, element, index)
        if not any(isinstance(n, Indexed) for n in term_nodes(body)):
            raise p.err(f"the sum over {element} in a set does not use {element}", t)
    return IndexSum(index, body, p.pos(t), within)


def _other_index(p: ExprParser, k: Tok) -> None:
    """A sum index other than i, j, k (``\\sum_r^n x_r``, ``\\sum_{c}``): any letter that
    means nothing else here, bound to the sum; a letter the document declares or defines,
    the dimension d, the layer letter or an index of an enclosing sum is an error."""
    if not _letter(k):
        raise p.err(f"sum index {k.text!r}: an index is one letter", k,
                    "write \\sum_i or \\sum_{i=1}^d")
    why = ("the dimension" if k.text == "d" else "the layer index" if k.text == p.layer
           else "the index of an enclosing sum" if k.text in p.sum_letters
           else "a name of the document" if p.defined(k.text) or k.text in p.local_fns
           else "")
    if why:
        raise p.err(f"sum index {k.text!r} is {why}, so x_{k.text} would not be the sum's "
                    "entry", k, "use another index letter (i, j, k)")


def _set_size(p: ExprParser) -> Expr | None:
    """``|\\mathcal B|`` with the vocabulary's mini-batch B: its size, the dimension d."""
    texts = [x.text for x in p.toks[p.i:p.i + 6]]
    for pattern in (["\\mathcal", "B", "|"], ["\\mathcal", "{", "B", "}", "|"]):
        if texts[:len(pattern)] == pattern and "B" in p.sets and not p.defined("B"):
            at = p.toks[p.i]
            p.i += len(pattern)
            return Name("d", p.pos(at))
    return None


def _set_member(p: ExprParser, k: Tok) -> str | IndexSet | None:
    """``\\sum_{x \\in \\mathcal B}``: the element's name when the set is one the vocabulary
    names (``use batchnorm``: the mini-batch B holds the entries of x); None when the
    subscript is not ``name \\in set``.  Any other set is an error naming it."""
    j = p.i
    name = k.text if _letter(k) else None
    if k.text in BOLD and p.peek() is not None:  # \mathbf{x}, \mathbf x
        if p.at("{") and _letter(p.peek(1)) and p.peek(2) is not None \
                and p.peek(2).text == "}":  # type: ignore[union-attr]
            name, j = p.peek(1).text, p.i + 3  # type: ignore[union-attr]
        elif _letter(p.peek()):
            name, j = p.peek().text, p.i + 1  # type: ignore[union-attr]
    if name is None or j >= len(p.toks) or p.toks[j].text != "\\in":
        return None
    p.i = j + 1
    s = p.next("a set")
    if s.text in ("\\mathcal", "\\mathscr"):
        word = _letter_arg(p, s)
    elif _letter(s):
        word = s.text
    else:
        raise p.err(f"a sum over {s.text!r}: only the mini-batch \\mathcal B is a set here", s)
    over = index_set(p, k, word, s)  # \mathcal S_i, the entries of i's group
    if over is not None:
        return over
    if p.sets.get(word) != name or p.defined(word):
        raise p.err(f"a sum over the set {word}: sums over sets are not modelled", s,
                    "write \\sum_{i=1}^m x_i; with `use batchnorm`, "
                    "\\sum_{x\\in\\mathcal B} runs over the mini-batch")
    return name


def _index_element(e: object, name: str, index: str) -> object:
    """The body of a sum over a set with the element ``name`` written as its entry."""
    if isinstance(e, Name) and e.id == name:
        return Indexed(name, index, e.pos)
    if isinstance(e, BinOp):
        return BinOp(e.op, _index_element(e.left, name, index),  # type: ignore[arg-type]
                     _index_element(e.right, name, index), e.pos)  # type: ignore[arg-type]
    if isinstance(e, Neg):
        return Neg(_index_element(e.operand, name, index), e.pos)  # type: ignore[arg-type]
    if isinstance(e, Transpose):
        return Transpose(_index_element(e.operand, name, index), e.pos)  # type: ignore[arg-type]
    if isinstance(e, Call):
        return Call(e.func, tuple(_index_element(a, name, index) for a in e.args),  # type: ignore[misc]
                    e.pos, e.batch, e.params, e.bind)
    return e


def _letter_run(p: ExprParser, k: Tok) -> str:
    """The letters written against each other from the consumed token ``k`` on."""
    word, end, j = k.text, k.end, 0
    while _letter(nxt := p.peek(j)) and nxt.start == end:  # type: ignore[union-attr]
        word += nxt.text  # type: ignore[union-attr]
        end = nxt.end  # type: ignore[union-attr]
        j += 1
    return word if _letter(k) else k.text


def _bound_text(p: ExprParser, k: Tok) -> str:
    """The text of a braced bound from its first token ``k`` (consumed) to its closing brace
    (``N+1`` of ``^{N+1}``): a message names the bound written, not its first letter."""
    depth, j, last = 1, p.i, k
    while j < len(p.toks):
        depth += {"{": 1, "}": -1}.get(p.toks[j].text, 0)
        if depth == 0:
            break
        last = p.toks[j]
        j += 1
    return p.text[k.start:last.end]


def _upper_bound(p: ExprParser, k: Tok, braced: bool) -> bool:
    """The upper bound must be the length d of the vectors: ``d``, ``m`` with m = d, ``d-1``.

    Returns whether it was written ``N-1`` (then the sum must start at 0).
    """
    name = GREEK.get(k.text, k.text)
    whole = _bound_text(p, k) if braced else k.text  # ^{N+1}: the bound as written
    if not (_letter(k) or k.text in GREEK):
        raise p.err(f"upper bound {whole!r} of \\sum: a sum runs over all d entries", k,
                    "write ^d (or a name defined as d: let m = d)")
    run = _letter_run(p, k)
    flat = "".join(whole.split())
    if flat not in (run, name, f"{run}-1", f"{name}-1", f"{k.text}-1"):
        said = f" ({name} is d here, so {whole} is not)" if p.is_dimension(name) else ""
        raise p.err(f"upper bound {whole} of \\sum: a sum runs over all d entries{said}", k,
                    "write ^d, or ^{d-1} for a sum from 0")
    if len(run) > 1 and p.is_dimension(run):  # \sum_{i=1}^{NHW}: a size name of d
        p.i += len(run) - 1
        p.dims_used.add(run)
        return False
    p.dims_used.add(name)
    if not p.is_dimension(name):
        shown = run if len(run) > 1 else name
        said = f"upper bound {shown} of \\sum is not" if flat in (run, name) else \
            f"upper bound {whole} of \\sum: {shown} is not"
        raise p.err(f"{said} the dimension d", k,
                    f"the sum runs over all d entries of the vectors; write ^d, or define "
                    f"{shown} as d first (let {shown} = d) if it is; the vocabularies name "
                    "the count m, NHW (batchnorm), n (rmsnorm), H or D (layernorm)")
    minus = braced and p.at("-")
    if minus:
        p.i += 1
        one = p.next("1")
        if one.text != "1":
            raise p.err(f"upper bound {name}-{one.text} of \\sum: only {name}-1 after a sum "
                        "from 0", one)
    return minus


def _layer_clash(p: Any, name: str, t: Any) -> None:
    """Refuse the block's layer name where the document defined it while no vocabulary named
    that layer: the vocabulary gives it the layer's meaning here, the definition another
    (red team 13: an earlier block's definition of LN silently replaced the layer)."""
    line = p.layer_clash(name)
    if line is not None:
        raise p.err(f"{name}(...) names this block's layer, and the document defined {name} "
                    f"itself on line {line}, where no vocabulary named a layer {name}: two "
                    "meanings of one name", t,
                    "rename the document's function (`let F(t) = ...`, \\mathcal F), or "
                    "write the layer's formula in this block")


def _transposed(p: Any) -> bool:
    """Whether the scripts at the current position are a transpose alone (``^\\top``,
    ``^T``, ``^{\\top}``, ``^\\intercal``) right before a bracket."""
    texts = [t.text if t is not None else "" for t in (p.peek(k) for k in range(5))]
    if texts[:1] != ["^"]:
        return False
    if texts[1] in ("\\top", "\\intercal", "T"):
        return texts[2] == "("
    return texts[1] == "{" and texts[2] in ("\\top", "\\intercal", "T") and texts[3] == "}" \
        and texts[4] == "("
