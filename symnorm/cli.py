"""The ``symnorm`` command: a thin dispatcher over ``symnorm/commands/<name>.py``.

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


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # exit 2 with one line, as argparse does
        self.print_usage(sys.stderr)
        self.exit(2, f"symnorm: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="symnorm", description=__doc__.splitlines()[0])
    from . import __version__
    parser.add_argument("--version", action="version", version=f"symnorm {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, help_ in COMMANDS.items():
        p = sub.add_parser(name, help=help_, description=help_)
        _module(name).add_arguments(p)
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


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 2
    try:
        return int(_module(args.command).run(args) or 0)
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
