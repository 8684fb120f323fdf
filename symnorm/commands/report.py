"""`symnorm report [DOC.md] [-o OUTDIR]`: check a document and write its derivation report.

With no document, reports the built-in paper derivation into ``./symnorm-report/``.
Prints the path of ``report.html``; exits 0 once the report is written (``--strict``
exits as ``symnorm check`` would: 1 on a refuted claim, 2 on an error or undecided).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..check.run import DEFAULT_TIMEOUT
from ..errors import SymnormError

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("document", nargs="?", help="derivation document (Markdown); "
                        "default: the built-in paper derivation")
    parser.add_argument("-o", "--out", default="symnorm-report", metavar="OUTDIR",
                        help="output directory (default: ./symnorm-report)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                        help=f"wall-clock seconds per claim (default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--dps", type=int, default=50,
                        help="decimal digits for numeric evidence (default 50)")
    parser.add_argument("--only", metavar="LABEL", help="report only the claim LABEL")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1/2 when a claim is refuted/undecided/errored")


def run(args: argparse.Namespace) -> int:
    from ..check.verdict import exit_code
    from ..report.build import PAPER, report_document

    if args.document:
        path, shown = Path(args.document), args.document
        if not path.exists():  # anything else (a folder, a pipe) is refused by the reader
            raise SymnormError(f"no such document: {args.document}")
    else:
        path, shown = PAPER, "symnorm/data/paper.md"
        if not path.is_file():
            raise SymnormError(f"the built-in paper derivation is missing ({PAPER})")
    progress = None
    if sys.stderr.isatty():  # a person is watching: say which claim finished
        def progress(v) -> None:
            print(f"  ... {v.label}: {v.status}", file=sys.stderr)
    files, result = report_document(path, args.out, timeout=args.timeout, dps=args.dps,
                                    only=args.only, display_path=shown, progress=progress)
    print(files["report.html"])
    return exit_code(result.verdicts) if args.strict else 0
