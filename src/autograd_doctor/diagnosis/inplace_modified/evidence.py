"""Evidence for "modified by an inplace operation": which node's saved tensor changed, the
tensor as the user knows it, and what wrote to it (the deciding fact, `writer`: an optimizer
step, an in-place statement, an in-place module), and whether a kept graph carried state.

PyTorch's message gives the tensor's shape and its expected and actual versions; reading
each node's saved tensors finds the node that saved it (the read raises the same error).
"""

from __future__ import annotations

import ast
import inspect
import math
import re
from dataclasses import dataclass, field
from typing import Any

import torch

from autograd_doctor.capture.frames import is_project_file
from autograd_doctor.capture.growth import reaches
from autograd_doctor.capture.hooks import Failure
from autograd_doctor.capture.ledger import BackwardRecord, StepRecord
from autograd_doctor.capture.tracer import Trace, site_of
from autograd_doctor.capture.tracer import Write as TracedWrite
from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.edits.operations import Remedy
from autograd_doctor.graph.names import modules_in, parameter_names
from autograd_doctor.graph.walk import (
    Node,
    consumers,
    inputs_of,
    is_accumulator,
    leaf_of,
    modified_saves,
    node_name,
    sequence_nr,
    walk,
)
from autograd_doctor.source import places, reading
from autograd_doctor.source.places import FrameInfo

_MESSAGE = re.compile(
    r"\[(?P<type>[^\]\[]+) \[(?P<shape>[\d, ]*)\]\](?:, which is output \d+ of (?P<op>\w+),)?"
    r" is at version (?P<version>\d+); expected version (?P<expected>\d+)")


@dataclass
class Write:
    """A statement in the user's source that writes a tensor in place."""

    file: str
    stmt: ast.stmt
    target: str  # the tensor written, as written (`x`, `out`)
    how: str  # "augassign", "method", "subscript", "module", "keyword"
    call: ast.Call | None = None  # the call that writes (for method, module, keyword)

    @property
    def line(self) -> int:
        return self.call.lineno if self.call is not None else self.stmt.lineno


# What wrote the saved tensor (Inplace.writer): the fact that decides the cause.
STEP = "optimizer-step"  # an optimizer step changed a weight the graph saved
STATEMENT = "statement"  # an in-place statement: `x += y`, `x[m] = 0`, `x.relu_()`
MODULE = "module"  # an activation built to work in place: `ReLU(inplace=True)`
LIBRARY = "library"  # a layer or function that writes in place on its own (Embedding max_norm)


@dataclass
class Inplace:
    failure: Failure
    failing: BackwardRecord
    shape: tuple[int, ...] | None
    version: int | None
    node: Node | None  # the node whose saved tensor was modified
    tensor: torch.Tensor | None
    name: str | None  # the modified tensor as the user knows it
    kind: str
    step: StepRecord | None  # the optimizer step that wrote the parameter
    writer: Node | None  # the in-place op's node, when autograd recorded one
    writes: list[Write] = field(default_factory=list)  # candidate statements, best first
    scopes: list[dict[str, Any]] = field(default_factory=list)
    # Names whose value at this call was built on their value at the previous call from the
    # same place, which kept its graph (retain_graph=True): (expression, frame, structure).
    carried: list[tuple[str, FrameInfo, str]] = field(default_factory=list)
    writer_kind: str | None = None  # STEP, STATEMENT, MODULE, LIBRARY or None when not found
    traced: TracedWrite | None = None  # the write itself, seen by a replay
    saver: FrameInfo | None = None  # where the node that saved the tensor was made (replay)


def gather(failure: Failure) -> Inplace | None:
    failing = failure.record
    if failing is None or not failing.roots:
        return None
    found = _MESSAGE.search(str(failure.exception))
    shape = tuple(int(s) for s in found["shape"].replace(" ", "").split(",") if s) if found \
        else None
    version = int(found["version"]) if found else None
    expected = int(found["expected"]) if found else None
    nodes = walk(failing.roots)
    modified = next((n for n in nodes if modified_saves(n)), None)
    scopes = failure.scopes()
    made_by = found["op"] if found else None
    tensor, name, kind = _tensor(modified, shape, version, scopes, made_by)
    traced = traced_write(failure.trace, modified, shape, version, expected, made_by) \
        if failure.trace is not None else None
    step = _step(failure, modified, tensor)
    if step is None and traced is not None and traced.in_step:
        step = _step_at(failure, traced)
    writer = _writer(modified, nodes) if step is None else None
    ev = Inplace(failure, failing, shape, version, modified, tensor, name, kind, step, writer,
                 scopes=scopes, carried=_carried(failure, failing), traced=traced)
    if modified is not None:
        made = site_of(modified)
        ev.saver = made[0] if made else None
    if step is None:
        ev.writes = _writes_at(ev, traced) if traced is not None and traced.site else []
        ev.writes = ev.writes or _writes(ev)
        best = ev.writes[0] if ev.writes else None
        if best is not None and best.how != "module" and ev.kind != "parameter":
            # The statement that wrote it names it better than another tensor that happens
            # to have the same shape and version.
            ev.name, ev.kind = best.target, places.kind_of(best.target)
        if best is not None:
            ev.writer_kind = (MODULE if best.how in ("module", "keyword") else
                              LIBRARY if best.how == "library" else STATEMENT)
    else:
        ev.writer_kind = STEP
    return ev


def _carried(failure: Failure, failing: BackwardRecord) -> list[tuple[str, FrameInfo, str]]:
    """After `backward(retain_graph=True)` the old graph stays alive; a tensor carried into
    the next step (an RNN state) links it to the new one."""
    same_place = [r for r in failure.own_records() if r.order < failing.order and r.retained
                  and r.site is not None and r.site == failing.site]
    if not same_place:
        return []
    before = max(same_place, key=lambda r: r.order)
    old = {(before.frames[i].function, b.expression): b.node for i, b in before.bindings}
    out: list[tuple[str, FrameInfo, str]] = []
    for i, b in failing.bindings:
        prior = old.get((failing.frames[i].function, b.expression))
        if prior is None or prior is b.node or not reaches(b.node, prior, hops=256):
            continue
        root = b.root if "." not in b.root else b.expression
        if all(root != e for e, _, _ in out):
            out.append((root, failing.frames[i], failing.structures.get((i, b.root), "T")))
    return out


def _matches(t: torch.Tensor, shape: tuple[int, ...] | None, version: int | None) -> bool:
    if version is not None and t._version != version:
        return False
    # A saved view (`weight.t()`) reports its own shape; the parameter has the same numel.
    return shape is None or tuple(t.shape) == shape or t.numel() == math.prod(shape)


_VIEWS = frozenset({
    "AsStrided", "T", "Transpose", "View", "Permute", "Expand", "Select", "Slice", "Unsqueeze",
    "Squeeze", "Alias", "Unfold", "Diagonal", "Narrow", "Split", "SplitWithSizes", "Unbind",
    "Reshape", "UnsafeView", "ViewAs", "Real", "Imag", "Detach", "Indices", "Values"})


def _tensor(modified: Node | None, shape: tuple[int, ...] | None, version: int | None,
            scopes: list[dict[str, Any]], made_by: str | None
            ) -> tuple[torch.Tensor | None, str | None, str]:
    """The modified tensor: a parameter near the node that saved it, or a named tensor."""
    # PyTorch names the op whose output was modified: a parameter is either named by no op
    # or reached through a view of it (`weight.t()` reads "output 0 of AsStrided"); the
    # output of `exp` is a computed tensor, whatever parameter happens to share its size.
    computed = made_by is not None and made_by.removesuffix("Backward0") not in _VIEWS
    if modified is not None and not computed:
        near = walk([modified])[:8]
        for node in near:
            leaf = leaf_of(node)
            if leaf is not None and _matches(leaf, shape, version):
                names = parameter_names(scopes)
                return leaf, names.get(id(leaf)), "parameter"
    for scope in scopes:
        for key, value in list(scope.items()):
            if isinstance(value, torch.Tensor) and not value.is_leaf and _matches(value, shape,
                                                                                  version):
                return value, key, "local"
    return None, None, "expression"


def _step(failure: Failure, modified: Node | None, tensor: torch.Tensor | None
          ) -> StepRecord | None:
    """An optimizer step that ran after the graph saved the tensor and holds the tensor."""
    if tensor is None or not tensor.is_leaf or modified is None:
        return None
    made = sequence_nr(modified)
    for step in failure.own_steps():
        opt = step.optimizer()
        if opt is None or step.sequence <= made:
            continue
        if any(p is tensor for g in opt.param_groups for p in g["params"]):
            return step
    return None


def _writer(modified: Node | None, nodes: list[Node]) -> Node | None:
    """The in-place op's own node: it consumes what produced the saved tensor and was made
    after the node that saved it."""
    if modified is None:
        return None
    made = sequence_nr(modified)
    cons = consumers(nodes)
    producers = [modified, *inputs_of(modified)]
    later = [c for p in producers for c in cons.get(p, ()) if c is not modified
             and sequence_nr(c) > made and not is_accumulator(c)]
    return max(later, key=sequence_nr) if later else None


def traced_write(trace: Trace, modified: Node | None, shape: tuple[int, ...] | None,
                 version: int | None, expected: int | None, made_by: str | None = None
                 ) -> TracedWrite | None:
    """The write that invalidated the saved tensor: PyTorch's message says the tensor went
    from version `expected` (when it was saved) to `version`; among the writes the replay saw,
    the first that moved a tensor of that shape out of `expected` and wrote the very tensor
    the node saved (its node or leaf, when that can be told) is the one."""
    if version is None or expected is None:
        return None
    near = set(walk([modified])[:8]) if modified is not None else set()
    versions = [w for w in trace.writes if expected <= w.version_before < version]
    # The same shape (or a view of it: `weight.t()`), else a write into part of it (a slice
    # of a buffer shares its version counter with the window a layer saved).
    # A smaller leaf (a parameter's init) is no part of it: a leaf shares its version only
    # with its own views, none of them larger.
    candidates = [w for w in versions if shape is None or w.shape == shape
                  or math.prod(w.shape) == math.prod(shape)] or [
        w for w in versions if shape is not None and math.prod(w.shape) < math.prod(shape)
        and w.leaf is None]
    # The saved tensor's own node, one near it, or a view of it (`weights[i, n:] = 0`
    # writes through a slice whose node leads back to the saved one within a few hops).
    # The saved tensor itself, or a view of it (`out[:, 0] = 0` writes through a slice whose
    # node leads back to the saved one), says more than a tensor near it in the graph.
    itself = [w for w in versions if modified is not None and w.node_before is not None and (
        w.node_before is modified or reaches(w.node_before, modified, hops=3)
        or _view_of(w.node_before, near))]
    related = itself or [w for w in candidates if w.node_before in near or (
        w.leaf is not None and any(leaf_of(n) is w.leaf() for n in near))]
    found = related or candidates
    # PyTorch names the op the modified tensor is now the output of: for a computed tensor
    # that is the in-place op's own backward (`output 0 of Relu` after `relu_`), so a write
    # to a leaf (a layer's weight filled at construction, with the same size by chance) is
    # not it, and a write by that very op is.
    op = re.sub(r"Backward\d*$", "", made_by) if made_by else ""
    if op and op not in _VIEWS:
        found = [w for w in found if w.leaf is None] or found
        found = [w for w in found if _op_name(w.op) == op.lower()] or found
    return min(found, key=lambda w: w.order) if found else None


def _op_name(op: str) -> str:
    """`relu` for `aten.relu_.default`, `leakyrelu` for `aten.leaky_relu_` (as the node
    names spell them: `LeakyReluBackward0`)."""
    name = op.split(".")[1] if op.startswith("aten.") else op
    return name.rstrip("_").replace("_", "")


def _view_of(node: Node, near: set[Node]) -> bool:
    """A write through a view (`h[:, 0]`) of a tensor whose maker is next to the node that
    saved a sibling view of it (`h[:, 1:]`): one version counter, one base."""
    return node_name(node).removesuffix("Backward0") in _VIEWS and any(
        child in near for child, _ in node.next_functions)


def _step_at(failure: Failure, traced: TracedWrite) -> StepRecord | None:
    """The recorded optimizer step at the traced write's place (the last one before the
    failure)."""
    site = traced.site[0] if traced.site else None
    steps = [s for s in failure.own_steps() if site is not None and s.site is not None
             and (s.site.file, s.site.line) == (site.file, site.line)]
    return steps[-1] if steps else None


def _writes_at(ev: Inplace, traced: TracedWrite) -> list[Write]:
    """What the user's code did at the place the replay saw the write: an in-place statement,
    a call with inplace=True, a module built to work in place, or a call into a library that
    writes on its own (the module's construction then says why)."""
    site = traced.site[0]
    stmt = site.statement
    if stmt is None:
        return []
    layer = _layer_built_at(traced.built[0]) if traced.built else None
    if layer is not None:
        return [layer]
    op = traced.op.split(".")[1] if traced.op.startswith("aten.") else traced.op
    syntax = _inplace_syntax(site.file, stmt, op)
    if syntax is not None:
        return [syntax]
    built = _construction(site, stmt, ev.name if ev.kind == "parameter" else None, op)
    if built is not None:
        return [built]
    call = next((n for n in ast.walk(stmt) if isinstance(n, ast.Call)), None)
    return [Write(site.file, stmt, reading.text(call.func) if call else "", "library", call)]


def _layer_built_at(built: FrameInfo) -> Write | None:
    """The layer that wrote, at the very place it was built: `nn.ReLU(inplace=True)` as the
    fifth argument of an `nn.Sequential(...)`, not another in-place layer beside it."""
    stmt = built.statement
    if stmt is None:
        return None
    marked = [n for n in ast.walk(stmt) if isinstance(n, ast.Call) and n.lineno == built.line
              and any(k.arg == "inplace" for k in n.keywords)]
    if len(marked) != 1:
        return None
    call = marked[0]
    return Write(built.file, stmt, reading.text(call.func).rsplit(".", 1)[-1], "module", call)


def _inplace_syntax(file: str, stmt: ast.stmt, op: str) -> Write | None:
    """The in-place form in a statement; among several (`std.mul_(eps).add_(mu)`), the one
    of the op that made the write (`mul_`)."""
    if isinstance(stmt, ast.AugAssign):
        return Write(file, stmt, _augmented(stmt), "augassign")
    if isinstance(stmt, ast.Assign):
        for target in stmt.targets:
            if isinstance(target, ast.Subscript):
                return Write(file, stmt, reading.text(target.value), "subscript")
    calls = [n for n in ast.walk(stmt) if isinstance(n, ast.Call)]
    calls.sort(key=lambda n: not (isinstance(n.func, ast.Attribute) and n.func.attr == op))
    for node in calls:
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr.endswith("_") \
                and not func.attr.endswith("__") and not func.attr.startswith("_"):
            return Write(file, stmt, _written_by(node), "method", node)
        if _inplace_keyword(node):
            name = reading.text(func).rsplit(".", 1)[-1]
            how = "module" if name[:1].isupper() else "keyword"
            written = reading.text(node.args[0]) if node.args and how == "keyword" else name
            return Write(file, stmt, written, how, node)
    return None


def _built_in_place_by_helper(file: str, value: ast.Call, op: str) -> Write | None:
    """`self.bottom = mlp([...])` where the user's `mlp()` builds `nn.Dropout(p,
    inplace=inplace)` with `inplace=True` by default: the layer built in the helper (the
    one of the writing op's kind, when several are) is the writer."""
    found = reading.function_called(file, value)
    if found is None:
        return None
    where, helper = found
    passed = reading.bound_arguments(helper, value, defaults=True)

    def on(keyword: ast.expr) -> bool:
        if isinstance(keyword, ast.Name):
            keyword = passed.get(keyword.id, keyword)
        return isinstance(keyword, ast.Constant) and keyword.value is True

    marked = [n for n in ast.walk(helper) if isinstance(n, ast.Call) and any(
        k.arg == "inplace" and on(k.value) for k in n.keywords)]
    if not marked:
        return None
    kind = op.lower().replace("_", "")
    chosen = next((n for n in marked if reading.text(n.func).rsplit(".", 1)[-1].lower()
                   in kind), marked[-1])
    stmt = next((st for st in ast.walk(helper) if isinstance(st, ast.stmt)
                 and not reading.is_compound(st) and any(c is chosen for c in ast.walk(st))),
                None)
    if stmt is None:
        return None
    return Write(where, stmt, reading.text(chosen.func).rsplit(".", 1)[-1], "module", chosen)


def _inplace_keyword(call: ast.Call) -> bool:
    return any(k.arg == "inplace" and isinstance(k.value, ast.Constant) and k.value.value is True
               for k in call.keywords)


def _construction(site: FrameInfo, stmt: ast.stmt, written: str | None, op: str = ""
                  ) -> Write | None:
    """`self.act(x)` where `self.act = nn.ReLU(inplace=True)`, or `self.embed(tokens)` where
    `self.embed = nn.Embedding(..., max_norm=1.0)`: the statement that built the module that
    wrote, found in the class (or file) of the calling code. A module built with
    inplace=True is the writer; else the module whose own parameter was written."""
    tree = reading.parse(site.file)
    scope = site.scope
    if tree is None or scope is None:
        return None
    owner: ast.AST = reading.class_of(site.file, scope) or tree
    built: list[tuple[str, ast.stmt, ast.Call]] = []
    for call in (n for n in ast.walk(stmt) if isinstance(n, ast.Call)):
        callee = reading.text(call.func)
        for node in ast.walk(owner):
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Call) \
                    and any(reading.text(t) == callee for t in (
                        node.targets if isinstance(node, ast.Assign) else [node.target])):
                built.append((callee, node, node.value))
    for callee, node, value in built:
        marked = next((n for n in ast.walk(value) if isinstance(n, ast.Call)
                       and _inplace_keyword(n)), None)
        if marked is not None:
            return Write(site.file, node, callee, "module", marked)
        helper = _built_in_place_by_helper(site.file, value, op)
        if helper is not None:
            return helper
    for callee, node, value in built:
        attr = callee.rsplit(".", 1)[-1]
        if written is not None and (f".{attr}." in f".{written}" or f".{attr}[" in f".{written}"):
            return Write(site.file, node, callee, "library", value)
    return None


# In-place op node names -> the statement forms that make them.
_AUG = {"AddBackward0": ast.Add, "SubBackward0": ast.Sub, "MulBackward0": ast.Mult,
        "DivBackward0": ast.Div, "AddBackward1": ast.Add, "SubBackward1": ast.Sub,
        "MulBackward1": ast.Mult, "DivBackward1": ast.Div, "PowBackward0": ast.Pow}
_SUBSCRIPT = ("CopySlices", "IndexPutBackward0", "MaskedFillBackward0", "IndexFillBackward0")
# In-place activation node names (torch 2.13) -> the modules and functions that make them.
INPLACE_MODULES: dict[str, tuple[str, ...]] = {
    "ReluBackward0": ("ReLU", "relu"),
    "LeakyReluBackward1": ("LeakyReLU", "leaky_relu"),
    "LeakyReluBackward0": ("LeakyReLU", "leaky_relu"),
    "EluBackward1": ("ELU", "SELU", "elu", "selu"),
    "EluBackward0": ("ELU", "SELU", "elu", "selu"),
    "CeluBackward1": ("CELU", "celu"),
    "HardtanhBackward0": ("Hardtanh", "ReLU6", "hardtanh", "relu6"),
    "SiluBackward0": ("SiLU", "silu"),
    "HardswishBackward0": ("Hardswish", "hardswish"),
    "MulBackward0": ("Dropout", "dropout"),
    "RreluWithNoiseBackward1": ("RReLU", "rrelu"),
}


def _method_for(op: str) -> str:
    """`ReluBackward0` -> `relu_`: the in-place method that records this node."""
    base = re.sub(r"Backward\d*$", "", op)
    return re.sub(r"(?<!^)(?=[A-Z])", "_", base).lower() + "_"


def _writes(ev: Inplace) -> list[Write]:
    """Statements that could have made the write, the likeliest first."""
    op = node_name(ev.writer) if ev.writer is not None else ""
    found: list[tuple[Write, ast.AST]] = []
    for file, tree in _search_space(ev):
        for stmt in (n for n in ast.walk(tree) if isinstance(n, ast.stmt)):
            found.extend((w, tree) for w in _classify(file, stmt, op))
    made_by = _made_by(str(ev.failure.exception))
    scored = [(_score(w, tree, ev.name, made_by, op), i, w) for i, (w, tree) in enumerate(found)]
    return [w for _, _, w in sorted(scored, key=lambda t: (-t[0], t[1]))]


def _made_by(message: str) -> str:
    """`Sigmoid` in "... which is output 0 of Sigmoid, ..." (what produced the tensor)."""
    found = _MESSAGE.search(message)
    op = found["op"] if found and found["op"] else ""
    return re.sub(r"Backward\d*$", "", op).lower()


def _score(write: Write, tree: ast.AST, name: str | None, made_by: str, op: str) -> int:
    score = 0
    if name and write.target == name:
        score += 4
    if write.how in ("module", "keyword") and op in INPLACE_MODULES:
        score += 3
    function = reading.enclosing_function(tree, write.stmt)
    if made_by and function is not None:
        before = [st for st in reading.stores(function, write.target)
                  if st.lineno < write.stmt.lineno]
        if before and made_by in ast.unparse(before[-1]).lower():
            score += 2  # `probs = torch.sigmoid(...)` then `probs[pad] = 0`
    if made_by and made_by in reading.line_text(write.file, write.stmt.lineno).lower():
        score += 2  # `return std.mul_(eps)` right where `std = torch.exp(...)`
    return score


UNBOUND = ("torch.Tensor", "Tensor")  # a method called on the class, the tensor passed first


def _augmented(stmt: ast.AugAssign) -> str:
    """What `x op= v` writes: `x`; for a slice (`rates[:, 0] *= e`), the tensor it is a
    slice of, which is what the graph saved."""
    target = stmt.target
    return reading.text(target.value if isinstance(target, ast.Subscript) else target)


def _written_by(call: ast.Call) -> str:
    """What an in-place method call writes: its receiver, or for the method called on the
    class (`torch.Tensor.clamp_(pred, ...)`) its first argument."""
    assert isinstance(call.func, ast.Attribute)
    receiver = reading.text(call.func.value)
    return reading.text(call.args[0]) if receiver in UNBOUND and call.args else receiver


def _classify(file: str, stmt: ast.stmt, op: str) -> list[Write]:
    out: list[Write] = []
    if reading.is_compound(stmt):
        return out  # its calls belong to the simple statements inside it
    if isinstance(stmt, ast.AugAssign) and op in _AUG and isinstance(stmt.op, _AUG[op]):
        out.append(Write(file, stmt, _augmented(stmt), "augassign"))
    if isinstance(stmt, ast.Assign) and op in _SUBSCRIPT:
        for t in stmt.targets:
            if isinstance(t, ast.Subscript):
                out.append(Write(file, stmt, reading.text(t.value), "subscript"))
    method = _method_for(op) if op else ""
    modules = INPLACE_MODULES.get(op, ())
    for node in ast.walk(stmt):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and method and func.attr == method:
            out.append(Write(file, stmt, _written_by(node), "method", node))
        inplace = any(k.arg == "inplace" and isinstance(k.value, ast.Constant)
                      and k.value.value is True for k in node.keywords)
        name = reading.text(func).rsplit(".", 1)[-1]
        if inplace and name in modules:
            how = "module" if name[:1].isupper() else "keyword"
            target = reading.text(node.args[0]) if node.args and how == "keyword" else name
            out.append(Write(file, stmt, target, how, node))
    return out


def _search_space(ev: Inplace) -> list[tuple[str, ast.AST]]:
    """Whole files: the user's files on the stack, and the files defining every module in
    scope (where `forward` and `__init__` live)."""
    files: list[str] = [f.f_code.co_filename for f in ev.failure.frames]
    for scope_dict in ev.scopes:
        for _, module in modules_in(scope_dict):
            for sub in module.modules():
                try:
                    file = inspect.getsourcefile(type(sub))
                except TypeError:
                    continue
                if file is not None and is_project_file(file):
                    files.append(file)
    out: list[tuple[str, ast.AST]] = []
    for file in dict.fromkeys(files):
        tree = reading.parse(file)
        if tree is not None:
            out.append((file, tree))
    return out


# -- for the causes: the words and the finding's frame -----------------------------------


def describe_saved(ev: Inplace, name: str | None = None) -> str:
    what = f"`{name or ev.name}`" if name or ev.name else "a tensor"
    shape_of = tuple(ev.tensor.shape) if ev.tensor is not None else ev.shape
    shape = f" (shape {list(shape_of)})" if shape_of is not None else ""
    return f"{what}{shape}"


def claim(ev: Inplace, category: str, why: str, hint: str, expression: str, kind: str,
          at: tuple[str, int] | None, remedy: Remedy | None,
          writer: tuple[str, int] | None = None, role: str = "written") -> Claim:
    """An in-place claim: the culprit at `at` (written there, unless `role` says
    otherwise), and the writer's place (`at` unless the write happened elsewhere)."""
    file, line = at if at else (None, None)
    details: dict[str, object] = {}
    where = writer or at
    if where:
        details["writer"] = places.location(*where).to_dict()
    if ev.node is not None:
        details["saved_by"] = type(ev.node).__name__
    return Claim(category, why, hint,
                 places.culprit(expression, kind, file, line, role=role),
                 places.frame_location(ev.failing.site), None, details, remedy)
