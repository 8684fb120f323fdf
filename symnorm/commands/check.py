"""``symnorm check PATH...``: a verdict per claim, a summary, and an exit code.

Exit 0 when every claim is proved, proved-for or confirmed; 1 when any is refuted; 2 when
any is error or undecided (and none refuted), and for usage errors.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..check.run import DEFAULT_TIMEOUT, check_paths
from ..check.verdict import STATUSES, check_payload, exit_code, summarize
from ..safetext import reproduce_command, visible

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="derivation documents (.md) or folders of them")
    parser.add_argument("--only", metavar="LABEL", help="check only the claim with this label")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"wall-clock limit per claim (default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--dps", type=int, default=50,
                        help="decimal digits of the numeric engine (default 50, 30..1000)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show how each claim was read, the evidence and notes")


def _row(v, verbose: bool) -> str:
    where = f"{visible(v.file, newlines=False)}:{v.line}"
    label = visible(v.label, newlines=False)
    line = f"{v.status:<10} {label:<22} {v.scope or '-':<34} {v.seconds:6.2f}s  {where}"
    extra = []
    if v.status == "refuted" and v.counterexample:
        shown = {k: x for k, x in v.counterexample.items() if k != "paste"}
        extra.append("    counterexample: " + json.dumps(shown))
        if v.counterexample.get("paste"):
            extra.append("    re-check it: paste into a ```symnorm block:")
            extra += ["        " + visible(str(line), newlines=False)
                      for line in v.counterexample["paste"]]
        extra.append("    reproduce: " + visible(reproduce_command(v.file, v.label),
                                                  newlines=False))
    if v.message:
        extra.append("    " + v.message)
    if verbose:
        if v.statement:
            extra.append(f"    read as: {v.statement}")
        if v.assumptions:
            extra.append("    assuming: " + ", ".join(v.assumptions))
        extra += [f"    note: {n}" for n in v.notes]
        for r in v.evidence[:4]:
            extra.append(f"    d={r['d']} dps={r['dps']}/{r['second_dps']} digits={r['digits']} "
                         f"{r['result']}")
    return "\n".join([line, *extra])


def run(args: argparse.Namespace) -> int:
    progress = None
    interactive = not args.json and sys.stderr.isatty()
    if interactive:
        def progress(v):
            print(f"  ... {v.label}: {v.status}", file=sys.stderr)
    results = check_paths(args.paths, timeout=args.timeout, dps=args.dps, only=args.only,
                          progress=progress)
    verdicts = [v for r in results for v in r.verdicts]
    if args.only is not None and not verdicts:
        print(f"symnorm check: error: no claim labelled {visible(repr(args.only))}",
              file=sys.stderr)
        return 2
    for v in verdicts:
        if v.message.startswith("INTERNAL ERROR"):
            print(f"symnorm check: {v.file}:{v.line}: {v.message}", file=sys.stderr)
    summary = summarize(verdicts)
    if args.json:
        print(json.dumps(check_payload(verdicts), indent=2))
    else:
        print(f"{'status':<10} {'label':<22} {'scope':<34} {'time':>7}  where")
        for v in verdicts:
            print(_row(v, args.verbose))
        total = sum(r.seconds for r in results)
        defs = summary.get("defined", 0)
        print(", ".join(f"{summary[s]} {s}" for s in STATUSES) + f"  ({len(verdicts) - defs} "
              f"claims{f' and {defs} definitions' if defs else ''} in {len(results)} "
              f"document(s), {total:.1f} s)")
    return exit_code(verdicts)
