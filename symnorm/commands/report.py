"""`symnorm report [DOC.md] [-o OUTDIR]`: check a document and write its derivation report.

With no document, reports the built-in paper derivation into ``./symnorm-report/``.
Prints the path of ``report.html``; exits 0 once the report is written (``--strict``
exits as ``symnorm check`` would: 1 on a refuted claim, 2 on an error or undecided).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..check.limits import DEFAULT_TIMEOUT
from ..errors import LimitError, SourceError, SymnormError
from ..safetext import visible
from .options import PAPER_NAME, add_dps, add_paper, add_timeout, usage_error
from .progress import progress_bar

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("document", nargs="?", help="derivation document (Markdown); "
                        "default: the built-in paper derivation (as --paper)")
    add_paper(parser)
    parser.add_argument("-o", "--out", default="symnorm-report", metavar="OUTDIR",
                        help="output folder, created if missing (default: ./symnorm-report)")
    add_timeout(parser, DEFAULT_TIMEOUT)
    add_dps(parser, "the numeric evidence")
    parser.add_argument("--only", metavar="LABEL", help="report only the claim LABEL")
    parser.add_argument("--strict", action="store_true",
                        help="exit as `symnorm check` would: 1 when a claim is refuted, 2 when "
                             "one is error or undecided")


def _check_only(path: Path, only: str, shown: str) -> None:
    """Refuse an ``--only`` label the document does not have, before the long check."""
    from ..check.run import planned_labels, unknown_label
    from ..lang.document import read_document
    try:
        doc = read_document(path)
    except (SourceError, LimitError):
        return  # report_document says what is wrong with the document
    labels = planned_labels(doc)
    if only not in labels:
        raise SymnormError(unknown_label(only, labels, f" in {visible(shown)}"))


def run(args: argparse.Namespace) -> int:
    from ..check.verdict import exit_code
    from ..report.build import PAPER, report_document

    if args.document and args.paper:
        usage_error(args, "give a document or --paper, not both")
    if args.document:
        path, shown = Path(args.document), args.document
        if not path.exists():  # anything else (a folder, a pipe) is refused by the reader
            raise SymnormError(f"no such document: {args.document}")
    else:
        path, shown = PAPER, PAPER_NAME
        if not path.is_file():
            raise SymnormError(f"the built-in paper derivation is missing ({PAPER})")
    if args.only is not None:
        _check_only(path, args.only, shown)
    with progress_bar() as bar:
        files, result = report_document(path, args.out, timeout=args.timeout, dps=args.dps,
                                        only=args.only, display_path=shown, progress=bar)
    print(files["report.html"])
    return exit_code(result.verdicts) if args.strict else 0
