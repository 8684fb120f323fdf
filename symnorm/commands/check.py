"""`symnorm check` (not yet implemented)."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    pass


def run(args: argparse.Namespace) -> int:
    print("symnorm check: not implemented yet")
    return 2
