"""Text that leaves symnorm for a terminal or a shell: control bytes shown, commands quoted.

Documents, labels and file names are untrusted.  :func:`visible` is the one function every
terminal boundary uses (the CLI wraps ``stdout`` and ``stderr`` in :class:`VisibleStream`):
control characters and bidirectional overrides are shown as ``\\x1b`` or ``<U+202E>``
instead of acting on the terminal.  :func:`reproduce_command` is the one place that writes a
``symnorm check FILE --only LABEL`` line, shell-quoted so that pasting it runs nothing else.

>>> visible("ok\\x1b[32m proved\\u202e")
'ok\\\\x1b[32m proved<U+202E>'
>>> reproduce_command("notes.md", "a.b-1")
'symnorm check notes.md --only a.b-1'
>>> reproduce_command("x;touch y.md", "z")
"symnorm check 'x;touch y.md' --only z"
"""

from __future__ import annotations

import re
import shlex
import unicodedata
from typing import Any, TextIO

__all__ = ["LABEL_CHARS", "VisibleStream", "is_label", "reproduce_command", "shell_quote",
           "visible"]

#: Claim labels: a letter or ``_``, then letters, digits, ``_``, ``.`` and ``-`` (ASCII).
LABEL_CHARS = "[A-Za-z_][A-Za-z0-9_.-]*"
_LABEL = re.compile(LABEL_CHARS)
#: The longest claim label (labels are shown in tables, file names and `--only` commands).
MAX_LABEL = 100
#: Characters that reorder or hide text: bidi embeddings, overrides, isolates and marks.
_BIDI = {0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)}


def is_label(text: str) -> bool:
    """Whether ``text`` is a claim label: ``[A-Za-z_][A-Za-z0-9_.-]*``, at most 100 chars."""
    return len(text) <= MAX_LABEL and _LABEL.fullmatch(text) is not None


def _shown(ch: str, newlines: bool) -> str:
    o = ord(ch)
    if ch == "\n" and newlines:
        return ch
    if o < 0x20 or o == 0x7F or 0x80 <= o < 0xA0:
        return f"\\x{o:02x}"
    if o in _BIDI or unicodedata.category(ch) in ("Cf", "Zl", "Zp", "Cs", "Co", "Cn"):
        return f"<U+{o:04X}>"
    return ch


_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e"
                     r"\u2060-\u206f\ufeff\ufff9-\ufffb\U000e0000-\U000e007f"
                     r"\ud800-\udfff]|[^\x00-\u024f]")


def visible(text: str, *, newlines: bool = True) -> str:
    """``text`` with every control, format and bidi character shown as an escape.

    Newlines are kept unless ``newlines=False`` (for one-line fields such as file names).
    """
    if not _UNSAFE.search(text):
        return text
    return "".join(_shown(ch, newlines) for ch in text)


def shell_quote(arg: str) -> str:
    """``arg`` quoted for a shell: ``shlex.quote``, or bash's ``$'...'`` for control bytes.

    >>> shell_quote("a b"), shell_quote("n\x1bx")
    ("'a b'", "$'n\\\\x1bx'")
    """
    if visible(arg, newlines=False) == arg:
        return shlex.quote(arg)
    out = []
    for ch in arg:
        o = ord(ch)
        if ch in "\\'":
            out.append("\\" + ch)
        elif 0xDC80 <= o <= 0xDCFF:  # a byte of a file name that is not UTF-8: the byte
            out.append(f"\\x{o - 0xDC00:02x}")
        elif visible(ch, newlines=False) != ch:
            out.append(f"\\x{o:02x}" if o < 0x80 else
                       f"\\u{o:04x}" if o <= 0xFFFF else f"\\U{o:08x}")
        else:
            out.append(ch)
    return "$'" + "".join(out) + "'"


def reproduce_command(file: str, label: str) -> str:
    """The shell command that re-checks one claim, every argument quoted for the shell."""
    path = f"./{file}" if file.startswith("-") else file
    return f"symnorm check {shell_quote(path)} --only {shell_quote(label)}"


class VisibleStream:
    """A text stream that passes everything written through :func:`visible`."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(visible(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
