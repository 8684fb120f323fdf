"""Options several commands share, so each is spelled, ranged and explained once.

>>> dps_value("60")
60
>>> dps_value("5")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: must be a whole number of digits from 30 to 1000 (got 5)
>>> timeout_value("0")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: must be more than 0 and at most 3600 seconds (got 0)
"""

from __future__ import annotations

import argparse
import math
from typing import NoReturn

from ..check.limits import MAX_DPS, MAX_TIMEOUT, MIN_DPS
from ..errors import SymnormError

__all__ = ["EXIT_CODES", "PAPER_NAME", "add_dps", "add_paper", "add_timeout", "dps_value",
           "timeout_value", "usage_error"]

#: How the built-in paper derivation is named in verdicts and printed commands.
PAPER_NAME = "symnorm/data/paper.md"

#: The exit codes of ``check`` (and ``report --strict``), for every --help and the README.
EXIT_CODES = """\
exit codes:
  0  every claim proved, proved-for or confirmed (definitions do not count; when every
     row is a definition, a line on stderr says that no claim was checked)
  1  some claim refuted; this wins over errors, so 1 also when others are error/undecided
  2  no claim refuted, but some claim is error or undecided; or a usage error (bad
     option, no such file, no claim with the --only label)"""


def dps_value(text: str) -> int:
    """``--dps``: a whole number of digits in the one range every command accepts."""
    try:
        n = int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"must be a whole number of digits from {MIN_DPS} to {MAX_DPS} (got {text!r})"
        ) from None
    if not MIN_DPS <= n <= MAX_DPS:
        raise argparse.ArgumentTypeError(
            f"must be a whole number of digits from {MIN_DPS} to {MAX_DPS} (got {n})")
    return n


def timeout_value(text: str) -> float:
    """``--timeout``: seconds per claim, more than 0 and at most an hour."""
    try:
        t = float(text.strip())
    except ValueError:
        t = math.nan
    if not 0 < t <= MAX_TIMEOUT:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most {MAX_TIMEOUT:.0f} "
                                         f"seconds (got {text.strip()})")
    return t


def add_dps(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--dps", type=dps_value, default=50, metavar="DIGITS",
                        help=f"decimal digits of {what} ({MIN_DPS}..{MAX_DPS}, default 50)")


def add_timeout(parser: argparse.ArgumentParser, default: float) -> None:
    parser.add_argument("--timeout", type=timeout_value, default=default, metavar="SECONDS",
                        help=f"limit per claim: the engines' budget in CPU seconds, and "
                             f"a wall-clock guard at 3x it + 5 s; more than 0 and at most "
                             f"{MAX_TIMEOUT:.0f} (default {default:g})")


def add_paper(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--paper", action="store_true",
                        help="the paper's derivation that ships with symnorm "
                             f"({PAPER_NAME}); works from any folder")


def usage_error(args: argparse.Namespace, message: str) -> NoReturn:
    """Stop with the command's usage and ``message`` (exit 2), as argparse does."""
    parser = getattr(args, "parser", None)
    if parser is not None:
        parser.error(message)
    raise SymnormError(message)
