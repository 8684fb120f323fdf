"""``symnorm precision``: variance and normalized outputs in low precision, measured exactly.

    symnorm precision                                  # the full study into ./symnorm-precision
    symnorm precision --dtypes float32 --methods one-pass,welford --n 256 -o out
    symnorm precision --json --no-files               # one JSON object on stdout

Prints the headline and the tables; writes precision.{html,md,tex,json,csv} and figures/ into
``-o`` (default ``./symnorm-precision``).  Exit 0 once the study ran (the study measures, it
does not judge), 2 on a bad argument.
"""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from typing import TYPE_CHECKING

from ..errors import SymnormError

if TYPE_CHECKING:
    from ..audit.precision import StudyParams

__all__ = ["add_arguments", "params_from_args", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from ..audit.precision import DTYPE_NAMES, METHODS
    parser.add_argument("--dtypes", default=",".join(DTYPE_NAMES),
                        help=f"storage formats, comma separated (default: "
                             f"{','.join(DTYPE_NAMES)})")
    parser.add_argument("--accumulate", default="both", metavar="same|float32|both",
                        help="arithmetic of float16/bfloat16 inputs: in the format itself, in "
                             "float32 (as PyTorch's kernels), or both (default)")
    parser.add_argument("--methods", default=",".join(METHODS),
                        help=f"variance algorithms (default: {','.join(METHODS)}); add "
                             "'torch' for PyTorch's own var_mean and layer_norm")
    parser.add_argument("--ratios", default="1,10,100,1e3,1e4,1e5,1e6",
                        help="mean/spread ratios of the ratio family, or 'none' "
                             "(default: 1,10,...,1e6)")
    parser.add_argument("--spread", default="1",
                        help="standard deviation of the ratio family's inputs (default 1)")
    parser.add_argument("--eps", default="1e-5",
                        help="eps of the ratio and near-constant families (default 1e-5)")
    parser.add_argument("--eps-values", default="1e-12,1e-10,1e-8,1e-6,1e-4,1e-2",
                        help="eps values of the eps family, or 'none' (default "
                             "1e-12,...,1e-2)")
    parser.add_argument("--eps-spread", default="1/1000",
                        help="standard deviation of the eps family's inputs, mean 0 "
                             "(default 1/1000, so v is about 1e-6)")
    parser.add_argument("--constants", default="1,1000",
                        help="values c of the near-constant family (all c; c +- 1 ulp), or "
                             "'none' (default 1,1000)")
    parser.add_argument("--no-51102", action="store_true",
                        help="leave out the case of PyTorch issue 51102 (mean 2000, std 1)")
    parser.add_argument("--n", type=_int, default=1024,
                        help="elements per normalized vector (default 1024)")
    parser.add_argument("--samples", type=_int, default=8,
                        help="seeded input vectors per case (default 8)")
    parser.add_argument("--seed", type=_int, default=0, help="seed (default 0)")
    parser.add_argument("--dps", type=_int, default=30,
                        help="decimal digits of the mpmath reference (default 30)")
    parser.add_argument("-o", "--out", default="symnorm-precision", metavar="OUTDIR",
                        help="output directory (default: ./symnorm-precision)")
    parser.add_argument("--no-files", action="store_true", help="write no files")
    parser.add_argument("--json", action="store_true",
                        help="print the JSON section instead of the tables")


def _int(text: str) -> int:
    """An integer option's value; argparse prefixes the message with the option's name."""
    try:
        return int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer (got {text!r})") from None


def _names(option: str, text: str) -> tuple[str, ...]:
    items = tuple(t.strip() for t in text.split(","))
    if not all(items):
        raise SymnormError(f"{option}: empty entry in {text!r} (write e.g. float16,float32)")
    return items


def _rationals(option: str, text: str) -> tuple[Fraction, ...]:
    if text.strip() == "none":
        return ()
    return tuple(_rational(option, t) for t in text.split(","))


def _rational(option: str, text: str) -> Fraction:
    from ..report.figopts import parse_rational
    try:
        return parse_rational(text)
    except ValueError as exc:
        raise SymnormError(f"{option}: {exc}") from None


def params_from_args(args: argparse.Namespace) -> StudyParams:
    """The study the command line asks for (values checked by ``StudyParams.check``)."""
    from ..audit.precision import StudyParams

    return StudyParams(
        dtypes=_names("--dtypes", args.dtypes), accumulate=args.accumulate,
        methods=_names("--methods", args.methods),
        ratios=_rationals("--ratios", args.ratios), spread=_rational("--spread", args.spread),
        eps=_rational("--eps", args.eps), eps_values=_rationals("--eps-values", args.eps_values),
        eps_spread=_rational("--eps-spread", args.eps_spread),
        constants=_rationals("--constants", args.constants), include_51102=not args.no_51102,
        n=args.n, samples=args.samples, seed=args.seed, dps=args.dps)


def run(args: argparse.Namespace) -> int:
    from ..audit.precision import run_study
    from ..audit.precision_report import (
        REPORT_FILES,
        json_section,
        render_text,
        write_precision_report,
    )

    params = params_from_args(args)
    params.check()  # refuse bad values before any file or folder is touched
    out = None
    if not args.no_files:
        from ..safeio import OutputDir
        out = OutputDir(args.out)
        for name in REPORT_FILES:
            out.check(name)
        out.check("figures", folder=True)
    progress = None
    if sys.stderr.isatty():  # a person is watching
        def progress(message: str) -> None:
            print(f"  ... {message}", file=sys.stderr)
    result = run_study(params, progress=progress)
    files = write_precision_report(result, out, progress=progress) if out is not None else {}
    if args.json:
        figs = {k: str(v) for k, v in files.items()}
        print(json.dumps({"precision": json_section(result, {}), "files": figs}, indent=2,
                         allow_nan=False))
    else:
        print(render_text(result), end="")
        if out is not None:
            print(f"\nreport: {files['precision.html']}")
    return 0
