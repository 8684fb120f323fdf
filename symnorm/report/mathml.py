"""LaTeX math to sanitized MathML for the HTML report, with an escaped-code fallback.

``latex2mathml`` copies ``\\text{...}`` verbatim and turns ``\\href`` into an attribute, so
its output is re-parsed and rebuilt from a whitelist of MathML Core elements and
attributes; whatever does not survive is shown as ``<code>`` text instead.

>>> to_mathml(r"\\frac{1}{2}").startswith('<math xmlns="http://www.w3.org/1998/Math/MathML"')
True
>>> to_mathml(r"\\text{<script>x</script>}")
'<code class="tex">\\\\text{&lt;script&gt;x&lt;/script&gt;}</code>'
"""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET
from functools import lru_cache

from .texsafe import safe_math

__all__ = ["code_fallback", "to_mathml"]

_NS = "http://www.w3.org/1998/Math/MathML"
_ELEMENT_NAMES = (
    "math mrow mi mn mo ms mtext mspace msub msup msubsup mfrac msqrt mroot "
    "mstyle mpadded mphantom menclose mover munder munderover mtable mtr mtd "
    "mlabeledtr semantics annotation merror mfenced"
)
_ELEMENTS = frozenset(_ELEMENT_NAMES.split())
_ATTRIBUTE_NAMES = (
    "display displaystyle mathvariant stretchy fence separator form lspace "
    "rspace largeop movablelimits accent accentunder columnalign rowalign "
    "columnspacing rowspacing linethickness width height depth scriptlevel "
    "notation open close separators symmetric minsize maxsize"
)
_ATTRIBUTES = frozenset(_ATTRIBUTE_NAMES.split())


def code_fallback(latex: str) -> str:
    """Show ``latex`` as escaped code (used when it cannot be typeset safely)."""
    return f'<code class="tex">{html.escape(latex, quote=False)}</code>'


@lru_cache(maxsize=2048)
def to_mathml(latex: str, display: bool = False) -> str:
    """Return a ``<math>`` element for ``latex``, or escaped code if it is not safe."""
    checked = safe_math(latex)
    if checked is None:
        return code_fallback(latex)
    try:
        from latex2mathml.converter import convert
        raw = convert(checked, display="block" if display else "inline")
        root = ET.fromstring(raw)
    except Exception:  # noqa: BLE001 - any converter failure means: show the source
        return code_fallback(latex)
    clean = _rebuild(root)
    if clean is None:
        return code_fallback(latex)
    clean.set("display", "block" if display else "inline")
    return ET.tostring(clean, encoding="unicode", short_empty_elements=False)


def _rebuild(node: ET.Element) -> ET.Element | None:
    tag = node.tag.split("}", 1)[1] if node.tag.startswith("{") else node.tag
    if tag not in _ELEMENTS:
        return None
    out = ET.Element(tag if tag != "math" else "math")
    if tag == "math":
        out.set("xmlns", _NS)
    for key, value in sorted(node.attrib.items()):
        if key in _ATTRIBUTES:
            out.set(key, value)
    out.text = node.text
    for child in node:
        rebuilt = _rebuild(child)
        if rebuilt is None:
            return None
        rebuilt.tail = child.tail
        out.append(rebuilt)
    return out
