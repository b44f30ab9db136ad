"""The replay's full trace: what only watching every torch call shows. Used when a script is
run again after a failure (never on the first, cheap run).

A TorchFunctionMode sees every Python-level torch call (tensor methods, functions, the `.data`
getter, grad-mode switches) and records:
- where each graph node was made: the user's frames at its creation, in `node.metadata`;
- every crossing out of autograd: a call whose tensor inputs require grad and whose tensor
  outputs do not (under no_grad, `.detach()`, `.data`, a non-differentiable op), values that
  leave torch (`.item()`, `.tolist()`, `.numpy()`) and tensors built from Python data, and
  where grad mode was last switched off;
- a bounded dataflow record (which call made which tensor from which), to walk back from a
  loss with no history to where its lineage left autograd.
A TorchDispatchMode below it sees every aten op, so also the writes that happen inside a
library call (`F.leaky_relu(..., inplace=True)`, `nn.Embedding(max_norm=...)` renormalising
its weight, an optimizer's `_foreach_add_`): each in-place write with the tensor's version
before and after, the user's frames and whether an optimizer step made it. PyTorch's global
module hooks say which modules ran, and in which grad mode.
"""

from __future__ import annotations

import os
import sys
import threading
import weakref
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

import torch
from torch.optim.optimizer import (
    register_optimizer_step_post_hook,
    register_optimizer_step_pre_hook,
)
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode

from autograd_doctor.graph.walk import tensors_in
from autograd_doctor.source.files import is_own_file, is_user_file
from autograd_doctor.source.places import FrameInfo

SITE_KEY = "autograd_doctor_site"
MAX_FLOW = 100_000  # tensor ids whose dataflow is kept (the most recently used)
MAX_PER_ID = 16  # tensors made under one id that are remembered (the latest)
MAX_SITE_FRAMES = 6
MAX_SOURCES = 64  # crossings that keep their inputs' graphs (the most recent)
LEAVING = frozenset({"item", "tolist", "numpy", "__float__", "__int__", "__bool__"})
FROM_PYTHON = frozenset({"tensor", "as_tensor", "from_numpy", "Tensor", "FloatTensor",
                         "scalar_tensor", "full", "new_tensor"})
NON_DIFFERENTIABLE = frozenset({"argmax", "argmin", "round", "floor", "ceil", "sign", "long",
                                "int", "bool", "argsort", "searchsorted", "bucketize", "eq",
                                "ne", "gt", "lt", "ge", "le", "__eq__", "__ne__", "__gt__",
                                "__lt__", "__ge__", "__le__", "topk", "sort", "max", "min",
                                "unique", "nonzero", "where", "heaviside", "to", "type",
                                "float", "double", "half"})

Site = tuple[FrameInfo, ...]  # user frames, innermost first


@dataclass
class Write:
    """An in-place write seen during the replay."""

    op: str
    shape: tuple[int, ...]
    version_before: int
    version_after: int
    site: Site
    in_step: bool  # made by an optimizer step
    grad_enabled: bool
    node_before: Any  # the written tensor's grad_fn before the write (None for a leaf)
    leaf: Any  # weakref to the written tensor when it is a leaf (a parameter)
    order: int
    # Where the user built the torch layer whose forward made the write (`nn.ReLU(inplace=
    # True)` inside an `nn.Sequential(...)`), when a layer made it.
    built: Site = ()


@dataclass
class Crossing:
    """A call whose tensor inputs require grad and whose results do not, or that takes
    values out of torch, or builds a tensor from Python data."""

    kind: str  # "no-grad", "detach", "data", "non-differentiable", "leaves-torch", "from-python"
    op: str
    site: Site
    outputs: tuple[int, ...]  # ids of the tensors it made
    order: int
    grad_off: Site = ()  # for "no-grad": where grad mode was switched off
    # What the inputs that required grad hung from (their graph nodes, or the leaves
    # themselves), so a later question "did this cut off those parameters?" is answered
    # from the graph, not from ids that Python reuses. Kept for the latest crossings only.
    sources: tuple[Any, ...] = ()


@dataclass
class Flow:
    op: str
    inputs: tuple[int, ...]
    site: Site
    crossing: Crossing | None = None
    order: int = 0  # when it was made, among every call the trace saw
    # Weakrefs to the inputs: an input still alive is told from a dead tensor that had its
    # id (a parameter lives at the address of a temporary the trace saw made earlier).
    alive: tuple[Any, ...] = ()
    # How each input was made, taken while it was alive: a temporary's id is reused by the
    # next temporaries (a loop of slice writes reuses one address hundreds of times), so a
    # lookup by id after the fact finds its record only while few others took that id.
    parents: tuple[Flow | None, ...] = ()


@dataclass
class Trace:
    writes: list[Write] = field(default_factory=list)
    crossings: list[Crossing] = field(default_factory=list)
    # id(tensor) -> how the tensors with that id were made, oldest first (Python reuses the
    # id of a dead tensor), each with a weakref to tell whether it is still that tensor.
    flow: OrderedDict[int, list[tuple[weakref.ref[Any], Flow]]] = field(
        default_factory=OrderedDict)
    modules_called: dict[int, tuple[bool, bool]] = field(default_factory=dict)  # id -> modes
    last_backward: int = 0  # the order of the latest `.backward()` call seen
    # id(leaf) -> where its requires_grad was last switched off, while it stays off (a
    # `p.requires_grad = False` in a helper loop is only known by the stack that ran it).
    frozen: dict[int, tuple[weakref.ref[Any], Site]] = field(default_factory=dict)

    # id(optimizer) -> where the user's code built it (a factory, a dataclass's builder).
    optimizers: dict[int, tuple[weakref.ref[Any], Site]] = field(default_factory=dict)

    def optimizer_built_at(self, optimizer: Any) -> Site:
        entry = self.optimizers.get(id(optimizer))
        return entry[1] if entry is not None and entry[0]() is optimizer else ()

    def frozen_at(self, tensor: torch.Tensor) -> Site:
        entry = self.frozen.get(id(tensor))
        return entry[1] if entry is not None and entry[0]() is tensor else ()

    def frozen_by_id(self, key: int) -> Site:
        """Where the tensor with this id was frozen, alive or not (a model local to a
        `main()` that returned is gone by the exit decision)."""
        entry = self.frozen.get(key)
        return entry[1] if entry is not None else ()

    def made(self, tensor: torch.Tensor) -> Flow | None:
        entries = self.flow.get(id(tensor))
        return entries[-1][1] if entries and entries[-1][0]() is tensor else None

    def flow_of(self, key: int, before: int | None = None, ref: Any = None) -> Flow | None:
        """How the tensor with this id was made: the live one's, or with `before` (the order
        of a call that took it as an input), the one that call took, alive or not: the
        latest made before that call (while that input lived, no other tensor had its id).
        With `ref` to that input still alive, only that very tensor's record counts."""
        entries = self.flow.get(key)
        if not entries:
            return None
        if before is None:
            return entries[-1][1] if entries[-1][0]() is not None else None
        tensor = ref() if ref is not None else None
        if tensor is not None:
            return next((f for r, f in reversed(entries) if r() is tensor and f.order < before),
                        None)
        return next((f for _, f in reversed(entries) if f.order < before), None)


_OPTIM_DIR = os.path.join("torch", "optim", "")
_GRAPH_TASK = getattr(torch._C, "_current_graph_task_id", None)


def _in_backward() -> bool:
    return _GRAPH_TASK is not None and _GRAPH_TASK() >= 0


def _optimizer_arithmetic(frame: FrameType | None) -> bool:
    """Is this call made by an optimizer's own code (reached before any user frame), not by
    a closure of the user's that `optimizer.step(closure)` runs?"""
    while frame is not None:
        file = frame.f_code.co_filename
        if is_user_file(file):
            return False
        if _OPTIM_DIR in file:
            return True
        frame = frame.f_back
    return False


def site_of(node: Any) -> Site | None:
    """Where the user's code made this graph node (replay only)."""
    try:
        found = node.metadata.get(SITE_KEY)
    except (AttributeError, RuntimeError):
        return None
    return found if isinstance(found, tuple) else None


def made_at(node: Any) -> Site:
    """Where a replay saw `node` made. A row write (`bank[idx] = v`) gives its tensor a
    node no op returned, so none was seen made: the value written was, in that statement."""
    found = site_of(node)
    if found is None and type(node).__name__.startswith(("IndexPutBackward", "CopySlices")):
        found = next((f for child, _ in node.next_functions[1:]
                      if child is not None and (f := site_of(child))), None)
    return found or ()


def user_site(frame: FrameType | None) -> Site:
    out: list[FrameInfo] = []
    while frame is not None and len(out) < MAX_SITE_FRAMES:
        code = frame.f_code
        if is_user_file(code.co_filename):
            out.append(FrameInfo(code.co_filename, frame.f_lineno or 0, code.co_name,
                                 code.co_firstlineno))
        elif out and is_own_file(code.co_filename):
            # Our runner holds the program: what called it (a notebook kernel, pytest) is
            # not part of where a value was made, and would push the program's own frames
            # out of the site.
            break
        frame = frame.f_back
    return tuple(out)


def _name(func: Any) -> str:
    name = getattr(func, "__name__", "") or str(func)
    if name == "__get__":  # a property getter: `.data`, `.T`...
        owner = getattr(func, "__self__", None)
        name = getattr(owner, "__name__", name)
    return str(name)


_WRITES: dict[Any, tuple[int, ...]] = {}


def _written_arguments(func: Any) -> tuple[int, ...]:
    """Positions of the arguments an aten op writes (its schema says so: `Tensor(a!)`)."""
    found = _WRITES.get(func)
    if found is None:
        try:
            arguments = func._schema.arguments
        except AttributeError:
            arguments = []
        found = _WRITES[func] = tuple(i for i, a in enumerate(arguments)
                                      if a.alias_info is not None and a.alias_info.is_write)
    return found


class _Writes(TorchDispatchMode):
    """Below autograd: every aten op that writes a tensor in place, wherever it was called."""

    def __init__(self, tracer: Tracer) -> None:
        super().__init__()
        self.tracer = tracer

    def __torch_dispatch__(self, func: Any, types: Any, args: tuple[Any, ...] = (),
                           kwargs: dict[str, Any] | None = None) -> Any:
        kwargs = kwargs or {}
        positions = _written_arguments(func)
        if not positions or threading.get_ident() != self.tracer._thread or _in_backward():
            # The engine's own writes while it runs backward (into gradients) are not the
            # program's: a saved tensor is only ever changed before the backward that reads it.
            return func(*args, **kwargs)
        written = [t for i in positions if i < len(args) for t in tensors_in(args[i])]
        versions = [t._version for t in written]
        nodes = [t.grad_fn for t in written]
        result = func(*args, **kwargs)
        self.tracer._wrote(str(func), written, versions, nodes)
        return result


class Tracer(TorchFunctionMode):
    def __init__(self) -> None:
        super().__init__()
        self.trace = Trace()
        self._order = 0
        self._in_step = 0
        self._inside = threading.local()
        self._handles: list[Any] = []
        self._thread = threading.get_ident()
        self._writes = _Writes(self)
        self._grad_off: Site = ()
        self._sourced: deque[Crossing] = deque()
        self._from_numpy: Any = torch.from_numpy
        self._module_init: Any = torch.nn.Module.__init__
        self._optimizer_init: Any = torch.optim.Optimizer.__init__
        self._built: weakref.WeakKeyDictionary[Any, Site] = weakref.WeakKeyDictionary()

    # -- installation ------------------------------------------------------------------

    def start(self) -> None:
        self._handles = [
            register_optimizer_step_pre_hook(self._step_begins),
            register_optimizer_step_post_hook(self._step_ends),
            torch.nn.modules.module.register_module_forward_pre_hook(self._module_called),
        ]
        self.__enter__()
        self._writes.__enter__()
        # torch.from_numpy does not dispatch to a function mode: seen through a wrapper
        # while the replay runs (a NumPy round trip often comes back this way).
        from_numpy = self._from_numpy = torch.from_numpy
        torch.from_numpy = lambda *a, **k: self.__torch_function__(from_numpy, (), a, k)
        # Which of several `inplace=True` layers wrote is only told by where that very layer
        # object was built: each module remembers its construction site while the replay
        # runs (the replay starts with the script, before any module exists).
        init = self._module_init = torch.nn.Module.__init__
        built = self._built

        def module_init(module: Any, *args: Any, **kwargs: Any) -> None:
            init(module, *args, **kwargs)
            if module not in built:
                built[module] = user_site(sys._getframe(1))

        torch.nn.Module.__init__ = module_init  # type: ignore[method-assign,assignment]
        # Likewise each optimizer: where it was built says which parameters it was meant to
        # hold, wherever the object went afterwards.
        optimizer_init = self._optimizer_init = torch.optim.Optimizer.__init__
        optimizers = self.trace.optimizers

        def optimizer_built(optimizer: Any, *args: Any, **kwargs: Any) -> None:
            optimizer_init(optimizer, *args, **kwargs)
            if id(optimizer) not in optimizers or optimizers[id(optimizer)][0]() is None:
                optimizers[id(optimizer)] = (weakref.ref(optimizer), user_site(sys._getframe(1)))

        torch.optim.Optimizer.__init__ = optimizer_built  # type: ignore[method-assign,assignment]

    def stop(self) -> None:
        torch.nn.Module.__init__ = self._module_init  # type: ignore[method-assign]
        torch.optim.Optimizer.__init__ = self._optimizer_init  # type: ignore[method-assign]
        torch.from_numpy = self._from_numpy
        self._writes.__exit__(None, None, None)
        self.__exit__(None, None, None)
        for handle in self._handles:
            handle.remove()
        self._handles = []

    def _step_begins(self, *args: Any) -> None:
        self._in_step += 1

    def _step_ends(self, *args: Any) -> None:
        self._in_step = max(0, self._in_step - 1)

    def _module_called(self, module: Any, args: Any) -> None:
        grad, before = torch.is_grad_enabled(), self.trace.modules_called.get(id(module))
        with_grad, without = before if before else (False, False)
        self.trace.modules_called[id(module)] = (with_grad or grad, without or not grad)

    # -- every torch call ----------------------------------------------------------------

    def __torch_function__(self, func: Any, types: Any, args: tuple[Any, ...] = (),
                           kwargs: dict[str, Any] | None = None) -> Any:
        kwargs = kwargs or {}
        if getattr(self._inside, "busy", False) or threading.get_ident() != self._thread:
            return func(*args, **kwargs)
        name = _name(func)
        if name == "backward":
            self.trace.last_backward = self._order
        if name == "_set_grad_enabled" and args and args[0] is False \
                and torch.is_grad_enabled():
            # Only the switch from on to off: torch's own no_grad blocks (in `module.to()`)
            # entered and left while it is already off are not where it went off.
            self._grad_off = user_site(sys._getframe(1))
        if name in ("requires_grad_", "__set__"):
            self._toggled(func, name, args, kwargs)
        result = func(*args, **kwargs)
        self._inside.busy = True
        try:
            self._record(name, args, kwargs, result)
        finally:
            self._inside.busy = False
        return result

    def _toggled(self, func: Any, name: str, args: tuple[Any, ...],
                 kwargs: dict[str, Any]) -> None:
        if name == "__set__" and getattr(getattr(func, "__self__", None), "__name__",
                                         "") != "requires_grad":
            return
        tensor = args[0] if args else None
        if not isinstance(tensor, torch.Tensor) or not tensor.is_leaf:
            return
        on = bool(args[1]) if len(args) > 1 else bool(kwargs.get("requires_grad", True))
        if on:
            self.trace.frozen.pop(id(tensor), None)
        else:
            self.trace.frozen[id(tensor)] = (weakref.ref(tensor), user_site(sys._getframe(2)))

    def _wrote(self, op: str, written: list[torch.Tensor], versions: list[int],
               nodes: list[Any]) -> None:
        self._order += 1
        site = user_site(sys._getframe(2))
        grad = torch.is_grad_enabled()
        built = () if self._in_step else self._built_layer(sys._getframe(2))
        for tensor, before, node in zip(written, versions, nodes):
            self.trace.writes.append(Write(
                op, tuple(tensor.shape), before, tensor._version, site, self._in_step > 0,
                grad, node, weakref.ref(tensor) if tensor.is_leaf else None, self._order,
                built))

    def _built_layer(self, frame: FrameType | None) -> Site:
        """Where the library layer whose forward is running was built: the innermost
        `forward` frame, before any user frame, of a module the replay saw constructed."""
        while frame is not None and not is_user_file(frame.f_code.co_filename):
            if frame.f_code.co_name == "forward":
                module = frame.f_locals.get("self")
                if isinstance(module, torch.nn.Module):
                    return self._built.get(module, ())
            frame = frame.f_back
        return ()

    def _record(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any],
                result: Any) -> None:
        if self._in_step and _optimizer_arithmetic(sys._getframe(2)):
            return  # an optimizer's own update: no path of the user's out of autograd
        self._order += 1
        site = user_site(sys._getframe(2))
        grad = torch.is_grad_enabled()
        inputs = tensors_in(list(args) + list(kwargs.values()))
        outputs = [t for t in tensors_in(result) if not any(t is i for i in inputs)]
        for out in outputs:
            node: Any = out.grad_fn
            if node is not None and not site_of(node):
                node.metadata[SITE_KEY] = site
        crossing = self._crossing(name, inputs, outputs, result, site, grad)
        if crossing is not None:
            if crossing.kind != "from-python" or any(t.requires_grad for t in inputs):
                crossing.sources = tuple(t.grad_fn if t.grad_fn is not None else t
                                         for t in inputs if t.requires_grad)
                self._sourced.append(crossing)
                if len(self._sourced) > MAX_SOURCES:
                    self._sourced.popleft().sources = ()
            self.trace.crossings.append(crossing)
        if outputs:
            flow = Flow(name, tuple(id(t) for t in inputs), site, crossing, self._order,
                        tuple(weakref.ref(t) for t in inputs),
                        tuple(self.trace.made(t) for t in inputs))
            for out in outputs:
                entries = self.trace.flow.setdefault(id(out), [])
                entries.append((weakref.ref(out), flow))
                del entries[:-MAX_PER_ID]
                self.trace.flow.move_to_end(id(out))
            while len(self.trace.flow) > MAX_FLOW:
                self.trace.flow.popitem(last=False)

    def _crossing(self, name: str, inputs: list[torch.Tensor], outputs: list[torch.Tensor],
                  result: Any, site: Site, grad: bool) -> Crossing | None:
        if name in ("grad", "_grad"):
            return None  # reading a gradient (a logger, a clipping hook) cuts no path
        needs = any(t.requires_grad for t in inputs)
        ids = tuple(id(t) for t in outputs)
        if name in LEAVING and needs:
            return Crossing("leaves-torch", name, site, ids, self._order)
        if name in FROM_PYTHON and outputs and not any(t.requires_grad for t in outputs):
            # Built from Python values, or copied from tensors with history
            # (`torch.tensor(losses)` over a list of losses): either way, a re-wrap.
            return Crossing("from-python", name, site, ids, self._order)
        if not needs or not outputs or any(t.requires_grad for t in outputs):
            return None
        if name == "detach":
            kind = "detach"
        elif name == "data":
            kind = "data"
        elif not grad:
            return Crossing("no-grad", name, site, ids, self._order, self._grad_off)
        elif name in NON_DIFFERENTIABLE or not outputs[0].is_floating_point():
            kind = "non-differentiable"
        else:
            kind = "detach"
        return Crossing(kind, name, site, ids, self._order)
