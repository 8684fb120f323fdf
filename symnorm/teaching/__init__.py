"""Helpers for the teaching notebooks: claims checked inline, and figures that read on a page.

:func:`prove` checks claim-language lines exactly as ``symnorm check`` checks a ``symnorm``
block, and raises when a verdict is not the one the notebook expects, so a notebook that
states a false claim stops instead of printing it.  The ``plot_*`` functions compute with
symnorm's exact or mpmath maps and return a :class:`matplotlib.figure.Figure` built without
``pyplot``: as the last value of a cell it displays exactly once, in any backend.  Every
figure passes :func:`finish`, which refuses a panel without a title, axis labels ending in a
unit in parentheses, or a legend.

>>> r = prove("use layernorm\\nclaim idem: P*P == P", sandbox=False)
>>> [(v.label, v.status, v.scope) for v in r.verdicts]
[('idem', 'proved', 'every d >= 2')]
>>> prove("use layernorm\\nclaim wrong: P*P == 2*P", sandbox=False)
Traceback (most recent call last):
...
symnorm.teaching.claims.ClaimsNotAsExpected: wrong (line 3): refuted, expected proved
"""

from __future__ import annotations

from .batch import (
                    batch_outputs,
                    plot_batch_dependence,
                    plot_momentum,
                    plot_pair_flip,
                    plot_post_norm_gain,
                    plot_shared_statistics,
                    plot_train_vs_eval,
                    running_means,
                    shared_cells,
)
from .claims import Claims, ClaimsNotAsExpected, prove
from .figures import FigureError, finish, new_figure, rationals
from .geometry import (
                    gradient_parts,
                    plot_centering_plane,
                    plot_eps_grid,
                    plot_gradient_filter,
                    plot_jacobian_action,
                    plot_norm_vs_scale,
                    plot_plane_outputs,
                    plot_rms_vs_layer_norm,
)

__all__ = [
    "Claims",
    "ClaimsNotAsExpected",
    "FigureError",
    "batch_outputs",
    "finish",
    "gradient_parts",
    "new_figure",
    "plot_batch_dependence",
    "plot_centering_plane",
    "plot_eps_grid",
    "plot_gradient_filter",
    "plot_jacobian_action",
    "plot_momentum",
    "plot_norm_vs_scale",
    "plot_pair_flip",
    "plot_plane_outputs",
    "plot_post_norm_gain",
    "plot_rms_vs_layer_norm",
    "plot_shared_statistics",
    "plot_train_vs_eval",
    "prove",
    "rationals",
    "running_means",
    "shared_cells",
]
