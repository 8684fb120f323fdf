"""Pictures and numbers for notebooks 04-06: batch coupling, the family, running statistics, depth."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import mpmath
import numpy as np
import sympy
from matplotlib.figure import Figure

from ..family.apply import forward
from ..spec import batch_norm, group_norm, layer_norm
from .figures import finish, new_figure, rationals

__all__ = ["batch_outputs", "plot_batch_dependence", "plot_momentum", "plot_pair_flip",
           "plot_post_norm_gain", "plot_shared_statistics", "plot_train_vs_eval",
           "running_means", "shared_cells"]


def plot_pair_flip(eps_values: Sequence[Any] = ("1/100", "1/10", "1"),
                   b_max: int = 4) -> Figure:
    """The seed paper's figure 2: ``BN(0; {0, b})`` against the other sample b."""
    fig, (ax,) = new_figure(width=7, height=4)
    bs = [sympy.Rational(k, 20) for k in range(-20 * b_max, 20 * b_max + 1) if k != 0]
    for eps in rationals(eps_values):
        spec = batch_norm("N C", eps, sizes="N=2 C=1")
        ys = []
        for b in bs:
            with mpmath.workdps(30):
                ys.append(float(forward(spec, [[0], [b]], backend="mpmath", dps=30).y[0][0]))
        ax.plot([float(b) for b in bs], ys, label=f"eps = {eps}")
    for b in (-2, 2):
        spec = batch_norm("N C", "1/100", sizes="N=2 C=1")
        y = forward(spec, [[0], [b]]).y[0][0]
        ax.scatter([b], [float(y)], color="black", zorder=3)
        ax.annotate(f"BN(0; {{0, {b}}}) ≈ {float(y):+.4f}", (b, float(y)),
                    textcoords="offset points", xytext=(-40 if b < 0 else -130, -22 if b < 0
                                                        else 14), fontsize=8)
    ax.scatter([], [], color="black", label="paper's points, eps = 1/100")
    ax.axhline(0, color="grey", lw=0.5)
    ax.set_title("The same sample 0 flips sign with its batch-mate b")
    ax.set_xlabel("value b of the other sample (input units)")
    ax.set_ylabel("BN output of the sample 0 (dimensionless)")
    ax.legend(loc="upper right", fontsize=8)
    return finish(fig)


def _layers_cfg(groups: int = 2) -> dict[str, Any]:
    return {"BatchNorm": lambda n: batch_norm("N C H W", "1/100000",
                                              sizes=f"N={n} C=4 H=2 W=2"),
            "LayerNorm": lambda n: layer_norm(layout="N C H W", axes="C H W", eps="1/100000",
                                              sizes=f"N={n} C=4 H=2 W=2"),
            f"GroupNorm({groups})": lambda n: group_norm(groups, "N C H W", "1/100000",
                                                         sizes=f"N={n} C=4 H=2 W=2")}


def _sample(rng: np.random.Generator) -> np.ndarray:
    return np.array([sympy.Rational(int(k), 4) for k in rng.integers(-12, 13, size=16)],
                    dtype=object).reshape(4, 2, 2)


def batch_outputs(batch_size: int = 4, draws: int = 12, seed: int = 0) -> dict[str, list[float]]:
    """Output at cell (c=0, h=0, w=0) of one fixed sample, drawn with ``draws`` random batches.

    Returns one list of ``draws`` values per layer (BatchNorm, LayerNorm, GroupNorm(2)).
    """
    if batch_size < 2:
        raise ValueError(f"batch_size must be >= 2 (got {batch_size})")
    rng = np.random.default_rng(seed)
    fixed = _sample(rng)
    out: dict[str, list[float]] = {}
    batches = [np.stack([fixed] + [_sample(rng) for _ in range(batch_size - 1)])
               for _ in range(draws)]
    for name, make in _layers_cfg().items():
        spec = make(batch_size)
        out[name] = [float(forward(spec, x, backend="mpmath", dps=30).y[0, 0, 0, 0])
                     for x in batches]
    return out


def _draw_batch(ax: Any, batch_size: int, draws: int, seed: int) -> None:
    values = batch_outputs(batch_size, draws, seed)
    for k, (name, ys) in enumerate(values.items()):
        ax.scatter(np.arange(1, draws + 1) + (k - 1) * 0.15, ys, s=24,
                   label=f"{name}: spread {max(ys) - min(ys):.3f}")
    ax.set_title(f"One sample, {draws} random batches of size {batch_size}")
    ax.set_xlabel("batch drawn (index)")
    ax.set_ylabel("output at sample 0, cell (0,0,0) (dimensionless)")
    lo = min(min(ys) for ys in values.values())
    hi = max(max(ys) for ys in values.values())
    ax.set_ylim(lo - 0.8 * (hi - lo) - 0.5, hi + 0.2)  # room below the dots for the legend
    ax.legend(loc="lower center", fontsize=7)


def plot_batch_dependence(batch_sizes: Sequence[int] = (2, 4, 16), draws: int = 12,
                          seed: int = 0) -> Figure:
    """One panel per batch size: the same sample normalized inside different batches."""
    fig, axes = new_figure(1, len(batch_sizes), width=4.6, height=4)
    for ax, n in zip(axes, batch_sizes):
        _draw_batch(ax, n, draws, seed)
    return finish(fig)


def shared_cells(spec: Any, cell: Sequence[int]) -> np.ndarray:
    """Boolean mask over the tensor: True where an entry shares ``cell``'s statistics.

    Two entries share statistics when they agree on every axis that is not reduced, and,
    for GroupNorm, lie in the same channel group.
    """
    shape = tuple(spec.size(a) for a in spec.layout)
    if any(n is None for n in shape):
        raise ValueError("shared_cells needs concrete sizes")
    idx = np.indices(shape)
    mask = np.ones(shape, dtype=bool)
    for k, axis in enumerate(spec.layout):
        if spec.groups is not None and axis == spec.channel_axis:
            per = shape[k] // spec.groups
            mask &= idx[k] // per == cell[k] // per
        elif axis not in spec.reduce:
            mask &= idx[k] == cell[k]
    return mask


def plot_shared_statistics(specs: dict[str, Any], cell: Sequence[int] = (0, 1, 0, 0)) -> Figure:
    """An ``N C H W`` block per layer: which entries share the statistics of ``cell``.

    Each sample is a row of C tiles, each tile H x W; the chosen entry is starred.
    """
    from matplotlib.patches import Patch
    fig, axes = new_figure(1, len(specs), width=3.8, height=3.6)
    for ax, (name, spec) in zip(axes, specs.items()):
        n, c, h, w = (spec.size(a) for a in spec.layout)
        mask = shared_cells(spec, cell)
        img = np.ones((n * (h + 1) - 1, c * (w + 1) - 1, 3))
        for i in range(n):
            for j in range(c):
                for y in range(h):
                    for x in range(w):
                        colour = (0.85, 0.33, 0.1) if mask[i, j, y, x] else (0.8, 0.85, 0.9)
                        img[i * (h + 1) + y, j * (w + 1) + x] = colour
        ax.imshow(img, interpolation="nearest")
        ax.scatter([cell[1] * (w + 1) + cell[3]], [cell[0] * (h + 1) + cell[2]], marker="*",
                   s=120, color="black", label="chosen entry")
        ax.set_xticks([j * (w + 1) + (w - 1) / 2 for j in range(c)],
                      [f"C{j}" for j in range(c)])
        ax.set_yticks([i * (h + 1) + (h - 1) / 2 for i in range(n)],
                      [f"N{i}" for i in range(n)])
        ax.set_title(f"{name}:\n{spec.group_description()}", fontsize=10)
        ax.set_xlabel(f"channel, each tile H×W = {h}×{w} (index)")
        ax.set_ylabel("sample (index)")
    fig.legend(handles=[Patch(color=(0.85, 0.33, 0.1),
                              label="shares the starred entry's mean and variance"),
                        Patch(color=(0.8, 0.85, 0.9), label="normalized with other statistics"),
                        axes[0].collections[0]], loc="lower center", ncol=3, fontsize=9)
    return finish(fig, rect=(0, 0.08, 1, 1))


def _column(values: Sequence[Any]) -> list:
    """A batch of scalars as an ``N C H W`` tensor with C = H = W = 1."""
    return [[[[v]]] for v in values]


def plot_train_vs_eval(spec: Any = None, batch_size: int = 4, draws: int = 12,
                       warmup: int = 40, seed: int = 0) -> Figure:
    """One sample through BatchNorm in training mode (batch statistics) and in eval mode.

    ``spec`` is a BatchNorm spec with running statistics over ``N C H W`` with C = H = W = 1
    (default: the PyTorch preset with its eps and momentum).  ``warmup`` training batches
    (values k/4, k in [-4, 12]) fill the running statistics; then the sample 3/2 is drawn with
    ``draws`` random batches and normalized in both modes.
    """
    from ..presets import torch as torch_presets
    if spec is None:
        spec = torch_presets.batch_norm2d(sizes=f"N={batch_size} C=1 H=1 W=1")
    rng = np.random.default_rng(seed)

    def mates() -> list[sympy.Rational]:
        return [sympy.Rational(int(k), 4) for k in rng.integers(-4, 13, size=batch_size - 1)]

    state = None
    for _ in range(warmup):
        state = forward(spec, _column([sympy.Rational(3, 2)] + mates()), state=state,
                        backend="mpmath", dps=30).state
    train, evals = [], []
    for _ in range(draws):
        batch = _column([sympy.Rational(3, 2)] + mates())
        train.append(float(forward(spec, batch, state=state, backend="mpmath", dps=30)
                           .y[0][0][0][0]))
        evals.append(float(forward(spec, batch, train=False, state=state, backend="mpmath",
                                   dps=30).y[0][0][0][0]))
    fig, (ax,) = new_figure(width=7, height=4)
    idx = np.arange(1, draws + 1)
    ax.plot(idx, train, "o", label=f"train mode (batch statistics): spread "
            f"{max(train) - min(train):.3f}")
    ax.plot(idx, evals, "s-", label=f"eval mode (running statistics): spread "
            f"{max(evals) - min(evals):.3f}")
    ax.set_title(f"Sample 3/2 in {draws} batches of size {batch_size} ({spec.source or spec.name})")
    ax.set_xlabel("batch drawn (index)")
    ax.set_ylabel("BatchNorm output of the sample (dimensionless)")
    ax.legend(loc="lower right", fontsize=8)
    return finish(fig)


def running_means(spec: Any, steps: int = 60) -> list[float]:
    """The running mean after each of ``steps`` training batches {0, 2} (batch mean 1)."""
    state, out = None, []
    for _ in range(steps):
        # shape (2, 1, 1, 1): the same nesting in N C H W and N H W C
        state = forward(spec, _column([0, 2]), state=state).state
        out.append(float(state.mean[0]))
    return out


def plot_momentum(specs: dict[str, Any], steps: int = 60) -> Figure:
    """Running mean against the number of training batches, every batch having mean 1.

    ``specs`` maps a legend label to a BatchNorm spec of two samples with one channel and
    H = W = 1 (any layout), e.g. framework presets.
    """
    fig, (ax,) = new_figure(width=7, height=4)
    for name, spec in specs.items():
        ax.plot(range(1, steps + 1), running_means(spec, steps), label=name)
    ax.axhline(1, color="black", ls="--", lw=1, label="the batches' mean (1)")
    ax.set_title("Running mean from 0 towards the data mean: the momentum convention")
    ax.set_xlabel("training batches seen (count)")
    ax.set_ylabel("running mean (input units)")
    ax.set_ylim(0, 1.1)
    ax.legend(loc="center right", fontsize=8)
    return finish(fig)


def plot_post_norm_gain(alphas: Sequence[Any] = ("1/2", 1, 2), depth: int = 24) -> Figure:
    """Gain of the direct (identity) path after L layers: pre-norm 1, post-norm (1+a^2)^(-L/2).

    The per-layer factor is computed, not assumed: LayerNorm (eps = 0) of ``x + a u`` at d = 4
    with ``x = (-1, -1, 1, 1)`` and ``u = (1, -1, 1, -1)`` (both centred, squared norm d,
    orthogonal), read off as ``x^T N(x + a u) / d``.
    """
    spec = layer_norm(4, 0)
    x = [-1, -1, 1, 1]
    u = [1, -1, 1, -1]
    fig, (ax,) = new_figure(width=7, height=4)
    layers = np.arange(0, depth + 1)
    ax.plot(layers, np.ones_like(layers, dtype=float), "k--", label="pre-norm, any a (gain 1)")
    for a in rationals(alphas):
        y = forward(spec, [xi + a * ui for xi, ui in zip(x, u)]).y
        factor = sympy.nsimplify(sum(xi * yi for xi, yi in zip(x, y)) / 4)
        ax.plot(layers, [float(factor) ** k for k in layers], marker="o", ms=3,
                label=f"post-norm, a = {a}: factor {factor} per layer")
    ax.set_yscale("log")
    ax.set_title(f"The direct residual path over {depth} layers")
    ax.set_xlabel("layers (count)")
    ax.set_ylabel("gain of the direct path (dimensionless, log axis)")
    ax.legend(loc="lower left", fontsize=8)
    return finish(fig)
