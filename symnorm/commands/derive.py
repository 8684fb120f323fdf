"""``symnorm derive``: the paper's worked example, exact and cross-checked.

With no options it reproduces the paper (x = (1, 2, 4), eps = 1/10; BatchNorm companion with
eps = 1/100, b = +-2).  Decimals are read as exact rationals (``--eps 0.1`` is 1/10).
Negative entries need ``=``: ``--x=-1,2,3``.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import sympy

from ..derivation import Derivation, derive, derive_steps, random_point
from ..errors import SpecError
from ..spec import as_rational
from .options import add_dps, dps_value
from .progress import stage_bar

__all__ = ["add_arguments", "run", "to_json", "to_text"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--d", metavar="D", help="dimension (default: 3, or the length of --x)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--x", metavar="X1,X2,...", help="the point, exact numbers (default 1,2,4)")
    group.add_argument("--random-x", metavar="SEED", help="a reproducible random rational point")
    parser.add_argument("--eps", metavar="EPS", default="1/10", help="epsilon (default 1/10)")
    add_dps(parser, "the mpmath cross-check")
    parser.add_argument("--rms", action="store_true", help="RMSNorm instead of LayerNorm")
    parser.add_argument("--no-any-d", action="store_true",
                        help="skip the claim checker's proofs for every d")
    parser.add_argument("--json", action="store_true", help="print the evidence as JSON")


def _int(text: str | None, name: str, accepted: str) -> int | None:
    if text is None:
        return None
    try:
        return int(text.strip())
    except ValueError:
        raise SpecError(f"{name} must be {accepted} (got {text!r})") from None


def _parse(args: argparse.Namespace) -> dict[str, Any]:
    d = _int(args.d, "--d", "an integer >= 2")
    if d is not None and d < 2:
        raise SpecError(f"--d must be an integer >= 2 (got {d})")
    dps = args.dps if isinstance(args.dps, int) else dps_value(str(args.dps))
    eps = as_rational(args.eps, "--eps")
    if eps < 0:
        raise SpecError(f"--eps must be >= 0 (got {eps}); accepted: 0, 1/10, 0.001, ...")
    x = None
    if args.x is not None:
        parts = [p for p in args.x.split(",")]
        if any(not p.strip() for p in parts):
            raise SpecError(f"--x must be comma-separated numbers such as 1,2,4 (got {args.x!r})")
        x = [as_rational(p, f"--x entry {i + 1}") for i, p in enumerate(parts)]
        if d is not None and len(x) != d:
            raise SpecError(f"--x has {len(x)} entries but --d is {d} "
                            "(give exactly d comma-separated numbers, or omit --d)")
    elif args.random_x is not None:
        seed = _int(args.random_x, "--random-x", "an integer seed")
        x = list(random_point(d or 3, seed))  # type: ignore[arg-type]
    return {"d": d, "x": x, "eps": eps, "dps": dps}


def run(args: argparse.Namespace) -> int:
    opts = _parse(args)
    steps = derive_steps(opts["d"], opts["x"], any_d=not args.no_any_d)
    with stage_bar(steps, args.json) as bar:  # on a terminal only
        res = derive(opts["d"], opts["x"], opts["eps"], dps=opts["dps"], center=not args.rms,
                     any_d=not args.no_any_d, progress=bar)
    print(json.dumps(to_json(res), indent=2) if args.json else to_text(res))
    bad = [c for c in res.checks_point + (res.checks_symbolic or []) if not c.holds]
    return 1 if bad else 0


# ---- JSON printer --------------------------------------------------------------------------

def _s(e: Any) -> str:
    return str(e)


def to_json(res: Derivation) -> dict[str, Any]:
    """The evidence in the paper's keys, extended with exact strings, eigenvalues and timings."""
    eng, num = res.engine, res.numeric
    checks = {"at_point": [_check_json(c) for c in res.checks_point],
              "symbolic_x": [_check_json(c) for c in res.checks_symbolic]
              if res.checks_symbolic is not None else None}
    return {
        "layer": "rms_norm" if not res.spec.center else "layer_norm",
        "d": eng.d, "eps": _s(res.spec.eps), "x": [_s(q) for q in res.x],
        "jacobian": res.jacobian_floats,
        "max_finite_difference_error": float(num.max_abs_error),
        "max_finite_difference_error_str": sympy.Float(str(num.max_abs_error), 20).__str__(),
        "float64_finite_difference_error": num.float64_error,
        "companion_outputs": res.companion_floats,
        "companion": [{"b": _s(c["b"]), "eps": _s(c["eps"]), "exact": _s(c["exact"]),
                       "float64": c["float64"]} for c in res.companion],
        "jacobian_exact": res.jacobian_strings(),
        **_named(eng),
        "normalized": [_s(e) for e in eng.N], "normalized_floats": [float(e) for e in num.N],
        "eigen": [{"value": _s(es.value), "value_float": float(sympy.N(es.value, 30)),
                   "multiplicity": es.multiplicity, "direction": es.direction,
                   "vectors": [[_s(e) for e in vec] for vec in es.vectors]} for es in res.eigen],
        "eigenvalues": [float(sympy.N(es.value, 30)) for es in res.eigen
                        for _ in es.vectors],
        "proofs": checks,
        "any_d": res.any_d, "any_d_note": res.any_d_note,
        "dps": num.dps, "workdps": num.workdps, "step": float(num.step),
        "agreeing_digits": num.agreeing_digits,
        "timings": {k: round(v, 4) for k, v in res.timings.items()},
    }


def _named(eng: Any) -> dict[str, Any]:
    """The intermediate quantities under the names of the layer's vocabulary: ``c``, ``v``,
    ``s`` of ``use layernorm``; ``r`` of ``use rmsnorm`` (with the mean square x^T x/d)."""
    if eng.center or not eng.inside:
        return {"centered": [_s(e) for e in eng.c], "variance": _s(eng.v), "s": _s(eng.s),
                "s_float": float(sympy.N(eng.s, 30))}
    return {"mean_square": _s(eng.v), "r": _s(eng.s), "r_float": float(sympy.N(eng.s, 30))}


def _check_json(c: Any) -> dict[str, Any]:
    return {"label": c.label, "statement": c.statement, "holds": c.holds, "detail": c.detail}


# ---- text printer --------------------------------------------------------------------------

def _num(e: Any, digits: int = 16) -> str:
    return sympy.sstr(sympy.N(e, digits))


def _matrix(rows: list[list[str]], indent: str = "    ") -> str:
    width = max((len(cell) for row in rows for cell in row), default=1)
    return "\n".join(indent + "[ " + "  ".join(cell.rjust(width) for cell in row) + " ]"
                     for row in rows)


def _vec(v: Any) -> str:
    return "(" + ", ".join(sympy.sstr(e) for e in v) + ")"


def to_text(res: Derivation) -> str:
    """A readable account of the example: objects, Jacobian, spectrum, proofs, cross-check."""
    from .derive_text import render
    return render(res, _matrix, _vec, _num)
