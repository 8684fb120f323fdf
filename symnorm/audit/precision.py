"""Precision audit: variance and normalized outputs in float16/bfloat16/float32/float64.

Each variance algorithm runs with every operation rounded to a floating-point format, on
inputs stored in that format, and is compared with an exact reference: the stored inputs
are dyadic rationals, so their mean and variance are computed exactly with integers, and
the normalized outputs ``(x - mean) / sqrt(v + eps)`` by mpmath at a scoped precision.

Algorithms (``n`` elements per vector; sums run left to right unless "pairwise"):

- ``one-pass``: ``s1 = sum x``, ``s2 = sum x*x``, ``m = s1/n``, ``v = s2/n - m*m``;
- ``one-pass-pairwise``: the same with pairwise (tree) sums;
- ``two-pass``: ``m = sum(x)/n``, ``v = sum((x - m)**2)/n``;
- ``two-pass-pairwise``: the same with pairwise (tree) sums;
- ``welford``: ``delta = x_k - m``, ``m += delta/k``, ``M2 += delta*(x_k - m)``, ``v = M2/n``.

Input families: ``ratio`` (mean/spread from 1 to 1e6), ``near-constant`` (all equal, or
one ulp apart), ``eps`` (eps from 1e-12 to 1e-2 around the variance), and
``pytorch-51102`` (mean 2000, std 1: the case of PyTorch issue 51102).

>>> r = run_study(StudyParams(dtypes=("float32",), methods=("one-pass", "two-pass"),
...                           ratios=(F(1000),), eps_values=(), constants=(), n=256,
...                           samples=2, include_51102=False))
>>> one, two = (r.summary("float32", "ratio 1e3", m) for m in ("one-pass", "two-pass"))
>>> one.var_err_max > 1e-2 > 1e-5 > two.var_err_max  # u (mean/spread)^2 = 0.06; n u = 2e-5
True
"""

from __future__ import annotations

import functools
import hashlib
import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction as F
from typing import Any

import mpmath
import numpy as np

from ..errors import InternalError, SymnormError

__all__ = [
    "DTYPE_NAMES",
    "METHODS",
    "TORCH",
    "Case",
    "Config",
    "PrecisionResult",
    "Row",
    "StudyParams",
    "Summary",
    "cases",
    "configs",
    "dtype",
    "exact_stats",
    "normalize",
    "run_study",
    "short",
    "unit_roundoff",
    "variance",
]

DTYPE_NAMES = ("float16", "bfloat16", "float32", "float64")
METHODS = ("one-pass", "one-pass-pairwise", "two-pass", "two-pass-pairwise", "welford")
#: Opt-in: PyTorch's own kernels (torch.var_mean, torch.nn.functional.layer_norm) on the
#: stored inputs, in the configurations whose arithmetic is the storage format's.
TORCH = "torch"
#: Elements processed (configs x cases x samples x n) before the study is refused.
MAX_WORK = 4_000_000
_IRWIN_HALL_BITS = 24  # z = sum of 12 uniforms on the grid 2^-24, minus 6: mean 0, variance 1


def dtype(name: str) -> Any:
    """The numpy scalar type of a format name (bfloat16 comes from ``ml_dtypes``)."""
    if name == "bfloat16":
        try:
            import ml_dtypes
        except ImportError:  # pragma: no cover - a declared dependency
            raise SymnormError("bfloat16 needs the ml_dtypes package "
                               "(pip install ml_dtypes)") from None
        return ml_dtypes.bfloat16
    if name not in DTYPE_NAMES:
        raise SymnormError(f"unknown dtype {name!r} (accepted: {', '.join(DTYPE_NAMES)})")
    return getattr(np, name)


def _precision_bits(name: str) -> int:
    return {"float16": 11, "bfloat16": 8, "float32": 24, "float64": 53}[name]


def unit_roundoff(name: str) -> float:
    """``u = 2**-p`` for a format with ``p`` significand bits (round to nearest).

    >>> unit_roundoff("float32") == 2.0 ** -24
    True
    """
    return 2.0 ** -_precision_bits(name)


# --- configurations and cases --------------------------------------------------------


@dataclass(frozen=True)
class Config:
    """Inputs and outputs stored in ``storage``; every operation rounded to ``compute``."""

    storage: str
    compute: str

    @property
    def label(self) -> str:
        if self.storage == self.compute:
            return self.storage
        return f"{self.storage} ({self.compute} arithmetic)"

    @property
    def slug(self) -> str:
        return self.storage if self.storage == self.compute else f"{self.storage}_{self.compute}"


def configs(dtypes: Sequence[str], accumulate: str = "both") -> list[Config]:
    """The configurations of a study; ``accumulate`` is ``same``, ``float32`` or ``both``.

    float32 arithmetic on float16/bfloat16 inputs is what PyTorch's kernels do ("opmath");
    arithmetic in the narrow format itself is what a naive implementation in that dtype does.

    >>> [c.label for c in configs(["float16", "float32"])]
    ['float16', 'float16 (float32 arithmetic)', 'float32']
    """
    if accumulate not in ("same", "float32", "both"):
        raise SymnormError(f"--accumulate must be same, float32 or both (got {accumulate!r})")
    out = []
    for name in dtypes:
        dtype(name)
        narrow = name in ("float16", "bfloat16")
        if accumulate in ("same", "both") or not narrow:
            out.append(Config(name, name))
        if narrow and accumulate in ("float32", "both"):
            out.append(Config(name, "float32"))
    return out


@dataclass(frozen=True)
class Case:
    """One input family point: ``kind`` is random (mean + spread * z), constant or ulp."""

    family: str
    label: str
    kind: str
    mean: F
    spread: F
    eps: F
    ratio: F | None = None  # mean/spread, for the ratio family's figure


def short(q: F) -> str:
    """A short name for a rational: 1e3, 1/1000, 2000, 1e-12.

    >>> [short(F(1000)), short(F(1, 10**12)), short(F(2000)), short(F(3, 7))]
    ['1e3', '1e-12', '2000', '3/7']
    """
    for k in range(-30, 31):
        if q == F(10) ** k and abs(k) >= 3:
            return f"1e{k}"
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


@dataclass(frozen=True)
class StudyParams:
    """What to run. Rationals are exact (parse them with ``figopts.parse_rational``)."""

    dtypes: tuple[str, ...] = DTYPE_NAMES
    accumulate: str = "both"
    methods: tuple[str, ...] = METHODS
    ratios: tuple[F, ...] = tuple(F(10) ** k for k in range(7))
    spread: F = F(1)
    eps: F = F(1, 10**5)  # PyTorch's default, used by the ratio and near-constant families
    eps_values: tuple[F, ...] = tuple(F(1, 10**k) for k in (12, 10, 8, 6, 4, 2))
    eps_spread: F = F(1, 1000)  # eps family: mean 0, std 1/1000, so v is about 1e-6
    constants: tuple[F, ...] = (F(1), F(1000))
    include_51102: bool = True
    n: int = 1024
    samples: int = 8
    seed: int = 0
    dps: int = 30

    def check(self) -> None:
        """Refuse out-of-range values with a message naming the option and the value."""
        def need(ok: bool, message: str) -> None:
            if not ok:
                raise SymnormError(message)
        need(bool(self.dtypes), "--dtypes needs at least one dtype")
        for name in self.dtypes:
            dtype(name)
        need(bool(self.methods), "--methods needs at least one method")
        need(bool(self.ratios or self.eps_values or self.constants or self.include_51102),
             "no input case left: give --ratios, --eps-values or --constants")
        for m in self.methods:
            need(m in (*METHODS, TORCH),
                 f"unknown method {m!r} (accepted: {', '.join((*METHODS, TORCH))})")
        if TORCH in self.methods:
            try:
                import torch  # noqa: F401
            except ImportError:
                raise SymnormError("the torch method needs PyTorch "
                                   "(pip install 'symnorm[torch]')") from None
        need(2 <= self.n <= 65536, f"--n must lie in [2, 65536] (got {self.n})")
        need(1 <= self.samples <= 1000, f"--samples must lie in [1, 1000] (got {self.samples})")
        need(0 <= self.seed < 2**63, f"--seed must lie in [0, 2**63) (got {self.seed})")
        need(15 <= self.dps <= 200, f"--dps must lie in [15, 200] (got {self.dps})")
        for r in self.ratios:
            need(1 <= r <= 10**9, f"--ratios values must lie in [1, 1e9] (got {short(r)})")
        for e in (self.eps, *self.eps_values):
            need(0 < e <= 1, f"eps values must lie in (0, 1] (got {short(e)})")
        for name, s in (("--spread", self.spread), ("--eps-spread", self.eps_spread)):
            need(F(1, 10**12) <= s <= 10**6, f"{name} must lie in [1e-12, 1e6] (got {short(s)})")
        for c in self.constants:
            need(F(1, 1000) <= c <= 10**4, f"--constants values must lie in [1e-3, 1e4] "
                 f"(got {short(c)})")
        for what, values in (("--ratios", self.ratios), ("--eps-values", self.eps_values),
                             ("--constants", self.constants), ("--dtypes", self.dtypes),
                             ("--methods", self.methods)):
            need(len(set(values)) == len(values), f"{what} lists a value twice")
            need(len(values) <= 16, f"{what} takes at most 16 values (got {len(values)})")
        work = (len(configs(self.dtypes, self.accumulate)) * len(cases(self))
                * self.samples * self.n)
        need(work <= MAX_WORK, f"the study would process {work} elements (configurations x "
             f"cases x samples x n), above the limit {MAX_WORK}; use fewer samples or a "
             "smaller --n")


def cases(p: StudyParams) -> list[Case]:
    """The input families of a study, in table order."""
    out = [Case("ratio", f"ratio {short(r)}", "random", r * p.spread, p.spread, p.eps, r)
           for r in p.ratios]
    if p.include_51102:
        out.append(Case("pytorch-51102", "51102: mean 2000, std 1", "random", F(2000), F(1),
                        p.eps))
    for c in p.constants:
        out.append(Case("near-constant", f"constant {short(c)}", "constant", c, F(0), p.eps))
        out.append(Case("near-constant", f"{short(c)} +- 1 ulp", "ulp", c, F(0), p.eps))
    out += [Case("eps", f"eps {short(e)}", "random", F(0), p.eps_spread, e) for e in p.eps_values]
    return out


# --- inputs --------------------------------------------------------------------------


def _raw_bits(seed: int, label: str, sample: int, count: int) -> np.ndarray:
    """``count`` raw 64-bit words of PCG64 seeded from (seed, case, sample).

    A bit generator's raw stream is what numpy keeps stable across versions (its
    ``Generator`` methods may change), so the inputs do not move with numpy.
    """
    digest = hashlib.sha256(f"symnorm-precision:{seed}:{label}:{sample}".encode()).digest()
    return np.random.PCG64(int.from_bytes(digest[:16], "little")).random_raw(count)


def _irwin_hall(seed: int, label: str, sample: int, n: int) -> list[int]:
    """``n`` integers Z with Z / 2^24 distributed as a sum of 12 uniforms minus 6 (var 1)."""
    top = _raw_bits(seed, label, sample, 12 * n).reshape(n, 12) >> np.uint64(64 - _IRWIN_HALL_BITS)
    return [int(z) - (6 << _IRWIN_HALL_BITS) for z in top.astype(np.int64).sum(axis=1)]


def _ulp(c: F, name: str) -> F:
    """The spacing of the format ``name`` just above the positive rational ``c``."""
    e = math.floor(math.log2(c.numerator) - math.log2(c.denominator))
    while F(2) ** e > c:  # guard the float log2 against an off-by-one
        e -= 1
    while F(2) ** (e + 1) <= c:
        e += 1
    return F(2) ** (e - _precision_bits(name) + 1)


def inputs(case: Case, storage: str, n: int, samples: int, seed: int) -> np.ndarray:
    """The stored inputs of a case: a (samples, n) array of the storage format.

    Every point is an exact rational (``mean + spread * Z / 2^24``, or ``c + k ulp``)
    rounded to float64 and then to the format (the reference uses the stored values, so
    this rounding is part of the input, not an error).  The same seed gives the same
    rational points for every format.
    """
    T = dtype(storage)
    if case.kind == "random":
        rows = [_random_row(case, n, s, seed) for s in range(samples)]
        with np.errstate(over="ignore"):
            return np.array(rows, dtype=np.float64).astype(T)
    with np.errstate(over="ignore"):
        stored = float(np.array(float(case.mean)).astype(T))
    if not math.isfinite(stored):
        return np.full((samples, n), stored, T)
    ulp = _ulp(F(stored), storage)
    ks = np.zeros((samples, n), np.int64)
    if case.kind == "ulp":
        ks = np.array([(_raw_bits(seed, case.label, s, n) % np.uint64(3)).astype(np.int64) - 1
                       for s in range(samples)])
    # c + k ulp with k in {-1, 0, 1} and ulp a power of two: exact in float64, and meant to
    # be exact in the format (checked: the label says "1 ulp")
    rows = stored + ks.astype(np.float64) * float(ulp)
    out = rows.astype(T)
    if not np.array_equal(out.astype(np.float64), rows) or any(
            F(float(v)) != F(stored) + int(k) * ulp for v, k in zip(rows[:, :4].flat,
                                                                ks[:, :4].flat)):
        raise InternalError(f"{case.label}: c + k ulp is not exact in {storage}")
    return out


@functools.lru_cache(maxsize=4096)
def _random_row(case: Case, n: int, sample: int, seed: int) -> tuple[float, ...]:
    """The float64 values nearest to ``mean + spread * Z / 2^24`` (shared by all formats)."""
    a, b = case.mean.numerator, case.mean.denominator
    c, d = case.spread.numerator, case.spread.denominator
    den = b * d << _IRWIN_HALL_BITS
    top = a * d << _IRWIN_HALL_BITS
    return tuple((top + c * b * z) / den  # int / int: rounded once
                 for z in _irwin_hall(seed, case.label, sample, n))


# --- the algorithms, every operation rounded to the compute format -------------------


def _seq_sum(a: np.ndarray) -> np.ndarray:
    s = a[:, 0].copy()
    for j in range(1, a.shape[1]):
        s = s + a[:, j]
    return s


def _pair_sum(a: np.ndarray) -> np.ndarray:
    while a.shape[1] > 1:
        if a.shape[1] % 2:  # adding 0 is exact: an odd element passes up unchanged
            a = np.concatenate([a, np.zeros((a.shape[0], 1), a.dtype)], axis=1)
        a = a[:, 0::2] + a[:, 1::2]
    return a[:, 0]


def _div(a: np.ndarray, k: int) -> np.ndarray:
    """``a / k`` correctly rounded to ``a``'s format, with the integer ``k`` exact.

    Dividing in float64 and rounding once is correctly rounded for formats of at most 24
    bits (53 >= 2 * 24 + 2), so no format has to hold ``k`` itself (bfloat16 cannot
    hold 257).
    """
    if a.dtype == np.float64:
        return a / np.float64(k)
    return (a.astype(np.float64) / k).astype(a.dtype)


def variance(x: np.ndarray, method: str, compute: str) -> tuple[np.ndarray, np.ndarray]:
    """Mean and population variance of each row of ``x`` by ``method`` in ``compute``.

    >>> x = np.array([[1.0, 2.0, 4.0]], dtype=np.float32)
    >>> [round(float(t[0]), 6) for t in variance(x, "welford", "float32")]  # 7/3, 14/9
    [2.333333, 1.555556]
    """
    T = dtype(compute)
    x = x.astype(T)
    n = x.shape[1]
    with np.errstate(all="ignore"):
        if method in ("one-pass", "one-pass-pairwise"):
            total = _seq_sum if method == "one-pass" else _pair_sum
            m = _div(total(x), n)
            return m, _div(total(x * x), n) - m * m
        if method in ("two-pass", "two-pass-pairwise"):
            total = _seq_sum if method == "two-pass" else _pair_sum
            m = _div(total(x), n)
            d = x - m[:, None]
            return m, _div(total(d * d), n)
        if method == "welford":
            m = np.zeros(x.shape[0], T)
            m2 = np.zeros(x.shape[0], T)
            for k in range(1, n + 1):
                xk = x[:, k - 1]
                delta = xk - m
                m = m + _div(delta, k)
                m2 = m2 + delta * (xk - m)
            return m, _div(m2, n)
    raise SymnormError(f"unknown method {method!r} (accepted: {', '.join(METHODS)})")


def normalize(x: np.ndarray, mean: np.ndarray, var: np.ndarray, eps: np.ndarray,
              compute: str, storage: str) -> np.ndarray:
    """``(x - mean) / sqrt(var + eps)`` in ``compute``, rounded to ``storage`` at the end."""
    T = dtype(compute)
    with np.errstate(all="ignore"):
        e = eps.astype(np.float64).astype(T)
        y = (x.astype(T) - mean[:, None]) / np.sqrt(var + e)[:, None]
        return y.astype(dtype(storage))


# --- the exact reference ------------------------------------------------------------


@dataclass(frozen=True)
class ExactStats:
    """Exact statistics of one stored row: ``c_i = x_i - mean = num[i] * scale``."""

    mean: F
    var: F
    num: tuple[int, ...]
    scale: F


def exact_stats(row: np.ndarray) -> ExactStats:
    """The exact mean and population variance of finite stored values (dyadic rationals).

    >>> s = exact_stats(np.array([1.0, 2.0, 4.0]))
    >>> s.mean, s.var
    (Fraction(7, 3), Fraction(14, 9))
    """
    vals = np.asarray(row, dtype=np.float64)
    mant, expo = np.frexp(vals)
    ints = [int(v) for v in np.ldexp(mant, 53)]
    shifts = [int(e) - 53 for e in expo]
    e0 = min(shifts)
    xs = [m << (s - e0) for m, s in zip(ints, shifts)]
    n = len(xs)
    s1 = sum(xs)
    s2 = sum(v * v for v in xs)
    unit = F(2) ** e0
    return ExactStats(F(s1, n) * unit, F(n * s2 - s1 * s1, n * n) * unit * unit,
                      tuple(n * v - s1 for v in xs), unit / n)


def _reference_outputs(st: ExactStats, eps: F, dps: int) -> tuple[np.ndarray, np.ndarray]:
    """``y_i = c_i / sqrt(v + eps)`` as float64 pairs with ``hi + lo = y_i`` to about 10^-dps.

    ``r = scale / sqrt(v + eps)`` is evaluated once by mpmath at ``dps`` digits; an mpf is
    exactly ``man * 2^exp``, so each ``num_i * r`` is an exact integer product, split into
    its correctly rounded float64 ``hi`` and the rounded remainder ``lo`` with integer
    arithmetic (no per-element mpmath call).
    """
    with mpmath.workdps(dps):
        r = (mpmath.mpf(st.scale.numerator) / st.scale.denominator
             / mpmath.sqrt(mpmath.mpf((st.var + eps).numerator) / (st.var + eps).denominator))
        man, exp = r.man_exp
    man, shift = (int(man) << exp, 0) if exp >= 0 else (int(man), -exp)
    den = 1 << shift
    hi, lo = [], []
    for k in st.num:
        p = k * man  # y_i = p / 2^shift exactly (up to r's rounding)
        h = p / den  # int / int: correctly rounded
        a, b = h.as_integer_ratio()
        hi.append(h)
        lo.append((p * b - a * den) / (den * b))
    return np.array(hi), np.array(lo)


# --- the study ------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One sample of one case by one method in one configuration."""

    config: Config
    case: Case
    sample: int
    method: str
    var_ref: F
    var_hat: float
    var_err: float  # |v_hat - v| / v; inf when v = 0 and v_hat != 0, or v_hat not finite
    out_err: float  # max |y_hat - y| / max |y|; absolute when y = 0; inf when not finite
    out_err_relative: bool
    out_var: float  # mean(y_hat^2): about v / (v + eps) when right
    eps_absorbed: bool  # fl(v_hat + eps) == v_hat != 0: eps had no effect at all
    err_over_eps: bool  # |v_hat - v| > eps: eps does not hide the variance error


@dataclass(frozen=True)
class Summary:
    """A case by a method in a configuration, over its samples."""

    config: Config
    case: Case
    method: str
    samples: int
    var_ref_median: float
    var_ref_max: float  # 0 when every sample's stored inputs are constant
    eps_over_v: float  # median eps / v (inf when v = 0)
    var_err_median: float
    var_err_max: float
    negative: int
    zero: int  # v_hat == 0 while v > 0
    nonfinite: int
    out_err_max: float
    out_err_relative: bool
    out_var_max: float  # over the samples whose outputs are all finite (nan if none)
    out_nonfinite: int  # samples with a non-finite output (v_hat + eps <= 0, overflow)
    out_var_ref: float  # v / (v + eps) for the median sample
    eps_stored: float  # eps as the compute format holds it
    eps_absorbed: int
    err_over_eps: int

    @property
    def eps_dominates(self) -> bool:
        return self.eps_over_v >= 1


@dataclass
class PrecisionResult:
    """Everything a study measured: the parameters, every sample row and the summaries."""

    params: StudyParams
    configs: list[Config]
    cases: list[Case]
    rows: list[Row] = field(default_factory=list)
    summaries: list[Summary] = field(default_factory=list)
    #: (config label, case label) whose stored inputs overflow the format in some sample
    unrepresentable: set[tuple[str, str]] = field(default_factory=set)

    def summary(self, config: str, case: str, method: str) -> Summary:
        """The summary of ``case`` (label) by ``method`` in the configuration labelled so."""
        for s in self.summaries:
            if s.config.label == config and s.case.label == case and s.method == method:
                return s
        raise KeyError((config, case, method))


def _var_err(v_hat: float, v: F) -> float:
    if not math.isfinite(v_hat):
        return math.inf
    if v == 0:
        return 0.0 if v_hat == 0 else math.inf
    return float(abs(F(v_hat) - v) / v)


def _out_err(y_hat: np.ndarray, hi: np.ndarray, lo: np.ndarray) -> tuple[float, bool]:
    y = y_hat.astype(np.float64)
    if not np.all(np.isfinite(y)):
        return math.inf, bool(np.any(hi != 0))
    err = float(np.max(np.abs((y - hi) - lo)))
    scale = float(np.max(np.abs(hi)))
    return (err / scale, True) if scale > 0 else (err, False)


def run_study(params: StudyParams,
              progress: Callable[[str], None] | None = None) -> PrecisionResult:
    """Run every configuration, case, sample and method; summarize over samples."""
    params.check()
    result = PrecisionResult(params, configs(params.dtypes, params.accumulate), cases(params))
    for cfg in result.configs:
        if progress:
            progress(f"{cfg.label}: inputs and exact reference")
        blocks = [inputs(case, cfg.storage, params.n, params.samples, params.seed)
                  for case in result.cases]
        x = np.concatenate(blocks)
        eps = np.repeat(np.array([float(c.eps) for c in result.cases]), params.samples)
        labels = [(case, s) for case in result.cases for s in range(params.samples)]
        finite = [bool(np.all(np.isfinite(r.astype(np.float64)))) for r in x]
        stats = [exact_stats(r) if ok else None for r, ok in zip(x, finite)]
        refs = [_reference_outputs(st, case.eps, params.dps) if st else None
                for st, (case, _) in zip(stats, labels)]
        for (case, _), ok in zip(labels, finite):
            if not ok:
                result.unrepresentable.add((cfg.label, case.label))
        rows_by_method = {}
        for method in params.methods:
            if progress:
                progress(f"{cfg.label}: {method}")
            if method == TORCH:
                if cfg.storage != cfg.compute:  # torch picks its own arithmetic
                    rows_by_method[method] = []
                    continue
                v, y = _torch_run(x, eps, cfg.storage)
                absorbed = np.zeros(len(v), bool)  # torch's internal sum is not visible
            else:
                m, v = variance(x, method, cfg.compute)
                y = normalize(x, m, v, eps, cfg.compute, cfg.storage)
                with np.errstate(all="ignore"):
                    absorbed = (v + eps.astype(dtype(cfg.compute))) == v
            rows = []
            for i, ((case, s), st, ref) in enumerate(zip(labels, stats, refs)):
                if st is None:  # the format cannot hold the inputs: nothing to compare
                    continue
                vh = float(v[i])
                oe, rel = _out_err(y[i], *ref)
                yi = y[i].astype(np.float64)
                ov = float(np.mean(np.square(yi))) if np.all(np.isfinite(yi)) else math.inf
                rows.append(Row(cfg, case, s, method, st.var, vh, _var_err(vh, st.var), oe,
                                rel, ov, bool(absorbed[i]) and vh != 0,
                                not math.isfinite(vh) or abs(F(vh) - st.var) > case.eps))
            rows_by_method[method] = rows
            result.rows += rows
        for case in result.cases:
            for method in params.methods:
                rs = [r for r in rows_by_method[method] if r.case is case]
                if rs:
                    result.summaries.append(_summarize(cfg, case, method, rs))
    return result


def _torch_run(x: np.ndarray, eps: np.ndarray, storage: str) -> tuple[np.ndarray, np.ndarray]:
    """``torch.var_mean`` (population) and ``layer_norm`` over each row, in ``storage``."""
    import torch

    tdt = getattr(torch, storage)
    xt = torch.from_numpy(x.astype(np.float64)).to(tdt)  # exact: the values are in the format
    with torch.no_grad():
        v, _ = torch.var_mean(xt, dim=1, correction=0)
        y = torch.empty_like(xt)
        for e in np.unique(eps):
            rows = torch.from_numpy(np.nonzero(eps == e)[0])
            y[rows] = torch.nn.functional.layer_norm(xt[rows], (x.shape[1],), eps=float(e))
    T = dtype(storage)
    return (v.to(torch.float64).numpy().astype(T), y.to(torch.float64).numpy().astype(T))


def _summarize(cfg: Config, case: Case, method: str, rs: list[Row]) -> Summary:
    vs = sorted(r.var_ref for r in rs)
    v_med = vs[len(vs) // 2]
    eps_c = float(np.array(float(case.eps)).astype(dtype(cfg.compute)))
    return Summary(
        cfg, case, method, len(rs), float(v_med), float(vs[-1]),
        math.inf if v_med == 0 else float(case.eps / v_med),
        statistics.median(r.var_err for r in rs), max(r.var_err for r in rs),
        sum(math.isfinite(r.var_hat) and r.var_hat < 0 for r in rs),
        sum(r.var_hat == 0 and r.var_ref > 0 for r in rs),
        sum(not math.isfinite(r.var_hat) for r in rs),
        max(r.out_err for r in rs), all(r.out_err_relative for r in rs),
        max((r.out_var for r in rs if math.isfinite(r.out_var)), default=math.nan),
        sum(not math.isfinite(r.out_var) for r in rs), float(v_med / (v_med + case.eps)), eps_c,
        sum(r.eps_absorbed for r in rs), sum(r.err_over_eps for r in rs))
