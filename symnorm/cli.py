"""The ``symnorm`` command: a dispatcher over ``symnorm/commands/<name>.py``.

Each command module defines ``add_arguments(parser)`` and ``run(args) -> int``.  User
mistakes become one line on stderr and exit code 2, never a traceback.  Everything
written to the terminal passes through :func:`symnorm.safetext.visible`, so control
bytes and bidi overrides from a document are shown, never obeyed.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .errors import SymnormError
from .safetext import VisibleStream

__all__ = ["main"]

COMMANDS = {
    "derive": "derive the worked example: projector, Jacobian, spectrum, cross-check",
    "check": "check the claims of derivation documents",
    "report": "write a derivation report (HTML, Markdown, LaTeX, JSON, figures)",
    "zoo": "table of the normalization family: axes, group sizes, batch coupling",
    "precision": "variance and outputs in float16/bfloat16/float32 against an exact reference",
    "audit": "audit an implementation: conformance to a spec, or its spec by probing",
}

#: One example per command, shown by ``symnorm --help`` and by the command's own --help.
EXAMPLES = {
    "derive": ["symnorm derive --x=1,2,4 --eps 1/10          # LayerNorm at x = (1, 2, 4)",
               "symnorm derive --rms --d 4 --json            # RMSNorm at d = 4, as JSON"],
    "check": ["symnorm check notes.md derivations/        # a verdict per claim",
              "symnorm check --paper --only jacobian.radial # one claim of the paper"],
    "report": ["symnorm report notes.md -o notes-report     # HTML, Markdown, LaTeX, JSON",
               "symnorm report --paper                      # into ./symnorm-report"],
    "zoo": ["symnorm zoo --layout 'N L D' --sizes N=8 L=128 D=512"],
    "precision": ["symnorm precision -o precision-study      # tables, figures, 51102 case"],
    "audit": ["symnorm audit infer mymodels:ln --layout 'N T D' --sizes N=3 T=2 D=8",
              "symnorm audit conform mymodels:bn --spec torch.batch_norm2d"],
}

DESCRIPTION = """Derive and proof-check the mathematics of normalization layers (LayerNorm, BatchNorm,
GroupNorm, InstanceNorm, RMSNorm). Claims are written in Markdown documents, in a small
claim language or in LaTeX; each gets a verdict: proved (every d), proved-for (listed d),
confirmed (numbers only), refuted (with an exact counterexample), undecided or error."""


REPORT_EXIT = """\
exit codes: 0 once the report is written, whatever the verdicts; 2 on a usage error or
when nothing could be written; with --strict, as `symnorm check` would (below)."""


def _epilog(name: str | None) -> str:
    from .commands.options import EXIT_CODES
    names = [name] if name else list(COMMANDS)
    lines = ["examples:"] + ["  " + e for n in names for e in EXAMPLES[n]]
    if name in (None, "check"):
        lines += ["", EXIT_CODES]
    if name == "report":
        lines += ["", REPORT_EXIT, "", "with --strict:", EXIT_CODES]
    if name is None:
        lines += ["", "Run `symnorm COMMAND --help` for a command's options.",
                  "Documentation: README.md and docs/ in the source distribution."]
    return "\n".join(lines)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # exit 2 with one line, as argparse does
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="symnorm", description=DESCRIPTION, epilog=_epilog(None),
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    from . import __version__
    parser.add_argument("--version", action="version", version=f"symnorm {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, help_ in COMMANDS.items():
        p = sub.add_parser(name, help=help_, description=help_, epilog=_epilog(name),
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        _module(name).add_arguments(p)
        p.set_defaults(parser=p)  # so a command's own usage errors show its usage
    return parser


def _module(name: str):
    return importlib.import_module(f"symnorm.commands.{name}")


def main(argv: list[str] | None = None) -> int:
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = VisibleStream(sys.stdout), VisibleStream(sys.stderr)
    try:
        return _main(argv)
    finally:
        sys.stdout, sys.stderr = streams


def _code(exc: SystemExit) -> int:
    """The exit code argparse asked for (``None`` is success, as for ``sys.exit``)."""
    if exc.code is None:
        return 0
    return exc.code if isinstance(exc.code, int) else 2


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:  # argparse would blame the top level; the arguments belong to the command
            (getattr(args, "parser", None) or parser).error(
                f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exc:  # usage printed (or --help, --version): return, do not raise
        return _code(exc)
    if not args.command:
        parser.print_help()
        return 2
    try:
        return int(_module(args.command).run(args) or 0)
    except SystemExit as exc:  # a command's usage error (usage printed)
        return _code(exc)
    except SymnormError as exc:
        print(f"symnorm {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `symnorm check ... | head`: stop quietly
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except MemoryError:
        print(f"symnorm {args.command}: error: out of memory", file=sys.stderr)
        return 2
    except OSError as exc:  # a file or folder the command needs is not usable
        where = f" {exc.filename}" if exc.filename else ""
        print(f"symnorm {args.command}: error:{where} {exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("symnorm: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
