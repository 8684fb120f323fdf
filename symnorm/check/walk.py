"""Which files ``symnorm check`` reads: named files as given, folders walked for ``.md``.

A walk skips hidden folders, virtual environments, build output, symnorm's own report
folders and what ``.gitignore`` files list (matched with ``pathspec``, as git does), and
does not follow links to folders.

>>> from pathlib import Path
>>> _skipped_folder(Path("project/.venv")), _skipped_folder(Path("project/notes"))
(True, False)
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import SourceError

__all__ = ["SKIPPED_FOLDERS", "SKIPPED_WORDS", "collect_paths", "find_documents",
           "skipped_summary"]


#: Folders a walk never enters: build output, caches and installed packages.
SKIPPED_FOLDERS = frozenset({"build", "dist", "_build", "site-packages", "node_modules",
                             "__pycache__", "symnorm-report"})
#: What the walk skips, in words (error messages and --help).
SKIPPED_WORDS = ("hidden folders, virtual environments, build output (build, dist, "
                 "*.egg-info, node_modules), symnorm reports and what .gitignore lists")


def _skipped_folder(folder: Path) -> bool:
    return _skip_reason(folder) is not None


def _skip_reason(folder: Path) -> str | None:
    """Why a walk does not enter ``folder``, in words, or ``None``."""
    name = folder.name
    if name.startswith("."):
        return "hidden"
    if name in SKIPPED_FOLDERS or name.endswith(".egg-info"):
        return "build output" if name != "symnorm-report" else "symnorm report"
    # a virtual environment (venv, virtualenv, conda) or a report symnorm wrote
    if (folder / "pyvenv.cfg").exists() or (folder / "conda-meta").is_dir():
        return "virtual environment"
    if (folder / "evidence.json").is_file() and (folder / "report.html").is_file():
        return "symnorm report"
    return None


def _gitignores(root: Path) -> list[tuple[Path, Any]]:
    """The .gitignore rules that apply in ``root`` (an absolute path): its own and, inside a
    git repository, those of its parents up to the repository's top."""
    chain = [root, *root.parents]
    top = next((i for i, p in enumerate(chain) if (p / ".git").exists()), None)
    folders = chain[:top + 1] if top is not None else [root]
    specs = [spec for f in reversed(folders) for spec in _gitignore(f)]
    # a folder named on the command line is walked even where a parent's .gitignore lists it
    return [s for s in specs if s[0] == root or not _ignored(root, True, [s])]


#: How much of a .gitignore is read, and which patterns are used: pathspec matches with
#: backtracking regular expressions, so a pattern with many ``*`` against a long path can
#: take minutes; such patterns are skipped (git itself skips the ones it cannot parse).
GITIGNORE_MAX_BYTES = 1 << 20
GITIGNORE_MAX_LINES = 10_000
GITIGNORE_MAX_PATTERN = 1024
GITIGNORE_MAX_STARS = 8
#: single ``*`` outside ``**``: each one is a backtracking ``[^/]*``; 4 of them take 0.2 s
#: against a 250-character name, 8 take 8 s against 60 characters (pathspec 1.1)
GITIGNORE_MAX_SINGLE_STARS = 3


def _gitignore(folder: Path) -> list[tuple[Path, Any]]:
    f = folder / ".gitignore"
    if not f.is_file():  # (a pipe or device is not read)
        return []
    import pathspec
    try:
        with f.open("rb") as fh:
            data = fh.read(GITIGNORE_MAX_BYTES)
    except OSError:
        return []
    patterns = []
    for line in data.decode("utf-8", errors="replace").splitlines()[:GITIGNORE_MAX_LINES]:
        if (len(line) > GITIGNORE_MAX_PATTERN or line.count("*") > GITIGNORE_MAX_STARS
                or line.replace("**", "").count("*") > GITIGNORE_MAX_SINGLE_STARS):
            continue
        try:  # one line at a time: as git does, an invalid pattern is dropped, not fatal
            patterns += pathspec.GitIgnoreSpec.from_lines([line]).patterns
        except Exception:  # noqa: BLE001, S112 - pathspec refuses with various classes
            continue
    return [(folder, pathspec.GitIgnoreSpec(patterns))] if patterns else []


def _ignored(path: Path, is_dir: bool, specs: list[tuple[Path, Any]]) -> bool:
    for base, spec in specs:
        try:
            rel = path.relative_to(base).as_posix()
        except ValueError:
            continue
        if spec.match_file(rel + "/" if is_dir else rel):
            return True
    return False


def _walk(root: Path, skipped: list[tuple[Path, str]] | None = None) -> list[Path]:
    """The ``.md`` files under ``root``, sorted, without the folders a walk skips (added to
    ``skipped`` with the reason)."""
    out: list[Path] = []
    top = root.absolute()  # .gitignore rules are matched on absolute paths
    specs = _gitignores(top)
    for here, dirs, files in os.walk(root):  # links to folders are not followed
        base = Path(here)
        where = top / base.relative_to(root)
        if base != root:  # (a sibling's rules never match here: see _ignored)
            specs = specs + _gitignore(where)
        keep = []
        for name in sorted(dirs):
            why = _skip_reason(base / name)
            if why is None and _ignored(where / name, True, specs):
                why = ".gitignore"
            if why is None:
                keep.append(name)
            elif skipped is not None:
                skipped.append((base / name, why))
        dirs[:] = keep
        out += [base / f for f in files if f.endswith(".md") and (base / f).is_file()
                and not _ignored(where / f, False, specs)]
    return sorted(out)


def find_documents(paths: Iterable[str | Path], skipped: list[tuple[Path, str]] | None = None
                   ) -> list[tuple[Path, bool]]:
    """Each file to read, and whether it was named (``True``) or found in a folder.

    Folders are walked for ``.md`` files, skipping hidden folders, virtual environments,
    build output, symnorm's report folders and paths a ``.gitignore`` lists; each skipped
    folder is added to ``skipped`` with the reason.
    """
    out: list[tuple[Path, bool]] = []
    for p in map(Path, paths):
        if p.is_dir():
            out += [(q, False) for q in _walk(p, skipped)]
        elif p.exists():
            out.append((p, True))
        else:
            raise SourceError(f"no such file or folder: {p}", str(p), 1, 1)
    return out


def collect_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Expand folders into their ``.md`` files (sorted, skipping hidden, virtual-environment,
    build, report and .gitignore'd folders); files are taken as given."""
    return [p for p, _ in find_documents(paths)]


def skipped_summary(skipped: list[tuple[Path, str]], shown: int = 5) -> str:
    """One line naming the folders a walk did not enter (the first ``shown`` of them).

    >>> skipped_summary([(Path("a/venv"), "virtual environment")])
    'skipped: 1 folder (a/venv: virtual environment)'
    """
    from ..safetext import visible
    n = len(skipped)
    names = ", ".join(f"{visible(str(p), newlines=False)}: {why}" for p, why in skipped[:shown])
    more = f", {n - shown} more" if n > shown else ""
    return f"skipped: {n} folder{'s' if n != 1 else ''} ({names}{more})"
