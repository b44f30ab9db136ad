"""The gradient watch: which parameters handed to each optimizer receive a gradient.

Before each of the first optimizer steps, note which parameters handed to the optimizer
(with requires_grad) hold a gradient; say when it is time to decide (silent_no_grad's
evidence does). Cost: one pass over the parameters per step, for the first STEPS steps only.
What a decision needs is copied at the first step (names, shapes, who holds the optimizer),
so that an optimizer that is gone (a `main()` that returned) is still decided at exit.
"""

from __future__ import annotations

import sys
import threading
import weakref
from dataclasses import dataclass, field, replace
from typing import Any

import torch

from autograd_doctor.capture.frames import frame_info, scopes_of, user_frames
from autograd_doctor.graph.names import (
    module_paths,
    modules_held,
    parameter_names,
    plain_attributes,
    python_paths,
    user_object,
)
from autograd_doctor.graph.objects import names_holding
from autograd_doctor.source.places import FrameInfo

STEPS = 10  # steps observed per optimizer before deciding
EARLY = 3  # steps after which "nothing at all" is already certain
# Fewer steps than this say nothing: an LBFGS-style optimizer computes its first gradients
# inside its first step, after the hook has looked.
AT_LEAST = 2
MAX_WATCHED = 256  # optimizers remembered (inner-loop optimizers come and go)


@dataclass
class Loose:
    """A learnable tensor in sight at an optimizer's first step that the optimizer does
    not hold: weakly held, with a fingerprint of its value then (a tensor some code updates
    by hand changes; one nothing steps does not)."""

    name: str
    tensor: weakref.ref[Any]
    fingerprint: tuple[float, float]
    owner: str  # the module that declares it (`self.criterion`), else its own name


def fingerprint(t: Any) -> tuple[float, float]:
    with torch.no_grad():
        flat = t.detach().double()
        return float(flat.sum()), float(flat.abs().sum())


@dataclass
class Shelved:
    """A parameter group built for one module (`{"params": model.backbone.parameters()}`)
    whose parameters were all frozen at the optimizer's first step while another group
    trains. Someone meant it to learn, unless the program unfreezes it later (gradual
    unfreezing does, an epoch on): so it is decided at exit, if it stayed frozen."""

    module: str  # as the user's code names it at the first step
    params: list[weakref.ref[Any]]
    ids: list[int]

    def unfrozen(self) -> bool:
        first = self.params[0]()
        return first is not None and bool(first.requires_grad)


@dataclass
class Watched:
    # Weak, and no frames kept: watching must not keep an optimizer's state, or the
    # tensors a step's locals held, alive.
    optimizer: weakref.ref[Any]
    index: int = 0  # in the order optimizers were first stepped
    steps: int = 0
    got: dict[int, bool] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    modules: set[str] = field(default_factory=set)  # the Python paths of the modules seen
    shapes: dict[int, list[int]] = field(default_factory=dict)  # of the trainable parameters
    files: list[str] = field(default_factory=list)  # the user's files on the stack at step 1
    frames: list[FrameInfo] = field(default_factory=list)  # ... and their frames, innermost first
    holders: set[str] = field(default_factory=set)  # names that held the optimizer (`opt`)
    # Frozen parameters someone meant to unfreeze: their module's or their own
    # `requires_grad`/`requires_grad_` was assigned as a plain attribute, which changes no flag.
    meant: set[int] = field(default_factory=set)
    frozen: set[int] = field(default_factory=set)  # of a group that stayed frozen to the end
    frozen_modules: set[str] = field(default_factory=set)  # ... the modules of those groups
    loose: dict[int, Loose] = field(default_factory=dict)  # learnable, not held by it
    shelved: list[Shelved] = field(default_factory=list)  # frozen groups, until unfrozen
    decided: bool = False

    def name(self, key: int) -> str:
        """The parameter as the user's code names it, or by its place in the optimizer."""
        if key in self.names:
            return self.names[key]
        position = list(self.shapes).index(key) if key in self.shapes else -1
        return f"<optimizer {self.index} parameter {position} {self.shapes.get(key, [])}>"


class GradientWatch:
    def __init__(self) -> None:
        self._watched: weakref.WeakKeyDictionary[Any, Watched] = weakref.WeakKeyDictionary()
        # Every watch, kept after its optimizer is gone: it holds no tensor and no optimizer.
        self._all: list[Watched] = []
        self._lock = threading.Lock()  # two threads may train two models at once

    def before_step(self, optimizer: Any) -> Watched | None:
        """Record this step; the watch when it is time to decide."""
        with self._lock:
            w = self._watched.get(optimizer)
            if w is None:
                w = self._watched[optimizer] = Watched(weakref.ref(optimizer), len(self._all))
                self._all.append(w)
                del self._all[:-MAX_WATCHED]
            if w.decided:
                if w.shelved:  # one flag per frozen group: still frozen, or unfrozen now?
                    w.shelved = [g for g in w.shelved if not g.unfrozen()]
                return None
            w.decided = self._record(w, optimizer)
            return w if w.decided else None

    def _record(self, w: Watched, optimizer: Any) -> bool:
        """Note this step's gradients; True when it is time to decide."""
        if w.steps == 0:
            scopes = scopes_of(user_frames(sys._getframe(3)))
            w.names = parameter_names(scopes)
            w.modules = module_paths(scopes)
            w.holders = names_holding(optimizer, scopes)
            w.files = list(dict.fromkeys(f.f_code.co_filename
                                         for f in user_frames(sys._getframe(3))))
            w.frames = [frame_info(f) for f in user_frames(sys._getframe(3))]
            w.meant = _flag_set_as_attribute(scopes)
        w.steps += 1
        held = [p for group in optimizer.param_groups for p in group["params"]]
        if w.steps == 1:
            w.loose = _declared_learnable(scopes, {id(p) for p in held})
            w.shelved = _frozen_groups(optimizer, scopes)
        w.shelved = [g for g in w.shelved if not g.unfrozen()]
        # An optimizer all of whose parameters were frozen after it was built (adapters
        # injected, the base frozen) steps nothing: its frozen parameters are what it misses.
        frozen = not any(p.requires_grad for p in held)
        for p in held:
            if not p.requires_grad and _shadowed(p):
                w.meant.add(id(p))  # `p.requires_grad_ = True` in an unfreezing callback
            if p.requires_grad or frozen or id(p) in w.meant:
                if id(p) not in w.shapes:
                    w.shapes[id(p)] = list(p.shape)
                # A gradient that is exactly zero is still a gradient (a WGAN critic's
                # last bias gets 0 every step); an unreached one stays None, even under
                # zero_grad(set_to_none=False).
                w.got[id(p)] = w.got.get(id(p), False) or p.grad is not None
        nothing = not any(w.got.values())
        return w.steps >= STEPS or (nothing and w.steps >= EARLY)

    def pending(self) -> list[Watched]:
        """Watches not yet decided that have seen enough steps to say something, their
        optimizers alive or not (each is handed out once)."""
        with self._lock:
            found = [w for w in self._all if not w.decided and w.steps >= AT_LEAST]
            for w in found:
                w.decided = True
            return found

    def still_frozen(self) -> list[Watched]:
        """At exit: for each optimizer with groups that stayed frozen to the end, a watch of
        its own over what it held, those groups' parameters missing every gradient."""
        with self._lock:
            out = []
            for w in self._all:
                # Those watched from the first steps (meant to be unfrozen by an attribute
                # assignment) were decided then.
                shelved = [g for g in w.shelved if not set(g.ids) <= set(w.shapes)]
                if not shelved or not w.steps:
                    continue
                frozen = {k: g.module for g in shelved for k in g.ids}
                shapes = {**w.shapes, **{k: [] for k in frozen if k not in w.shapes}}
                got = {**{k: True for k in w.shapes}, **dict.fromkeys(frozen, False)}
                names = {**w.names, **{k: w.names.get(k, frozen[k]) for k in frozen}}
                out.append(replace(w, shapes=shapes, got=got, names=names, shelved=[],
                                   decided=True, frozen=set(frozen),
                                   frozen_modules={g.module for g in shelved}))
                w.shelved = []
            return out

    def held(self) -> set[int]:
        """id() of every parameter any watched optimizer holds."""
        with self._lock:
            return {k for w in self._all for k in w.shapes}

    def received(self) -> dict[str, bool]:
        """Every watched parameter (by name) and whether it received a gradient in the steps
        watched: what a fix must not take away."""
        with self._lock:
            return {w.name(k): got for w in self._all for k, got in w.got.items()}


def _shadowed(obj: Any) -> bool:
    """`requires_grad` or `requires_grad_` set as an instance attribute: on a module it is
    no flag at all, on a tensor `requires_grad_ = True` hides the method."""
    found = getattr(obj, "__dict__", None) or {}
    return any(isinstance(found.get(k), bool) for k in ("requires_grad", "requires_grad_"))


def _flag_set_as_attribute(scopes: list[dict[str, Any]]) -> set[int]:
    """id() of the frozen parameters of every module in these scopes whose `requires_grad`
    was assigned as a plain attribute (`model.encoder.convs[-1].requires_grad = True`)."""
    out: set[int] = set()
    for scope in scopes:
        for _, module in modules_held(scope):
            for sub in module.modules():
                if _shadowed(sub):
                    out |= {id(p) for p in sub.parameters() if not p.requires_grad}
    return out


def _frozen_groups(optimizer: Any, scopes: list[dict[str, Any]]) -> list[Shelved]:
    """The groups of this optimizer built for one module of the user's (exactly its
    parameters) and all frozen, when another of its groups trains. A group of scattered
    parameters (the biases of a no-decay split) says nothing of what was meant."""
    groups = [list(g["params"]) for g in optimizer.param_groups]
    if len(groups) < 2 or not any(p.requires_grad for g in groups for p in g):
        return []
    frozen = [params for params in groups if params and not any(p.requires_grad for p in params)]
    if not frozen:
        return []
    # Each module's parameter set, once: the first name the user's code gives it wins.
    owners: dict[frozenset[int], str] = {}
    for scope in scopes:
        for expr, top in modules_held(scope):
            for path, sub in python_paths(top):
                owners.setdefault(frozenset(id(p) for p in sub.parameters()), f"{expr}{path}")
    out = []
    for params in frozen:
        ids = [id(p) for p in params]
        module = owners.get(frozenset(ids))
        if module is not None:
            out.append(Shelved(module, [weakref.ref(p) for p in params], ids))
    return out


def _declared_learnable(scopes: list[dict[str, Any]], held: set[int]) -> dict[int, Loose]:
    """Tensors the user's own code declared learnable that this optimizer does not hold: a
    leaf made with requires_grad (`log_scale = torch.tensor(2.6, requires_grad=True)`), or
    the parameters a module class of the user's project registers itself (a loss module's
    task weights) in a module in training mode that no library layer shares them with and
    none of whose parameters the optimizer holds. A whole network left out (a teacher, a
    perceptual-loss backbone) is usually frozen on purpose; these are not."""
    out: dict[int, Loose] = {}

    def add(name: str, t: Any, owner: str) -> None:
        if id(t) not in held and id(t) not in out:
            out[id(t)] = Loose(name, weakref.ref(t), fingerprint(t), owner)

    for scope in scopes:
        for expr, module in modules_held(scope):
            if not module.training:
                continue
            own = [(f"{expr}{path}.{name}", sub, p) for path, sub in python_paths(module)
                   for name, p in sub._parameters.items() if p is not None and p.requires_grad]
            if own and all(user_object(sub) and id(p) not in held for _, sub, p in own):
                for name, _, p in own:
                    add(name, p, expr)
        owner = scope.get("self")
        named = list(scope.items()) + ([(f"self.{k}", v) for k, v in plain_attributes(owner)]
                                       if owner is not None and not isinstance(
                                           owner, torch.nn.Module) else [])
        for name, value in named:
            if isinstance(value, torch.Tensor) and value.is_leaf and value.requires_grad \
                    and not name.startswith("_"):
                add(name, value, name)
    return out


@dataclass
class Observation:
    """A watch due for a decision, with what was around when it was made: the recorded
    backward calls and, when decided during a step, the live frames' scopes."""

    watched: Watched
    records: tuple[Any, ...]  # BackwardRecord
    scopes: list[dict[str, Any]]
    trace: Any = None  # capture.tracer.Trace, when this run is a replay
    held: set[int] = field(default_factory=set)  # parameters any watched optimizer holds
