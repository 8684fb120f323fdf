"""``symnorm audit``: check a real implementation against a spec, or infer its spec.

    symnorm audit infer mymodels:ln --layout "N T D" --sizes "N=3 T=2 D=8"
    symnorm audit conform mymodels:bn --spec torch.batch_norm2d --sizes "N=2 C=3 H=2 W=2"
    symnorm audit conform mymodels:ln mymodels:ln2 --spec mymodels:ln_spec -o audit-report

``MODULE:ATTR`` names an importable object (the current folder is importable): a torch
module, a ``symnorm.audit.functional(...)`` wrapper or a numpy callable.  Importing it runs
its module's code, as ``python -c "import MODULE"`` would.  Exit 0 when it conforms / a
spec is inferred, 1 when it does not conform / no spec is established, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import re
import sys
from typing import Any

from ..errors import SymnormError

__all__ = ["add_arguments", "run"]

_TARGET = re.compile(r"[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*:[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="audit_command", metavar="AUDIT",
                                parser_class=type(parser))
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("target", metavar="MODULE:ATTR", nargs="+",
                        help="the implementation(s), e.g. mymodels:layer (importable); "
                             "several make one study, a report section each")
    common.add_argument("--sizes", nargs="+", default=None, metavar="AXIS=N",
                        help="axis sizes of the test tensors, e.g. --sizes N=2 C=4 H=3 W=2 "
                             "(or quoted: 'N=2 C=4 H=3 W=2'); put it after the targets")
    mode = common.add_mutually_exclusive_group()
    mode.add_argument("--train", dest="train", action="store_const", const=True,
                      default=None, help="audit training mode only")
    mode.add_argument("--eval", dest="train", action="store_const", const=False,
                      help="audit eval mode only")
    common.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    common.add_argument("--json", action="store_true", help="print one JSON object")
    common.add_argument("-o", "--out", default=None, metavar="OUTDIR",
                        help="also write audit.md, audit.html and audit.json into OUTDIR")
    p = sub.add_parser("infer", parents=[common], help="infer the spec by probing",
                       description="infer the spec of an implementation by probing it")
    p.add_argument("--layout", default="N C H W", help="axis names (default 'N C H W')")
    p = sub.add_parser("conform", parents=[common], help="compare with a spec",
                       description="compare an implementation with a spec on input families")
    p.add_argument("--spec", required=True, metavar="PRESET|MODULE:ATTR",
                   help="a preset such as torch.batch_norm2d (see `symnorm zoo`), or an "
                        "importable NormSpec")
    p.add_argument("--groups", type=int, default=None, help="group count for group presets")
    p.add_argument("--layout", default=None, help="layout passed to the preset")
    p.add_argument("--families", nargs="+", default=None, metavar="FAMILY",
                   help="input families: random near-constant large-mean tiny-variance "
                        "batch-of-2 batch-of-1 (default: all)")
    p.add_argument("--tol", type=float, default=None,
                   help="agreement tolerance relative to max(1, |y|) (default 1e-7)")


def load(text: str, what: str = "target") -> Any:
    """The object named ``MODULE:ATTR`` (the current folder is importable)."""
    if not _TARGET.fullmatch(text):
        raise SymnormError(f"{what} {text!r} is not MODULE:ATTR (e.g. mymodels:layer)")
    mod_name, attr = text.split(":")
    added = "" not in sys.path
    if added:
        sys.path.insert(0, "")
    try:
        mod = importlib.import_module(mod_name)
    except ImportError as exc:
        raise SymnormError(f"{what} {text!r}: cannot import {mod_name!r} ({exc})") from None
    finally:
        if added:
            sys.path.remove("")
    obj: Any = mod
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise SymnormError(f"{what} {text!r}: {type(obj).__name__} {mod_name!r} has no "
                               f"attribute {part!r}")
        obj = getattr(obj, part)
    return obj


def _spec(args: argparse.Namespace) -> Any:
    from ..presets import catalog
    from ..spec import NormSpec
    if ":" in args.spec:
        spec = load(args.spec, "spec")
        if not isinstance(spec, NormSpec):
            raise SymnormError(f"spec {args.spec!r} is a {type(spec).__name__}, not a NormSpec")
        return spec
    presets = catalog()
    if args.spec not in presets:
        raise SymnormError(f"unknown preset {args.spec!r} (one of: {', '.join(presets)})")
    make = presets[args.spec]
    params = inspect.signature(make).parameters
    kw: dict[str, Any] = {}
    if args.layout is not None:
        if "layout" not in params:
            raise SymnormError(f"preset {args.spec} has a fixed layout; drop --layout")
        kw["layout"] = args.layout
    first = next(iter(params))
    if first in ("num_groups", "groups"):
        if args.groups is None and first == "num_groups":
            raise SymnormError(f"preset {args.spec} needs --groups G")
        if args.groups is not None:
            kw[first] = args.groups
    elif args.groups is not None:
        raise SymnormError(f"preset {args.spec} has no groups; drop --groups")
    return make(sizes=args.sizes, **kw)


def _guarded(name: str, fn: Any, *args: Any) -> Any:
    """``fn(*args)`` where anything the user's code raises (a ``SystemExit``, a
    ``BaseException`` subclass, a failing property) is an :class:`AuditError` naming it;
    Ctrl-C still stops the audit."""
    from ..audit.adapters import AuditError, _printable
    try:
        return fn(*args)
    except (SymnormError, KeyboardInterrupt, MemoryError):
        raise
    except BaseException as exc:  # noqa: BLE001 - user code: SystemExit(0) must not exit 0
        raise AuditError(_printable(f"{name} raised {type(exc).__name__}: {exc}")) from None


def run(args: argparse.Namespace) -> int:
    from ..audit.report import write_audit_report
    if not args.audit_command:
        raise SymnormError("say which audit: `symnorm audit infer ...` or "
                           "`symnorm audit conform ...`")
    if args.sizes is not None:
        args.sizes = " ".join(args.sizes)
    if args.out is not None:  # refuse a bad output folder before any work
        from ..safeio import OutputDir
        OutputDir(args.out)
    # load everything first: a bad name fails before any audit runs
    targets = [(name, _guarded(name, load, name)) for name in args.target]
    spec = _spec(args) if args.audit_command == "conform" else None
    sections, texts, datas, worst = [], [], [], 0
    for name, target in targets:
        section, ok, text, data = _guarded(name, _one, args, name, target, spec)
        sections.append(section)
        texts.append(text)
        datas.append(data)
        worst = max(worst, 0 if ok else 1)
    if args.json:
        print(json.dumps(datas[0] if len(datas) == 1 else datas, indent=2, default=str))
    else:
        print("\n\n".join(texts))
    if args.out is not None:
        files = write_audit_report(sections, args.out)
        print(f"report: {files['audit.html']}", file=sys.stderr)
    return worst


def _one(args: argparse.Namespace, name: str, target: Any, spec: Any) -> tuple:
    from ..audit.report import conform_section, infer_section
    talk = sys.stderr.isatty()
    if args.audit_command == "infer":
        from ..audit.infer import infer
        if talk:
            print(f"  ... probing {name}", file=sys.stderr)
        res = infer(target, args.layout, args.sizes, train=args.train, seed=args.seed)
        return infer_section(res), res.spec is not None, res.text(), res.as_dict()
    from ..audit.conform import FAMILIES, TOL, conforms

    def progress(fam: str) -> None:
        if talk:
            print(f"  ... {name}: family {fam}", file=sys.stderr)
    res2 = conforms(target, spec, sizes=args.sizes, train=args.train,
                    families=tuple(args.families or FAMILIES), seed=args.seed,
                    tol=TOL if args.tol is None else args.tol, progress=progress)
    return conform_section(res2), res2.agree, res2.text(), res2.as_dict()
