"""The exception hierarchy: one base class, subclasses that are also ValueError/TypeError.

>>> issubclass(SpecError, ValueError)
True
>>> str(SourceError("unknown name 'q'", "doc.md", 3, 7, hint="declare it with `scalar q`"))
"doc.md:3:7: unknown name 'q' (declare it with `scalar q`)"
"""

from __future__ import annotations

__all__ = ["InternalError", "LimitError", "SourceError", "SpecError", "SymnormError"]


class SymnormError(Exception):
    """Base class of every error symnorm raises on purpose."""


class SpecError(SymnormError, ValueError):
    """A layer spec field has a bad value; the message names the field and the value."""


class SourceError(SymnormError, ValueError):
    """Malformed document text: carries ``file``, ``line``, ``column`` and a hint."""

    def __init__(self, message: str, file: str = "<input>", line: int = 1, column: int = 1,
                 hint: str = "") -> None:
        self.message, self.file, self.line, self.column, self.hint = (
            message, file, line, column, hint)
        super().__init__(str(self))

    def __str__(self) -> str:
        tail = f" ({self.hint})" if self.hint else ""
        return f"{self.file}:{self.line}:{self.column}: {self.message}{tail}"

    def __reduce__(self):  # picklable across worker processes
        return (SourceError, (self.message, self.file, self.line, self.column, self.hint))


class LimitError(SymnormError, ValueError):
    """An input exceeds a safety cap (size, nesting depth, literal size, exponent, precision)."""


class InternalError(SymnormError, RuntimeError):
    """Two engines disagree, or an invariant of symnorm itself broke: a bug, never a verdict."""
