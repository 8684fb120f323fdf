"""What the LaTeX reader learns from the document: kinds, shapes, vocabulary conventions.

:func:`latex_env` wraps a :class:`~symnorm.lang.context.Scope` in the
:class:`~symnorm.lang.latex.LatexEnv` the reader takes, so the reader itself never imports
the scope.  Shapes are asked of the expanded expression; a name the scope does not know
(yet) makes the shape unknown, and an unknown shape changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import LimitError, SourceError
from .latex import LatexEnv, names_in
from .parser import parse_expression
from .syntax import Expr, Name, Pos
from .vocab import LATEX_FUNCTIONS, LATEX_PLAIN_OUTPUT, LATEX_SETS, latex_conventions

if TYPE_CHECKING:
    from .context import Scope

__all__ = ["latex_env"]

_SHAPES = {"scalar": "scalar", "vector": "column", "row vector": "row", "matrix": "matrix"}


def latex_env(scope: Scope) -> LatexEnv:
    """The reader's view of ``scope`` (the vocabularies in force and the declared names)."""
    texts, affine, output = latex_conventions(list(scope.vocabs), scope.elementwise)
    meanings = {n: parse_expression(t, "<vocabulary>") for n, t in texts.items()}

    def kind(name: str) -> str | None:
        for k, table in (("scalar", scope.scalars), ("vector", scope.vectors),
                         ("matrix", scope.matrices)):
            if name in table:
                return k
        if name in scope.lets:
            return "function" if scope.lets[name].stmt.params else "let"
        return None

    def shape(e: Expr) -> str | None:
        placeholders = {a: Name(a, Pos(1, 1)) for a in affine if kind(a) is None}
        try:
            sh = scope.shape(scope.expand(e, placeholders))
        except (SourceError, LimitError, RecursionError, TypeError):
            return None
        return _SHAPES.get(sh)

    def reaches(e: Expr) -> set[str] | None:
        placeholders = {a: Name(a, Pos(1, 1)) for a in affine if kind(a) is None}
        try:
            return names_in(scope.expand(e, placeholders))
        except (SourceError, LimitError, RecursionError, TypeError):
            return None

    functions = {name: (param, parse_expression(body, "<vocabulary>"))
                 for v in scope.vocabs for name, (param, body) in LATEX_FUNCTIONS.get(v, {}).items()}
    plain = {LATEX_PLAIN_OUTPUT[v] for v in scope.vocabs if v in LATEX_PLAIN_OUTPUT}
    plain_output = parse_expression(plain.pop(), "<vocabulary>") if len(plain) == 1 \
        and output in meanings else None
    def vocab_let(name: str) -> bool:
        let = scope.lets.get(name)
        return let is not None and not let.stmt.params and name in meanings \
            and str(let.stmt.body) == str(meanings[name])

    def alias(name: str) -> str | None:
        let = scope.lets.get(name)
        if let is None or let.stmt.params or not isinstance(let.expanded, Name):
            return None
        target = let.expanded.id
        return target if target in scope.vectors or target in scope.scalars else None

    return LatexEnv(kind=kind, alias=alias, shape=shape, meanings=meanings, affine=affine, output=output,
                    plain_output=plain_output, vocab_let=vocab_let,
                    vectors=lambda: tuple(scope.vectors), functions=functions,
                    layer=scope.layer, dimension=scope.d_value,
                    reaches=reaches,
                    sets={k: v for voc in scope.vocabs for k, v in LATEX_SETS.get(voc, {}).items()})
