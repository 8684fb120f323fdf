"""``symnorm zoo``: the normalization family side by side for one layout and its sizes.

    symnorm zoo                                   # N C H W with N=16 C=64 H=W=28, GroupNorm(32)
    symnorm zoo --groups 1 2 64                   # several GroupNorm rows
    symnorm zoo --layout "N T D" --sizes "N=8 T=128 D=512" --json
"""

from __future__ import annotations

import argparse

from ..family.layout import parse_layout, parse_sizes
from ..family.zoo import DEFAULT_LAYOUT, DEFAULT_SIZES, render_json, render_text, zoo


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--layout", default=DEFAULT_LAYOUT,
                        help=f"axis names in order (default: {DEFAULT_LAYOUT!r})")
    parser.add_argument("--sizes", default=None, metavar="AXIS=N ...",
                        help=f"axis sizes, e.g. 'N=16 C=64' (default for {DEFAULT_LAYOUT}: "
                             f"{DEFAULT_SIZES!r}; otherwise symbolic)")
    parser.add_argument("--size", action="append", default=[], metavar="AXIS=N",
                        help="one axis size; repeatable, added to --sizes")
    parser.add_argument("--groups", type=int, nargs="+", default=[32], metavar="G",
                        help="GroupNorm group counts, one row each (default: 32)")
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
    for text in [args.sizes or "", *args.size]:
        merged.update((a, n) for a, n in parse_sizes(text, layout) if n is not None)
    pairs = parse_sizes(merged, layout)
    rows = zoo(layout, pairs, args.groups, batch=args.batch, channel=args.channel,
               ln_axes=args.ln_axes)
    if args.json:
        print(render_json(rows, layout, pairs))
    else:
        shown = " ".join(f"{a}={'?' if n is None else n}" for a, n in pairs)
        print(render_text(rows, " ".join(layout), shown))
    return 0
