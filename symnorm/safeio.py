"""Reading documents and writing reports when neither the input nor the output folder is trusted.

Inputs: one size cap, :data:`MAX_DOCUMENT_BYTES`, checked with ``stat`` before a byte is
read; only regular files are opened (a named pipe or a device is refused, so nothing
blocks), and the read itself is bounded.

Outputs: :class:`OutputDir` writes every file through a fresh temporary file in the real
output folder and renames it into place.  It never follows a symbolic link: the folder, a
sub-folder (``figures/``) or an existing output file that is a link is refused with
:class:`UnsafeOutputError`, so a repository that ships ``symnorm-report/report.md ->
~/.ssh/authorized_keys`` cannot turn ``symnorm report`` into a write elsewhere.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> out = OutputDir(d / "rep")
>>> out.write("a.txt", b"hi").read_bytes()
b'hi'
>>> (d / "rep" / "b.txt").symlink_to(d / "elsewhere")
>>> out.write("b.txt", b"x")
Traceback (most recent call last):
...
symnorm.safeio.UnsafeOutputError: refusing to write through the symbolic link ...b.txt (remove it, or choose another -o folder)
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from .errors import LimitError, SymnormError

__all__ = ["MAX_DOCUMENT_BYTES", "OutputDir", "UnsafeOutputError", "read_capped"]

#: The one size cap for a derivation document, in bytes (every command, every reader).
MAX_DOCUMENT_BYTES = 2_000_000


class UnsafeOutputError(SymnormError):
    """An output path is a symbolic link or not what it must be (file or folder)."""


def read_capped(path: str | Path, limit: int = MAX_DOCUMENT_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; refuse anything else first.

    Raises :class:`LimitError` for a file over the cap and ``OSError`` (with ``strerror``)
    for a missing file, a folder, a pipe or a device.
    """
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        kind = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise OSError(0, f"{kind} (only regular files are read)")
    if st.st_size > limit:
        raise LimitError(f"{path}: document larger than {limit} bytes ({st.st_size} bytes)")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # replaced between stat and open
            raise OSError(0, "not a regular file (only regular files are read)")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit:  # it grew after the stat
        raise LimitError(f"{path}: document larger than {limit} bytes")
    return b"".join(chunks)


def _is_link(path: Path) -> bool:
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except FileNotFoundError:
        return False


def _refuse_link(path: Path) -> None:
    raise UnsafeOutputError(f"refusing to write through the symbolic link {path} "
                            "(remove it, or choose another -o folder)")


#: What a written text file never holds raw (see :meth:`OutputDir.write_text`).
_INERT = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e"
                    "\u2066-\u2069]")

#: The file in an output folder that lists what symnorm wrote there.
MANIFEST = ".symnorm-files"
MANIFEST_HEADER = "# files written by symnorm; an existing file not listed here is never replaced"
MANIFEST_BYTES = 1 << 20


class OutputDir:
    """A real folder (created if missing) that files are written into atomically.

    A file that exists and is not listed in the folder's manifest (``.symnorm-files``) was
    not written by symnorm and is never replaced.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if _is_link(self.path):
            _refuse_link(self.path)
        if not self.path.is_absolute():
            # a relative -o path is resolved inside the working tree, where a downloaded
            # repository may have planted a link (`out -> ~/.ssh` for `-o out/report`): no
            # folder on the way may be a link. An absolute path is the user's own spelling.
            for parent in list(self.path.parents)[:-1]:
                if _is_link(parent):
                    _refuse_link(parent)
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise UnsafeOutputError(f"output folder {self.path} exists and is not a "
                                    "folder") from None
        except OSError as exc:
            raise UnsafeOutputError(f"cannot create the output folder {self.path}: "
                                    f"{exc.strerror}") from None
        if _is_link(self.path) or not self.path.is_dir():
            raise UnsafeOutputError(f"output folder {self.path} is not a plain folder")

    def check(self, name: str, folder: bool = False) -> None:
        """Refuse now, before any work, what :meth:`write` or :meth:`sub` would refuse."""
        target = self.path / name
        if _is_link(target):
            _refuse_link(target)
        if folder and target.exists() and not target.is_dir():
            raise UnsafeOutputError(f"{target} exists and is not a folder (remove it)")
        if not folder and target.is_dir():
            raise UnsafeOutputError(f"{target} is a folder; cannot write the report file there")
        if not folder and target.exists() and name not in self._written():
            # a file symnorm did not write here (the user's notes, the input document itself
            # with -o .): never replaced
            raise UnsafeOutputError(f"{target} exists and was not written by symnorm; "
                                    "refusing to replace it (choose a new or empty -o folder, "
                                    "or remove the file)")

    def _written(self) -> set[str]:
        """The names symnorm wrote into this folder (its manifest :data:`MANIFEST`)."""
        target = self.path / MANIFEST
        if _is_link(target) or not target.is_file():
            return set()
        try:
            text = target.read_bytes()[:MANIFEST_BYTES].decode("utf-8", "replace")
        except OSError:
            return set()
        return {line for line in text.splitlines()[1:] if line}

    def _record(self, name: str) -> None:
        names = self._written()
        if name in names:
            return
        body = "\n".join([MANIFEST_HEADER, *sorted(names | {name})]) + "\n"
        self._replace(MANIFEST, body.encode("utf-8", "backslashreplace"))

    def sub(self, name: str) -> OutputDir:
        """A sub-folder ``name`` (refused if it is a link or a file)."""
        self.check(name, folder=True)
        return OutputDir(self.path / name)

    def write(self, name: str, data: bytes) -> Path:
        """Write ``data`` to ``name`` through a temporary file renamed into place; the name is
        recorded in the folder's manifest, so that only files symnorm wrote are replaced."""
        self.check(name)
        target = self._replace(name, data)
        self._record(name)
        return target

    def _replace(self, name: str, data: bytes) -> Path:
        target = self.path / name
        if _is_link(target):
            _refuse_link(target)
        fd, tmp = _temporary(self.path, name)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            if _is_link(target):  # appeared meanwhile: still never follow it
                _refuse_link(target)
            os.replace(tmp, target)  # replaces a link itself, never its target
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return target

    def write_text(self, name: str, text: str) -> Path:
        """Write ``text`` as UTF-8, with the characters that reorder or control what a reader
        sees (C0/C1 controls but newline and tab, DEL, bidi overrides and isolates) shown as
        ``[U+XXXX]``: ``cat report.md`` or a browser then shows them and never obeys them."""
        text = _INERT.sub(lambda m: f"[U+{ord(m.group()):04X}]", text.replace("\r\n", "\n"))
        return self.write(name, text.encode("utf-8", "backslashreplace"))  # lone surrogates: text


def _temporary(folder: Path, name: str) -> tuple[int, str]:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    for attempt in range(100):
        tmp = folder / f".{name}.{os.getpid()}.{attempt}.tmp"
        try:
            return os.open(tmp, flags, 0o644), str(tmp)
        except FileExistsError:
            continue
        except OSError as exc:
            raise UnsafeOutputError(f"cannot write into {folder}: {exc.strerror}") from None
    raise UnsafeOutputError(f"cannot create a temporary file in {folder}")
