"""The normalization family: layouts, forward map, analysis, zoo and vocabularies.

Modules: :mod:`.layout` (layout and size strings), :mod:`.apply` (the forward map of any
spec, exact / mpmath / numpy), :mod:`.analysis` (Jacobian, spectrum, invariances, batch
coupling), :mod:`.zoo` (the teaching table), :mod:`.vocabularies` (claim-language
definitions of grouped layers).  The specs themselves live in :mod:`symnorm.spec` and the
framework presets in :mod:`symnorm.presets`.
"""

__all__ = ["analysis", "apply", "layout", "vocabularies", "zoo"]
