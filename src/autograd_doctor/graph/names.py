"""Names for autograd nodes: the expressions (`h`, `hidden[0]`, `self.memory`,
`net[2].weight`) that hold them, written as Python the user could paste there.

`scan` turns a scope (a frame's locals, an object's attributes) into Bindings; it must stay
cheap because capture calls it on every backward: O(names in scope), never O(graph). It looks
into tuples, lists, deques and dicts, module trees, objects of the user's own classes (a
Trainer, a dataclass holding state) and the cells of the user's closures.
"""

from __future__ import annotations

import collections
import inspect
import re
import types
import weakref
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import torch

from autograd_doctor.graph.walk import Node
from autograd_doctor.source.files import is_project_file
from autograd_doctor.source.places import FrameInfo

# Containers larger than this are not looked into on the hot path (a dataset held as a
# list of tensors has no history worth naming).
MAX_CONTAINER = 32
DEEP_CONTAINER = 4096
MAX_MODULES = 256


@dataclass(frozen=True)
class Binding:
    """`expression` held a tensor whose grad_fn was `node` (kind as in FINDINGS.md)."""

    expression: str
    kind: str
    node: Node
    root: str  # the name the expression starts from (`hidden` for `hidden[0]`)
    # The code the name belongs to when it is not the scanned frame's own: a closure's free
    # variable lives in the closure's function (`mem` of `lif`), wherever the closure is held.
    owner: FrameInfo | None = None
    holder: str = ""  # for a closure's variable: the name that holds the closure (`lif1`)


def scan(scope: Mapping[str, object], kind: str, prefix: str = "", deep: bool = False
         ) -> list[Binding]:
    """`deep` (after a failure, never on the hot path): look further into nested and larger
    containers (a callback's deque of (latent, label) pairs)."""
    out: list[Binding] = []
    depth, limit = (4, DEEP_CONTAINER) if deep else (2, MAX_CONTAINER)
    for name, value in list(scope.items()):
        if name.startswith("__"):
            continue
        if type(value) is types.FunctionType:
            _scan_closure(prefix + name, value, out)
            continue
        if type(value) in _SKIP_TYPES:
            continue
        expr = prefix + name
        _scan_value(expr, value, kind, depth, out, expr, limit)
    return out


# Values that can never hold a tensor with history and fill a script's globals.
_SKIP_TYPES = frozenset({types.ModuleType, type, int, float, str, bool, type(None),
                         types.BuiltinFunctionType, types.MethodType, bytes, complex, range})
_SEQUENCES = (tuple, list, collections.deque)


def _scan_value(expr: str, value: object, kind: str, depth: int, out: list[Binding],
                root: str, limit: int = MAX_CONTAINER) -> None:
    if isinstance(value, torch.Tensor):
        node = value.grad_fn
        if node is not None:
            out.append(Binding(expr, kind, node, root))
        return
    if depth <= 0:
        return
    deep = limit > MAX_CONTAINER  # after a failure: what the hot path never reads
    element = "container-element"
    if type(value) in _SEQUENCES:
        seq: Any = value
        if len(seq) <= limit:
            for i, item in enumerate(seq):
                # A list of the user's objects (a trainer's callbacks) is one step to what
                # they keep, not two.
                below = depth if user_object(item) else depth - 1
                _scan_value(f"{expr}[{i}]", item, element, below, out, root, limit)
    elif isinstance(value, dict):
        mapping: Any = value
        if len(mapping) <= limit:
            for key, item in list(mapping.items()):
                # deep: a cache keyed by shape (`_cache[(4, 4, 4)]`) too
                if isinstance(key, (str, int)) or deep and isinstance(
                        key, tuple) and all(isinstance(k, (str, int)) for k in key):
                    _scan_value(f"{expr}[{key!r}]", item, element, depth - 1, out, root,
                                limit)
    elif isinstance(value, torch.nn.Module):
        scan_module(expr, value, out)
        if deep:  # a cache kept on the class (`_cache = {}`)
            for path, sub in list(python_paths(value))[:MAX_MODULES]:
                for name, item in list(vars(type(sub)).items()):
                    if not name.startswith("__") and isinstance(item, (dict, *_SEQUENCES)):
                        _scan_value(f"{expr}{path}.{name}", item, "attribute", depth - 1, out,
                                    f"{expr}{path}.{name}", limit)
    elif expr == "self" or user_object(value):
        # A Trainer, a dataclass holding state, a hook object: its attributes are where
        # state lives between steps.
        attributes = dict(getattr(value, "__dict__", {}))
        if deep:  # state kept on the class (`cache = {}` in its body)
            attributes = {**{k: v for k, v in vars(type(value)).items()
                             if isinstance(v, (torch.Tensor, dict, *_SEQUENCES))}, **attributes}
        for name, item in list(attributes.items()):
            if not name.startswith("__"):
                _scan_value(f"{expr}.{name}", item, "attribute", depth - 1, out,
                            f"{expr}.{name}", limit)


_USER_CLASS: dict[type, bool] = {}


def user_object(value: object) -> bool:
    """An instance of a class written in the user's project (not a library's object)."""
    cls = type(value)
    known = _USER_CLASS.get(cls)
    if known is None:
        try:
            file = inspect.getsourcefile(cls)
        except (TypeError, OSError):
            file = None
        known = _USER_CLASS[cls] = bool(file) and is_project_file(file or "") and hasattr(
            value, "__dict__")
    return known


def _scan_closure(holder: str, function: types.FunctionType, out: list[Binding]) -> None:
    """The free variables of one of the user's closures (`nonlocal mem`), named as the
    closure's own code names them."""
    cells = function.__closure__
    code = function.__code__
    if not cells or not is_project_file(code.co_filename):
        return
    owner = FrameInfo(code.co_filename, code.co_firstlineno, code.co_name, code.co_firstlineno)
    for name, cell in zip(code.co_freevars, cells):
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        if type(value) in _SKIP_TYPES or type(value) is types.FunctionType:
            continue
        found: list[Binding] = []
        _scan_value(name, value, "local", 1, found, name)
        out.extend(Binding(b.expression, b.kind, b.node, b.root, owner, holder) for b in found)


# Attributes every nn.Module has (parameters, hooks, flags): never where state is kept.
_STANDARD = frozenset(vars(torch.nn.Module()))
# Which submodules may hold state, per module tree. Walking named_modules() on every
# backward would cost a microsecond per submodule; the tree is re-read every REFRESH calls
# (and at failure time, see forget_plans), so an attribute added later is still found.
REFRESH = 50
Plan = list[tuple[str, torch.nn.Module, tuple[str, ...]]]  # (python path, module, attributes)
_plans: weakref.WeakKeyDictionary[torch.nn.Module, list[Any]] = weakref.WeakKeyDictionary()


def forget_plans() -> None:
    _plans.clear()


def _plan(module: torch.nn.Module) -> Plan:
    entry = _plans.get(module)
    if entry is None or entry[0] >= REFRESH:
        plan: Plan = []
        for count, (path, sub) in enumerate(python_paths(module)):
            if count >= MAX_MODULES:
                break
            extra = tuple(k for k in sub.__dict__ if k not in _STANDARD)
            if extra or sub._buffers or sub._parameters:
                plan.append((path, sub, extra))
        entry = [0, plan]
        _plans[module] = entry
    entry[0] += 1
    found: Plan = entry[1]
    return found


def scan_module(expr: str, module: torch.nn.Module, out: list[Binding]) -> None:
    """Tensor attributes and buffers with history anywhere in a module tree."""
    for path, sub, extra in _plan(module):
        base = expr + path
        attributes = sub.__dict__
        for name in extra:
            item = attributes.get(name)
            if isinstance(item, torch.Tensor) and not isinstance(item, torch.nn.Parameter):
                node = item.grad_fn
                if node is not None:
                    out.append(Binding(f"{base}.{name}", "attribute", node, f"{base}.{name}"))
            elif (type(item) in _SEQUENCES or isinstance(item, dict)) and not name.startswith(
                    "_"):
                _scan_value(f"{base}.{name}", item, "attribute", 1, out, f"{base}.{name}")
        for table in (sub._buffers, sub._parameters):
            # A parameter has history only after an in-place write outside no_grad (an EMA
            # teacher updated with `p.copy_(...)`): exactly the state worth naming.
            for name, held in table.items():
                if held is not None and held.grad_fn is not None:
                    out.append(Binding(f"{base}.{name}", "attribute", held.grad_fn,
                                       f"{base}.{name}"))


def index(bindings: Iterable[Binding]) -> dict[Node, list[Binding]]:
    out: dict[Node, list[Binding]] = {}
    for b in bindings:
        out.setdefault(b.node, []).append(b)
    return out


def modules_in(scope: Mapping[str, object]) -> Iterator[tuple[str, torch.nn.Module]]:
    for name, value in list(scope.items()):
        if isinstance(value, torch.nn.Module):
            yield name, value
        elif name == "self" and hasattr(value, "__dict__"):
            for attr, item in list(vars(value).items()):
                if isinstance(item, torch.nn.Module):
                    yield f"self.{attr}", item


def modules_held(scope: Mapping[str, object]) -> Iterator[tuple[str, torch.nn.Module]]:
    """Modules in these scopes, then those held one level further: in a list or dict
    (`nets[1]`) or on a plain object (`member.net`, `members[0].net`, a dataclass)."""
    yield from modules_in(scope)
    held = list(scope.items())
    owner = scope.get("self")
    if owner is not None and not isinstance(owner, torch.nn.Module) and hasattr(
            owner, "__dict__"):  # `self.peers[0]` for a trainer's list of models
        held += [(f"self.{k}", v) for k, v in list(vars(owner).items())
                 if isinstance(v, (list, tuple, dict))]
    for name, value in held:
        if isinstance(value, (torch.nn.Module, torch.Tensor, type)) or name == "self":
            continue
        items = (list(enumerate(value[:MAX_HELD])) if isinstance(value, (list, tuple)) else
                 [(repr(k), v) for k, v in list(value.items())[:MAX_HELD]]
                 if isinstance(value, dict) else [])
        for key, item in items:
            if isinstance(item, torch.nn.Module):
                yield f"{name}[{key}]", item
            else:
                yield from ((f"{name}[{key}].{a}", m) for a, m in _attribute_modules(item))
        yield from ((f"{name}.{a}", m) for a, m in _attribute_modules(value))


MAX_HELD = 64


def plain_attributes(value: object) -> list[tuple[str, object]]:
    """The attributes of a plain object that holds things (a dataclass, a trainer, a
    namespace); none for modules, tensors, classes, Python modules and builtins."""
    if isinstance(value, (torch.nn.Module, torch.Tensor, type, types.ModuleType)) or \
            getattr(type(value), "__module__", "") == "builtins":
        return []
    try:
        return list(vars(value).items())
    except TypeError:
        return []


def _attribute_modules(value: object) -> Iterator[tuple[str, torch.nn.Module]]:
    yield from ((a, m) for a, m in plain_attributes(value) if isinstance(m, torch.nn.Module))


def parameter_names(scopes: Iterable[Mapping[str, object]]) -> dict[int, str]:
    """id(parameter) -> `model.fc.weight`, `net[2].bias` for the modules visible in these
    scopes (or held in their containers and plain objects)."""
    out: dict[int, str] = {}
    scopes = list(scopes)
    for scope in scopes:
        for expr, module in modules_held(scope):
            for path, sub in python_paths(module):
                for name, param in sub._parameters.items():
                    if param is not None:
                        out.setdefault(id(param), f"{expr}{path}.{name}")
    # A learnable tensor no module holds (`log_temperature = nn.Parameter(...)`), under the
    # name that holds it; a module's own name for a parameter wins.
    for scope in scopes:
        for name, value in list(scope.items()):
            if isinstance(value, torch.nn.Parameter) and not name.startswith("_"):
                out.setdefault(id(value), name)
    return out


def module_paths(scopes: Iterable[Mapping[str, object]]) -> set[str]:
    """The Python paths of every module visible in these scopes (`distiller.connector`,
    not the plain object `distiller` that holds it)."""
    return {f"{expr}{path}" for scope in scopes for expr, module in modules_held(scope)
            for path, _ in python_paths(module)}


def python_paths(module: torch.nn.Module) -> Iterator[tuple[str, torch.nn.Module]]:
    """Every submodule with the Python that reaches it from the root: `""`, `.encoder`,
    `.layers[0]`, `.heads["cls"]` (named_modules' `layers.0` is not Python)."""
    seen: set[int] = set()
    stack: list[tuple[str, torch.nn.Module]] = [("", module)]
    while stack:
        path, sub = stack.pop(0)
        if id(sub) in seen:
            continue
        seen.add(id(sub))
        yield path, sub
        indexed = isinstance(sub, (torch.nn.Sequential, torch.nn.ModuleList))
        keyed = isinstance(sub, torch.nn.ModuleDict)
        for name, child in sub._modules.items():
            if child is None:
                continue
            if indexed and name.isdigit():
                step = f"[{name}]"
            elif keyed or not name.isidentifier():
                step = f"[{name!r}]"
            else:
                step = f".{name}"
            stack.append((path + step, child))


_STEP = re.compile(r"\.?([A-Za-z_]\w*)|(\[[^\]]*\])")


def steps(expression: str) -> list[str]:
    """`model.layers[0].weight` -> ["model", ".layers", "[0]", ".weight"]."""
    out: list[str] = []
    for found in _STEP.finditer(expression):
        name, index = found.groups()
        out.append(index if index else (f".{name}" if out else name))
    return out


def structure(value: object, depth: int = 3) -> str:
    """A short type sketch used to pick the right detach form: T, (T, T), [(T, T)],
    {T, T} (a dict's values)."""
    if isinstance(value, torch.Tensor):
        return "T"
    if depth > 0 and type(value) in (tuple, list):
        seq: Any = value
        inner = ", ".join(structure(v, depth - 1) for v in seq[:MAX_CONTAINER])
        return f"({inner})" if type(value) is tuple else f"[{inner}]"
    if depth > 0 and type(value) is dict:
        mapping: Any = value
        inner = ", ".join(structure(v, depth - 1) for v in list(mapping.values())[:MAX_CONTAINER])
        return f"{{{inner}}}"
    if value is None:
        return "None"
    return "?"
