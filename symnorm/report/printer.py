"""The printer base class: dispatch on the model item's class, SymPy-printer style.

A concrete printer defines ``header``, ``footer`` and one ``_print_<Item>`` method per
model item class; nested parts go through :meth:`Printer.print`.
"""

from __future__ import annotations

from typing import Any

from .model import ReportModel

__all__ = ["Printer"]


class Printer:
    """Render a :class:`ReportModel` to one text format."""

    #: File name the builder writes this printer's output to.
    filename = ""

    def doprint(self, model: ReportModel) -> str:
        """The whole document: header, every item in order, footer."""
        self.model = model
        body = "".join(self.print(item) for item in model.items)
        return self.header(model) + body + self.footer(model)

    def print(self, item: Any) -> str:
        method = getattr(self, f"_print_{type(item).__name__}", None)
        if method is None:
            raise TypeError(f"{type(self).__name__} cannot print {type(item).__name__}")
        return method(item)

    def header(self, model: ReportModel) -> str:
        return ""

    def footer(self, model: ReportModel) -> str:
        return ""
