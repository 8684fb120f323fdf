"""Draw a :class:`FigureData` with matplotlib (Agg, no pyplot) into SVG, PNG and CSV.

The output is byte-reproducible: a fixed ``svg.hashsalt``, no creation date in the
metadata, fonts rendered as paths, and numbers in the CSV written with ``repr``.
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

from ..safeio import OutputDir
from .figures import FigureData

__all__ = ["FIGURE_RC", "csv_text", "render_figure", "write_figure"]

#: Settings that make the files identical from run to run and machine to machine.
FIGURE_RC = {
    "svg.hashsalt": "symnorm",
    "svg.fonttype": "path",
    "font.family": "DejaVu Sans",
    "font.size": 10,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "path.simplify": False,
}
_COLORS = ("#1f5fa8", "#c2410c", "#15803d", "#7c3aed")


def csv_text(data: FigureData) -> str:
    """The figure's data as CSV: the x column, then one column per series."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(data.columns())
    columns = [s.y for s in data.series + data.extra]
    for i, x in enumerate(data.x):
        writer.writerow([_num(x)] + [_num(col[i]) for col in columns])
    return buf.getvalue()


def _num(value: float) -> str:
    return "" if math.isnan(value) else repr(float(value))


def write_figure(data: FigureData, outdir: Path | OutputDir) -> dict[str, Path]:
    """Write ``NAME.svg``, ``NAME.png`` and ``NAME.csv`` into ``outdir``; return the paths."""
    out = outdir if isinstance(outdir, OutputDir) else OutputDir(outdir)
    return {ext: out.write(f"{data.name}.{ext}", blob)
            for ext, blob in render_figure(data).items()}


def render_figure(data: FigureData) -> dict[str, bytes]:
    """The figure as ``{"svg": ..., "png": ..., "csv": ...}`` bytes (nothing is written)."""
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    files = {ext: io.BytesIO() for ext in ("svg", "png")}
    with matplotlib.rc_context(FIGURE_RC):
        fig = Figure(figsize=(6.4, 4.0))
        FigureCanvasAgg(fig)
        ax = fig.add_subplot()
        for k, s in enumerate(data.series):
            ax.plot(data.x, s.y, s.style, color=_COLORS[k % len(_COLORS)], label=s.label,
                    linewidth=1.8)
        for k, (x, y, label) in enumerate(data.marks):
            ax.plot([x], [y], "o", color="black", markersize=4)
            # stagger labels downwards so marks at the same height do not overprint
            offset = (8, -14 - 16 * k) if y > 0 else (8, 8 + 16 * k)
            ax.annotate(label, (x, y), textcoords="offset points", xytext=offset,
                        fontsize=8)
        if data.xscale == "log":
            ax.set_xscale("log", base=data.xbase)
            if data.xbase == 2:  # batch sizes read better as 2, 4, 8 than as 2^k
                from matplotlib.ticker import ScalarFormatter
                ax.xaxis.set_major_formatter(ScalarFormatter())
        ax.set_xlabel(data.xlabel)
        ax.set_ylabel(data.ylabel)
        ax.set_title(data.title)
        ax.legend(fontsize=8, loc="best")
        fig.tight_layout()
        fig.savefig(files["svg"], format="svg", metadata={"Date": None})
        fig.savefig(files["png"], format="png", dpi=110, metadata={"Software": None})
    return {"svg": files["svg"].getvalue(), "png": files["png"].getvalue(),
            "csv": csv_text(data).encode("utf-8")}
