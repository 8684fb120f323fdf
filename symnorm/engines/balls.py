"""SymPy scalars compiled once into closures over arb balls, evaluated at many points.

The reduced claim (scalars in d, the declared scalars and the Gram symbols) is evaluated
at thousands of dimensions by :mod:`symnorm.engines.gramsample`; re-walking SymPy trees
(or substituting into them, which makes SymPy expand ``(11/10)**(10**9)`` exactly) would
cost far too much.  The expressions go through common-subexpression elimination and become
nested Python closures (no code is generated or executed from text).  Each result is a ball
of python-flint's arb that certainly contains the true value, so a sign read off a ball that
excludes 0 is exact; a ball that is not finite means the value is not a real number there
(``sqrt``/``log`` of a negative number, a division by a ball containing 0).

>>> import sympy as sp, flint
>>> a, d = sp.symbols("a d")
>>> f = compile_balls([a * sp.Rational(11, 10) ** d - 1], [a, d])
>>> with precision(128):
...     (ball,) = f({a: flint.arb(1), d: flint.arb(10**9)})
>>> ball > 0
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import flint
import sympy as sp

__all__ = ["NotCompiled", "compile_balls", "precision", "rational_ball"]

Env = dict[sp.Symbol, Any]
Node = Callable[[dict], Any]


class NotCompiled(Exception):
    """The expression has a part the ball evaluator does not cover (the message says which)."""


@contextmanager
def precision(bits: int) -> Iterator[None]:
    """arb's working precision, restored afterwards (precision is scoped, never global)."""
    old = flint.ctx.prec
    flint.ctx.prec = bits
    try:
        yield
    finally:
        flint.ctx.prec = old


def rational_ball(q: sp.Rational | int) -> Any:
    """The ball of an exact rational (exact when the denominator is a power of 2)."""
    q = sp.Rational(q)
    return flint.arb(int(q.p)) / int(q.q) if q.q != 1 else flint.arb(int(q.p))


def compile_balls(exprs: Sequence[sp.Expr], args: Sequence[sp.Symbol]
                  ) -> Callable[[Env], list[Any]]:
    """A function from ``{symbol: arb}`` to the balls of ``exprs`` at the current precision.

    Raises NotCompiled for a function other than exp, log, Abs, Max, Min (and powers)."""
    replacements, reduced = sp.cse(list(exprs))
    known = set(args)
    steps: list[tuple[sp.Symbol, Node]] = []
    for sym, e in replacements:
        steps.append((sym, _node(e, known)))
        known.add(sym)
    outs = [_node(e, known) for e in reduced]

    def run(env: Env) -> list[Any]:
        local = dict(env)
        for sym, fn in steps:
            local[sym] = fn(local)
        return [fn(local) for fn in outs]
    return run


def _node(e: sp.Expr, known: set[sp.Symbol]) -> Node:
    """One closure per SymPy node; constants are made into balls at each call (at the
    caller's precision)."""
    if isinstance(e, sp.Symbol):
        if e not in known:
            raise NotCompiled(f"free symbol {e}")
        return lambda env, s=e: env[s]
    if e.is_Rational:
        p, q = int(e.p), int(e.q)
        return (lambda env: flint.arb(p)) if q == 1 else (lambda env: flint.arb(p) / q)
    if e is sp.pi:
        return lambda env: flint.arb.pi()
    if e is sp.E:
        return lambda env: flint.arb(1).exp()
    if isinstance(e, (sp.Add, sp.Mul)):
        parts = [_node(a, known) for a in e.args]
        add = isinstance(e, sp.Add)

        def fold(env: dict) -> Any:
            out = parts[0](env)
            for fn in parts[1:]:
                out = out + fn(env) if add else out * fn(env)
            return out
        return fold
    if isinstance(e, sp.Pow):
        return _pow(e, known)
    if isinstance(e, (sp.exp, sp.log, sp.Abs)) and len(e.args) == 1:
        inner = _node(e.args[0], known)
        if isinstance(e, sp.exp):
            return lambda env: inner(env).exp()
        if isinstance(e, sp.Abs):
            return lambda env: abs(inner(env))
        return lambda env: _log(inner(env))
    if isinstance(e, (sp.Max, sp.Min)):
        parts = [_node(a, known) for a in e.args]
        top = isinstance(e, sp.Max)

        def extreme(env: dict) -> Any:
            out = parts[0](env)
            for fn in parts[1:]:
                out = out.max(fn(env)) if top else out.min(fn(env))
            return out
        return extreme
    raise NotCompiled(f"cannot evaluate {type(e).__name__} with balls")


def _log(x: Any) -> Any:
    return x.log() if x > 0 else flint.arb("nan")


def _pow(e: sp.Pow, known: set[sp.Symbol]) -> Node:
    base = _node(e.base, known)
    x = e.exp
    if x.is_Integer:
        n = int(x)
        if abs(n) > 10**6:
            return lambda env: _general_pow(base(env), flint.arb(n))
        return lambda env: _int_pow(base(env), n)
    if x.is_Rational and x.q == 2:  # square roots of a ball that may touch 0 (sqrt(0) = 0)
        n = int(x.p)
        return lambda env: _int_pow(_sqrt(base(env)), n)
    expo = _node(x, known)
    return lambda env: _general_pow(base(env), expo(env))


def _sqrt(b: Any) -> Any:
    return b.sqrt() if b >= 0 else flint.arb("nan")


def _int_pow(b: Any, n: int) -> Any:
    if n >= 0:
        return b ** n
    if b.contains(0):
        return flint.arb("nan")
    return 1 / b ** (-n)


def _general_pow(b: Any, x: Any) -> Any:
    """``b**x`` for a positive base (a real power of a negative number is not real here)."""
    if not b > 0:
        return flint.arb("nan")
    return (x * b.log()).exp()
