"""One interface over the implementations an audit probes: torch modules, torch functionals
and plain numpy callables.

A :class:`Target` calls the implementation on a float64 numpy array and returns a float64
numpy array.  It also reads and writes what a probe needs to control: the affine parameters
(``weight``, ``bias``), the running statistics (``running_mean``, ``running_var``), the
``momentum`` hyperparameter and the training flag, when the implementation exposes them.
Every write is undone by :meth:`Target.restore` (probes take a :meth:`Target.snapshot`
first), so auditing never changes the caller's object.

>>> import numpy as np
>>> t = as_target(lambda x: x - x.mean(axis=-1, keepdims=True))
>>> t(np.array([[1.0, 3.0]])).tolist(), t.params(), t.buffers()
([[-1.0, 1.0]], {}, {})
"""

from __future__ import annotations

import copy
import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ..errors import SymnormError

__all__ = ["AuditError", "Target", "as_target", "functional", "torch_module"]

PARAMS = ("weight", "bias")
#: Running-statistics names, with the aliases other frameworks use.
BUFFER_ALIASES = {"running_mean": ("running_mean", "moving_mean", "mean"),
                  "running_var": ("running_var", "moving_variance", "moving_var", "var")}


class AuditError(SymnormError, ValueError):
    """The implementation cannot be audited as given (wrong shape, not callable, ...)."""


def _torch() -> Any:
    try:
        import torch
    except ImportError:  # pragma: no cover - the extra is optional
        raise AuditError("PyTorch is not installed (pip install 'symnorm[torch]')") from None
    return torch


def _is_torch_module(obj: Any) -> bool:
    mod = type(obj).__module__ or ""
    if not mod.startswith("torch"):
        bases = [c.__module__ for c in type(obj).__mro__]
        if not any(b.startswith("torch.nn") for b in bases):
            return False
    torch = _torch()
    return isinstance(obj, torch.nn.Module)


def _is_torch_tensor(obj: Any) -> bool:
    return type(obj).__module__.startswith("torch") and hasattr(obj, "detach")


def _printable(text: str) -> str:
    """``text`` on one line with control and format characters escaped (the user's code
    chose it: no line breaks, terminal escapes or bidi overrides)."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


class Target:
    """A callable implementation plus handles on its parameters, buffers and mode."""

    name = "callable"

    def __call__(self, x: np.ndarray) -> np.ndarray:
        try:
            y = self._call(x)
        except (SymnormError, KeyboardInterrupt):
            raise
        except BaseException as exc:  # its own failure, SystemExit included
            raise AuditError(_printable(f"{self.name} raised {type(exc).__name__} on an input "
                                        f"of shape {tuple(x.shape)}: {exc}")) from exc
        if y.shape != x.shape:
            raise AuditError(f"{self.name} returned shape {tuple(y.shape)} for an input of "
                             f"shape {tuple(x.shape)}")
        return y

    def _call(self, x: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    # -- state a probe may set ------------------------------------------------------------
    def params(self) -> dict[str, np.ndarray]:
        """The affine parameters it exposes (``weight``, ``bias``), as float64 copies."""
        return {}

    def set_param(self, name: str, value: np.ndarray) -> None:
        raise AuditError(f"{self.name} exposes no parameter {name!r}")

    def buffers(self) -> dict[str, np.ndarray]:
        """Its running statistics (``running_mean``, ``running_var``), as float64 copies."""
        return {}

    def set_buffer(self, name: str, value: np.ndarray) -> None:
        raise AuditError(f"{self.name} exposes no buffer {name!r}")

    def momentum(self) -> float | None:
        """The momentum hyperparameter it exposes (None: not exposed, or PyTorch's None)."""
        return None

    def has_momentum(self) -> bool:
        return False

    def set_momentum(self, value: float | None) -> None:
        raise AuditError(f"{self.name} exposes no momentum")

    def can_set_train(self) -> bool:
        return False

    def training(self) -> bool | None:
        """Whether it is in training mode (None: it has no mode)."""
        return None

    def set_train(self, flag: bool) -> None:
        raise AuditError(f"{self.name} has no training/eval switch")

    def snapshot(self) -> Any:
        return None

    def restore(self, snap: Any) -> None:
        return None


class _NumpyTarget(Target):
    """A numpy callable; state lives in attributes of the callable or in ``buffers``."""

    def __init__(self, fn: Callable[..., Any], buffers: Mapping[str, Any] | None,
                 train: bool | None) -> None:
        if not callable(fn):
            raise AuditError(f"{fn!r} is not callable")
        self.fn = fn
        self.name = getattr(fn, "__qualname__", None) or type(fn).__name__
        self._buffers: dict[str, Any] = {}
        for canon, aliases in BUFFER_ALIASES.items():
            for a in aliases:
                if buffers is not None and a in buffers:
                    self._buffers[canon] = buffers[a]
                    break
                if buffers is None and a != aliases[-1] and isinstance(
                        getattr(fn, a, None), np.ndarray):  # "mean"/"var" only when named
                    self._buffers[canon] = getattr(fn, a)
                    break
        for arr in self._buffers.values():
            if not isinstance(arr, np.ndarray) or not arr.flags.writeable:
                raise AuditError("buffers must be writable numpy arrays the callable reads")
        self._train = train
        self._kw_training = _accepts(fn, "training")
        if train is None and self._kw_training:
            self._train = True

    def _call(self, x: np.ndarray) -> np.ndarray:
        if self._kw_training and self._train is not None:
            out = self.fn(x, training=self._train)
        else:
            out = self.fn(x)
        return np.asarray(out, dtype=np.float64)

    def params(self) -> dict[str, np.ndarray]:
        return {p: np.array(getattr(self.fn, p), dtype=np.float64) for p in PARAMS
                if isinstance(getattr(self.fn, p, None), np.ndarray)}

    def set_param(self, name: str, value: np.ndarray) -> None:
        if name not in self.params():
            super().set_param(name, value)
        getattr(self.fn, name)[...] = value

    def buffers(self) -> dict[str, np.ndarray]:
        return {k: np.array(v, dtype=np.float64) for k, v in self._buffers.items()}

    def set_buffer(self, name: str, value: np.ndarray) -> None:
        self._buffers[name][...] = value

    def has_momentum(self) -> bool:
        return isinstance(getattr(self.fn, "momentum", None), (int, float))

    def momentum(self) -> float | None:
        return float(self.fn.momentum) if self.has_momentum() else None

    def set_momentum(self, value: float | None) -> None:
        if not self.has_momentum():
            super().set_momentum(value)
        self.fn.momentum = value

    def can_set_train(self) -> bool:
        return self._kw_training

    def training(self) -> bool | None:
        return self._train

    def set_train(self, flag: bool) -> None:
        if not self._kw_training:
            super().set_train(flag)
        self._train = flag

    def snapshot(self) -> Any:
        return (self.params(), self.buffers(), self.momentum(), self._train)

    def restore(self, snap: Any) -> None:
        params, bufs, mom, train = snap
        for k, v in params.items():
            self.set_param(k, v)
        for k, v in bufs.items():
            self.set_buffer(k, v)
        if self.has_momentum():
            self.fn.momentum = mom
        self._train = train


class _TorchModuleTarget(Target):
    """A ``torch.nn.Module``, audited on a float64 deep copy (the caller's module is untouched)."""

    def __init__(self, module: Any, train: bool | None) -> None:
        torch = _torch()
        self.torch = torch
        self.module = copy.deepcopy(module).to(torch.float64)
        self.name = type(module).__name__
        if train is not None:
            self.module.train(train)

    def _call(self, x: np.ndarray) -> np.ndarray:
        with self.torch.no_grad():
            out = self.module(self.torch.from_numpy(np.ascontiguousarray(x, np.float64)))
        return out.detach().numpy().astype(np.float64)

    def params(self) -> dict[str, np.ndarray]:
        return {p: getattr(self.module, p).detach().numpy().copy() for p in PARAMS
                if getattr(self.module, p, None) is not None}

    def set_param(self, name: str, value: np.ndarray) -> None:
        if name not in self.params():
            super().set_param(name, value)
        with self.torch.no_grad():
            getattr(self.module, name).copy_(self.torch.from_numpy(np.asarray(value, float)))

    def buffers(self) -> dict[str, np.ndarray]:
        return {b: getattr(self.module, b).detach().numpy().copy() for b in BUFFER_ALIASES
                if getattr(self.module, b, None) is not None}

    def set_buffer(self, name: str, value: np.ndarray) -> None:
        with self.torch.no_grad():
            getattr(self.module, name).copy_(self.torch.from_numpy(np.asarray(value, float)))
            nbt = getattr(self.module, "num_batches_tracked", None)
            if nbt is not None:  # a known buffer state starts a fresh cumulative average
                nbt.zero_()

    def has_momentum(self) -> bool:
        return hasattr(self.module, "momentum")

    def momentum(self) -> float | None:
        m = getattr(self.module, "momentum", None)
        return None if m is None else float(m)

    def set_momentum(self, value: float | None) -> None:
        self.module.momentum = value

    def can_set_train(self) -> bool:
        return True

    def training(self) -> bool | None:
        return bool(self.module.training)

    def set_train(self, flag: bool) -> None:
        self.module.train(flag)

    def snapshot(self) -> Any:
        return copy.deepcopy(self.module.state_dict()), self.momentum(), self.module.training

    def restore(self, snap: Any) -> None:
        state, mom, train = snap
        self.module.load_state_dict(state)
        if self.has_momentum():
            self.module.momentum = mom
        self.module.train(train)


class _TorchFunctionalTarget(Target):
    """A ``torch.nn.functional`` function (or any function of a tensor) with fixed keywords.

    Keyword tensors ``weight``, ``bias``, ``running_mean``, ``running_var`` are copied to
    float64 and become settable; ``momentum`` and ``training`` keywords are settable too.
    """

    def __init__(self, fn: Callable[..., Any], kwargs: Mapping[str, Any],
                 train: bool | None) -> None:
        torch = _torch()
        self.torch = torch
        self.fn = fn
        self.name = getattr(fn, "__qualname__", None) or repr(fn)
        self.kw: dict[str, Any] = {}
        for k, v in kwargs.items():
            self.kw[k] = v.detach().clone().to(torch.float64) if _is_torch_tensor(v) else (
                torch.from_numpy(np.array(v, np.float64)) if isinstance(v, np.ndarray) else v)
        if train is not None:
            if "training" in self.kw or _accepts(fn, "training"):
                self.kw["training"] = train
            elif "use_input_stats" in self.kw or _accepts(fn, "use_input_stats"):
                self.kw["use_input_stats"] = train

    def _call(self, x: np.ndarray) -> np.ndarray:
        t = self.torch.from_numpy(np.ascontiguousarray(x, np.float64))
        with self.torch.no_grad():
            out = self.fn(t, **self.kw)
        return out.detach().numpy().astype(np.float64)

    def _tensors(self, names: tuple[str, ...]) -> dict[str, np.ndarray]:
        return {k: self.kw[k].numpy().copy() for k in names
                if _is_torch_tensor(self.kw.get(k))}

    def params(self) -> dict[str, np.ndarray]:
        return self._tensors(PARAMS)

    def set_param(self, name: str, value: np.ndarray) -> None:
        if name not in self.params():
            super().set_param(name, value)
        self.kw[name].copy_(self.torch.from_numpy(np.asarray(value, np.float64)))

    def buffers(self) -> dict[str, np.ndarray]:
        return self._tensors(tuple(BUFFER_ALIASES))

    def set_buffer(self, name: str, value: np.ndarray) -> None:
        self.kw[name].copy_(self.torch.from_numpy(np.asarray(value, np.float64)))

    def has_momentum(self) -> bool:
        return "momentum" in self.kw or _accepts(self.fn, "momentum")

    def momentum(self) -> float | None:
        m = self.kw.get("momentum", _default(self.fn, "momentum"))
        return None if m is None else float(m)

    def set_momentum(self, value: float | None) -> None:
        self.kw["momentum"] = value

    def _mode_key(self) -> str | None:
        for k in ("training", "use_input_stats"):
            if k in self.kw or _accepts(self.fn, k):
                return k
        return None

    def can_set_train(self) -> bool:
        return self._mode_key() is not None

    def training(self) -> bool | None:
        k = self._mode_key()
        if k is None:
            return None
        return bool(self.kw.get(k, _default(self.fn, k)))

    def set_train(self, flag: bool) -> None:
        k = self._mode_key()
        if k is None:
            super().set_train(flag)
        self.kw[k] = flag

    def snapshot(self) -> Any:
        return {k: (v.clone() if _is_torch_tensor(v) else v) for k, v in self.kw.items()}

    def restore(self, snap: Any) -> None:
        self.kw = {k: (v.clone() if _is_torch_tensor(v) else v) for k, v in snap.items()}


@functools.lru_cache(maxsize=256)
def _signature(fn: Any) -> inspect.Signature | None:
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):
        return None


def _accepts(fn: Any, name: str) -> bool:
    try:
        sig = _signature(fn)
    except TypeError:  # unhashable callable
        sig = None
    return sig is not None and name in sig.parameters


def _default(fn: Any, name: str) -> Any:
    sig = _signature(fn)
    if sig is None or name not in sig.parameters:
        return None
    d = sig.parameters[name].default
    return None if d is inspect.Parameter.empty else d


def torch_module(module: Any, *, train: bool | None = None) -> Target:
    """Wrap a ``torch.nn.Module`` (BatchNorm1d/2d, LayerNorm, GroupNorm, InstanceNorm2d,
    RMSNorm, ...); ``train`` sets its mode (None: keep the module's own)."""
    return _TorchModuleTarget(module, train)


def functional(fn: Callable[..., Any], *, train: bool | None = None, **kwargs: Any) -> Target:
    """Wrap ``torch.nn.functional.<norm>`` with its keywords, e.g.
    ``functional(F.layer_norm, normalized_shape=(4,), eps=1e-5)``."""
    return _TorchFunctionalTarget(fn, kwargs, train)


def as_target(obj: Any, *, train: bool | None = None,
              buffers: Mapping[str, Any] | None = None) -> Target:
    """A :class:`Target` for a Target, a torch module, a ``torch.nn.functional`` function or
    a numpy callable.  ``buffers`` names mutable arrays a numpy callable reads and updates
    as its running mean and variance (keys ``running_mean``/``running_var`` or
    ``moving_mean``/``moving_variance``)."""
    if isinstance(obj, Target):
        if train is not None:
            obj.set_train(train)
        return obj
    if _is_torch_module(obj):
        if buffers is not None:
            raise AuditError("buffers= is for numpy callables; a torch module has its own")
        return torch_module(obj, train=train)
    if (isinstance(obj, functools.partial) and not obj.args
            and (getattr(obj.func, "__module__", "") or "").startswith("torch.nn.functional")):
        # partial(F.layer_norm, normalized_shape=...): its keywords, settable like ours
        return functional(obj.func, train=train, **{**obj.keywords, **dict(buffers or {})})
    if (getattr(obj, "__module__", "") or "").startswith("torch.nn.functional"):
        if buffers is not None:
            return functional(obj, train=train, **dict(buffers))
        return functional(obj, train=train)
    return _NumpyTarget(obj, buffers, train)
