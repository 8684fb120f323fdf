"""``symnorm zoo``: the normalization family side by side for one layout and its sizes.

    symnorm zoo                                   # N C H W with N=16 C=64 H=W=28, GroupNorm(32)
    symnorm zoo --groups 1 2 64                   # several GroupNorm rows
    symnorm zoo --layout "N T D" --sizes N=8 T=128 D=512 --json
"""

from __future__ import annotations

import argparse

from ..family.layout import parse_layout, parse_sizes
from ..family.zoo import DEFAULT_LAYOUT, DEFAULT_SIZES, render_json, render_text, zoo


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--layout", default=DEFAULT_LAYOUT,
                        help=f"axis names in order (default: {DEFAULT_LAYOUT!r})")
    parser.add_argument("--sizes", nargs="+", default=None, metavar="AXIS=N",
                        help=f"axis sizes, e.g. --sizes N=16 C=64 (or quoted: 'N=16 C=64'; "
                             f"default for {DEFAULT_LAYOUT}: {DEFAULT_SIZES!r}; otherwise "
                             "symbolic)")
    parser.add_argument("--size", action="append", default=[], metavar="AXIS=N",
                        help="one axis size; repeatable, added to --sizes")
    parser.add_argument("--groups", type=int, nargs="+", default=None, metavar="G",
                        help="GroupNorm group counts, one row each (default: 32, or the "
                             "largest divisor of C below 32)")
    parser.add_argument("--batch", default=None, help="batch axis (default: N or the first)")
    parser.add_argument("--channel", default=None,
                        help="channel axis (default: C or the last)")
    parser.add_argument("--ln-axes", default=None,
                        help="LayerNorm/RMSNorm axes (default: the channel axis and after)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    layout = parse_layout(args.layout)
    # seed 003's sizes for the default layout; --sizes then --size override axis by axis
    merged: dict[str, int | None] = {}
    if layout == parse_layout(DEFAULT_LAYOUT):
        merged.update(parse_sizes(DEFAULT_SIZES, layout))
    for text in [" ".join(args.sizes or []), *args.size]:
        merged.update((a, n) for a, n in parse_sizes(text, layout) if n is not None)
    pairs = parse_sizes(merged, layout)
    groups = args.groups if args.groups is not None else [_default_groups(layout, pairs, args)]
    rows = zoo(layout, pairs, groups, batch=args.batch, channel=args.channel,
               ln_axes=args.ln_axes)
    if args.json:
        print(render_json(rows, layout, pairs))
    else:
        shown = " ".join(f"{a}={'?' if n is None else n}" for a, n in pairs)
        print(render_text(rows, " ".join(layout), shown))
    return 0


def _default_groups(layout: tuple[str, ...], pairs: tuple[tuple[str, int | None], ...],
                    args: argparse.Namespace) -> int:
    """32 (Keras and Flax's default) when it divides C, else C's largest divisor below 32."""
    c = args.channel if args.channel is not None else ("C" if "C" in layout else layout[-1])
    n = dict(pairs).get(c)
    if n is None or n % 32 == 0:
        return 32
    return max(g for g in range(1, min(n, 32) + 1) if n % g == 0 and (g < n or n == 1))
