"""A progress bar for long runs: claims done / total, the claim being decided, time elapsed.

Shown only when a person is watching: standard output and standard error are both
terminals and the output is not JSON.  The bar (tqdm) writes to the terminal under the
:class:`~symnorm.safetext.VisibleStream` wrapper, because its carriage returns and
erase-line codes must act; every label it shows passes through
:func:`~symnorm.safetext.visible` first, so a document cannot drive the terminal.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from ..safetext import visible

__all__ = ["ProgressBar", "StageBar", "progress_bar", "stage_bar", "watching"]

#: Labels longer than this are cut in the bar (only there; tables show them whole).
SHOWN_LABEL = 40


def _raw(stream: TextIO) -> Any:
    """The stream under a :class:`~symnorm.safetext.VisibleStream` (or the stream itself)."""
    return getattr(stream, "_stream", stream)


def watching(json_output: bool = False) -> bool:
    """Whether to show progress: both output streams are terminals and no JSON is wanted."""
    if json_output:
        return False
    try:
        return bool(sys.stdout.isatty() and sys.stderr.isatty())
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False


class ProgressBar:
    """Called with each verdict as it arrives; ``plan`` says which labels are coming."""

    def __init__(self, stream: TextIO) -> None:
        from tqdm import tqdm
        self._labels: list[str] = []
        self._done = 0
        self._bar = tqdm(total=0, file=_raw(stream), unit="claim", leave=False,
                         dynamic_ncols=True,
                         bar_format="{n_fmt}/{total_fmt} claims |{bar:20}| {elapsed}  {desc}")
        self._show()

    def plan(self, labels: list[str]) -> None:
        self._labels += labels
        self._bar.total = len(self._labels)
        self._show()

    def __call__(self, verdict: Any) -> None:
        self._done += 1
        self._show(refresh=False)
        self._bar.update(1)
        self._bar.refresh()  # every verdict is shown (update() skips within mininterval)

    def _show(self, refresh: bool = True) -> None:
        """Name the claim being decided: the first planned one without a verdict."""
        if self._done < len(self._labels):
            label = visible(self._labels[self._done], newlines=False)
            if len(label) > SHOWN_LABEL:
                label = label[:SHOWN_LABEL - 3] + "..."
            self._bar.set_description_str(f"checking {label}", refresh=refresh)
        else:
            self._bar.set_description_str("", refresh=refresh)

    def close(self) -> None:
        self._bar.close()

    def __enter__(self):  # -> Self
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class StageBar:
    """Steps of one long computation (``symnorm derive``): step k / n, its name, time elapsed.

    Called with the name of each step as it starts (and with a ``detail`` within a step,
    such as the claims checked so far); a background thread redraws the bar every half second, so
    the elapsed time moves during a step of minutes (``derive --d 512``).
    """

    def __init__(self, stream: TextIO, steps: int) -> None:
        import threading

        from tqdm import tqdm
        self._bar = tqdm(total=steps, file=_raw(stream), unit="step", leave=False,
                         dynamic_ncols=True,
                         bar_format="{n_fmt}/{total_fmt} steps |{bar:20}| {elapsed}  {desc}")
        self._started = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._tick, daemon=True)
        self._thread.start()

    def _tick(self) -> None:
        while not self._stop.wait(0.5):
            self._bar.refresh()

    def __call__(self, step: str, detail: str = "") -> None:
        """A new step begins (the previous one is done), or with ``detail`` the current
        step has got that far."""
        if not detail:
            if self._started:
                self._bar.update(1)
            self._started = True
        text = f"{step}: {detail}" if detail else step
        self._bar.set_description_str(visible(text, newlines=False))

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self._bar.close()

    def __enter__(self):  # -> Self
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Nothing:
    """No display (output is not a terminal, or JSON)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def progress_bar(json_output: bool = False) -> Any:
    """A context manager giving a :class:`ProgressBar` on a terminal, else ``None``."""
    return ProgressBar(sys.stderr) if watching(json_output) else _Nothing()


def stage_bar(steps: int, json_output: bool = False) -> Any:
    """A context manager giving a :class:`StageBar` on a terminal, else ``None``."""
    return StageBar(sys.stderr, steps) if watching(json_output) else _Nothing()
