"""Subscripts on a called function: ``\\mathcal N_\\epsilon(x)``, ``\\mathcal N_0(x)``.

A subscript on a function call either names a parameter the function already depends on
(``params``: ``N_\\epsilon`` is N as defined, and it is an error if N does not use eps) or
fixes a parameter inside this one application (``bind``: ``N_0(x)`` is N(x) with eps = 0,
``N_{2\\epsilon}(x)`` is N(x) with eps replaced by 2 eps).  The value replaces the parameter
only in the expansion of this call: the arguments and the rest of the claim keep their eps.
Nothing is dropped: a subscript the function cannot take is an error that names it.

The expansion works on placeholders: the function is expanded with its arguments replaced by
fresh names, the parameter is looked up among the symbols the expansion uses, and then the
parameter and the placeholders are replaced in one simultaneous substitution.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..errors import SourceError
from .syntax import BinOp, Call, Expr, Name, Neg, Pos, Transpose, VectorLit, nodes

if TYPE_CHECKING:
    from .context import Scope

__all__ = ["check_parameters", "expand_subscripted"]

_HOLE = "#arg"  # never a name of the claim language or of LaTeX


def expand_subscripted(scope: Scope, e: Call, local: dict[str, Expr],
                       count: list[int]) -> Expr:
    """Expand ``e`` (which carries ``params`` or ``bind``) or raise SourceError."""
    def err(msg: str, hint: str = "") -> SourceError:
        return SourceError(msg, scope.file, e.pos.line, e.pos.col, hint)

    written = ", ".join([*e.params, *(f"{k}={v}" for k, v in e.bind)])
    is_let_fn = e.func in scope.lets and bool(scope.lets[e.func].stmt.params)
    if not (is_let_fn or e.batch is not None):
        if e.func in scope.lets or e.func in ("sqrt", "abs", "exp", "log", "trace",
                                              "jacobian", "hadamard", "diag", "norm", "sum",
                                              "mean"):
            raise err(f"subscript _{{{written}}} on {e.func}() is not accepted",
                      f"{e.func} has no parameter a subscript could select")
        scope.expand(replace(e, params=(), bind=()), local, count)  # its own error
        raise err(f"subscript _{{{written}}} on {e.func}()")  # pragma: no cover
    args = e.args + (e.batch or ())
    holes = {f"{_HOLE}{i}": Name(f"{_HOLE}{i}", e.pos) for i in range(len(args))}
    inner = Call(e.func, tuple(holes.values())[:len(e.args)], e.pos,
                 tuple(holes.values())[len(e.args):] if e.batch is not None else None)
    body = scope.expand(inner, {**local, **holes}, count)
    used = {n.id for n in nodes(body) if isinstance(n, Name)}
    for p in e.params:
        if p not in used:
            raise err(f"subscript {p} on {e.func}: {e.func} does not depend on {p}",
                      f"a subscript on a function names a parameter it uses (or fixes eps: "
                      f"{e.func}_0, {e.func}_{{2\\epsilon}}); remove the subscript")
    mapping: dict[str, Expr] = {h: scope.expand(a, local, count)
                                for h, a in zip(holes, args)}
    for k, v in e.bind:
        if k not in used:
            raise err(f"subscript {k}={v} on {e.func}: {e.func} does not depend on {k}",
                      "only a parameter the function uses can be fixed by a subscript")
        if k not in scope.scalars:
            raise err(f"subscript {k}={v} on {e.func}: {k} is not a declared scalar")
        if any(isinstance(n, Call) and n.func == "jacobian" and n.args[1] == Name(k, e.pos)
               for n in nodes(body)):
            raise err(f"subscript {k}={v} on {e.func}: {e.func} differentiates with respect "
                      f"to {k}, so {k} cannot be fixed inside it")
        mapping[k] = scope.expand(v, local, count)
    return _substitute(body, mapping)


def _substitute(e: Expr, mapping: dict[str, Expr]) -> Expr:
    """Replace names simultaneously in an expanded expression (shared subtrees once)."""
    memo: dict[int, Expr] = {}

    def rec(x: Expr) -> Expr:
        key = id(x)
        if key in memo:
            return memo[key]
        if isinstance(x, Name):
            out: Expr = mapping.get(x.id, x)
        elif isinstance(x, BinOp):
            out = BinOp(x.op, rec(x.left), rec(x.right), x.pos)
        elif isinstance(x, Neg):
            out = Neg(rec(x.operand), x.pos)
        elif isinstance(x, Transpose):
            out = Transpose(rec(x.operand), x.pos)
        elif isinstance(x, VectorLit):
            out = VectorLit(tuple(rec(i) for i in x.items), x.pos)
        elif isinstance(x, Call):
            args = tuple(rec(a) for a in x.args)
            if x.func == "jacobian":  # the variable stays a name (checked above)
                args = (args[0], x.args[1])
            out = Call(x.func, args, x.pos)
        else:
            out = x
        memo[key] = out
        return out

    return rec(e)


def check_parameters(scope: Scope, name: str, params: tuple[str, ...], body: Expr,
                     pos: Pos) -> None:
    """A function's body must use each parameter, and only as its parameter.

    ``c = Px`` in one equation and ``N(x) = c/...`` in a later one would make N use the
    document's x whatever its argument: the body is expanded with each parameter replaced by
    a fresh name, and a parameter's own name left over (it came in through a definition) is
    an error, as is a parameter the body never uses.
    """
    holes = {p: Name(f"#param{i}", pos) for i, p in enumerate(params)}
    expanded = scope.expand(body, dict(holes))
    used = {n.id for n in nodes(expanded) if isinstance(n, Name)}
    head = f"{name}({', '.join(params)})"
    for p, h in holes.items():
        if p in used:
            raise SourceError(f"{head}: the body uses the document's {p} (through a "
                              f"definition), not the parameter {p}", scope.file, pos.line,
                              pos.col, f"define the quantities that depend on {p} in the same "
                              f"equation as {name}, or write the body in terms of {p}")
        if h.id not in used:
            raise SourceError(f"{head}: the body does not use the parameter {p}", scope.file,
                              pos.line, pos.col, f"a function's body must depend on {p}")
