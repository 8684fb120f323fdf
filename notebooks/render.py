"""Execute the teaching notebooks in fresh kernels and write executed HTML copies.

Usage (with the ``notebooks`` extra installed): ``python notebooks/render.py [OUT]`` writes
``OUT/NN_name.html`` for every ``NN_*.ipynb`` next to this file (OUT defaults to
``notebooks-html``).  A cell that raises stops the run with its traceback.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbconvert import HTMLExporter

HERE = Path(__file__).resolve().parent


def render(out: Path, names: list[str] | None = None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    exporter = HTMLExporter()
    for path in sorted(HERE.glob("[0-9][0-9]_*.ipynb")):
        if names and path.stem not in names and path.name[:2] not in names:
            continue
        nb = nbformat.read(path, as_version=4)
        t0 = time.monotonic()
        with tempfile.TemporaryDirectory() as work:
            NotebookClient(nb, timeout=120, kernel_name="python3",
                           resources={"metadata": {"path": work}}).execute()
        body, _ = exporter.from_notebook_node(nb)
        target = out / f"{path.stem}.html"
        target.write_text(body, encoding="utf-8")
        print(f"{path.name}: {time.monotonic() - t0:.1f} s -> {target}")


if __name__ == "__main__":
    args = sys.argv[1:]
    render(Path(args[0]) if args else Path("notebooks-html"), args[1:] or None)
