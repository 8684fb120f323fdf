"""``symnorm check PATH... | --paper``: a verdict per claim, a summary, and an exit code.

Exit 0 when every claim is proved, proved-for or confirmed; 1 when any is refuted (even if
others are error or undecided); 2 when any is error or undecided and none is refuted, and
for usage errors (see :data:`symnorm.commands.options.EXIT_CODES`).
"""

from __future__ import annotations

import argparse
import json
import sys

from ..check.run import DEFAULT_TIMEOUT, check_paths
from ..check.verdict import STATUSES, check_payload, exit_code, summarize
from ..safetext import reproduce_command, shell_quote, visible
from .options import PAPER_NAME, add_dps, add_paper, add_timeout, usage_error
from .progress import progress_bar

__all__ = ["add_arguments", "run"]

#: The narrowest label and scope columns; wider when a row needs it, so columns stay aligned.
LABEL_WIDTH, SCOPE_WIDTH = 22, 34


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="derivation documents (.md) or folders of them; folders are "
                             "searched for .md files with a ```symnorm block, skipping hidden "
                             "folders, virtual environments, build output, symnorm reports "
                             "and .gitignore'd paths")
    add_paper(parser)
    parser.add_argument("--only", metavar="LABEL", help="check only the claim with this label")
    add_timeout(parser, DEFAULT_TIMEOUT)
    add_dps(parser, "the numeric engine")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object (always with how each claim was read, "
                             "the evidence and notes; -v changes nothing in it)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show how each claim was read, the evidence and notes")


def _paths(args: argparse.Namespace) -> list[str]:
    from ..report.build import PAPER
    if not args.paths and not args.paper:
        usage_error(args, "give a document or folder to check, or --paper for the paper's "
                          "derivation that ships with symnorm")
    return [*args.paths, *([str(PAPER)] if args.paper else [])]


def _reproduce(v, paper: bool) -> str:
    if paper:
        return f"symnorm check --paper --only {shell_quote(v.label)}"
    return reproduce_command(v.file, v.label)


def _row(v, verbose: bool, widths: tuple[int, int] = (LABEL_WIDTH, SCOPE_WIDTH),
         paper: bool = False) -> str:
    where = f"{visible(v.file, newlines=False)}:{v.line}"
    label = visible(v.label, newlines=False)
    lw, sw = widths
    line = f"{v.status:<10} {label:<{lw}} {v.scope or '-':<{sw}} {v.seconds:6.2f}s  {where}"
    extra = []
    if v.status == "refuted" and v.counterexample:
        shown = {k: x for k, x in v.counterexample.items() if k != "paste"}
        extra.append("    counterexample: " + json.dumps(shown))
        if v.counterexample.get("paste"):
            extra.append("    re-check it: paste into a ```symnorm block:")
            extra += ["        " + visible(str(line), newlines=False)
                      for line in v.counterexample["paste"]]
        extra.append("    reproduce: " + visible(_reproduce(v, paper), newlines=False))
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


def _widths(verdicts) -> tuple[int, int]:
    return (max([LABEL_WIDTH, *(len(visible(v.label, newlines=False)) for v in verdicts)]),
            max([SCOPE_WIDTH, *(len(v.scope or "-") for v in verdicts)]))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def run(args: argparse.Namespace) -> int:
    from ..report.build import PAPER
    paths = _paths(args)
    skipped: list = []
    with progress_bar(args.json) as bar:
        results = check_paths(paths, timeout=args.timeout, dps=args.dps, only=args.only,
                              progress=bar, skipped=skipped)
    if skipped:  # a planted pyvenv.cfg or .gitignore must not hide documents silently
        from ..check.walk import skipped_summary
        print(skipped_summary(skipped), file=sys.stderr)
    # the paper is named as everywhere else, not by where it is installed
    paper = {id(v) for r in results for v in r.verdicts if args.paper and v.file == str(PAPER)}
    verdicts = [v for r in results for v in r.verdicts]
    for v in verdicts:
        if id(v) in paper:
            v.file = PAPER_NAME
    for v in verdicts:
        if v.message.startswith("INTERNAL ERROR"):
            print(f"symnorm check: {v.file}:{v.line}: {v.message}", file=sys.stderr)
    summary = summarize(verdicts)
    if verdicts and summary.get("defined", 0) == len(verdicts):
        # exit 0 says no claim failed; say too that none was checked (README's exit codes)
        print("symnorm check: every row is a definition: no claim was checked (a LaTeX "
              "equation that defines a name is not a claim; see docs/latex.md)", file=sys.stderr)
    if args.json:
        print(json.dumps(check_payload(verdicts), indent=2))
    else:
        widths = _widths(verdicts)
        print(f"{'status':<10} {'label':<{widths[0]}} {'scope':<{widths[1]}} {'time':>7}  where")
        for v in verdicts:
            print(_row(v, args.verbose, widths, id(v) in paper))
        total = sum(r.seconds for r in results)
        defs = summary.get("defined", 0)
        counted = _plural(len(verdicts) - defs, "claim")
        if defs:
            counted += " and " + _plural(defs, "definition")
        print(", ".join(f"{summary[s]} {s}" for s in STATUSES) + f"  ({counted} in "
              f"{_plural(len(results), 'document')}, {total:.1f} s)")
    return exit_code(verdicts)
