"""What a static reader can know about one file: which names are models, which loops train,
what each backward call reaches, and which values carry history into it.

Torch-free and file-local. The facts are deliberately narrow: a value "has history" only when
it comes from calling something the file shows to be a model (an `nn` layer built here, an
instance of an `nn.Module` subclass defined here, or an object whose `.parameters()` are read
here) or from an `nn.Parameter`. A rule that only fires on such values stays quiet on data
pipelines, metrics and helpers it cannot see into.
"""

from __future__ import annotations

import ast
import functools
import os
from collections.abc import Iterator
from dataclasses import dataclass, field

from autograd_doctor.source import patterns, reading

Loop = ast.For | ast.AsyncFor | ast.While
Function = ast.FunctionDef | ast.AsyncFunctionDef

# Methods of a model that do not run it (reading them makes no graph).
_NOT_FORWARD = frozenset({
    "parameters", "named_parameters", "buffers", "named_buffers", "children", "modules",
    "named_modules", "train", "eval", "to", "cuda", "cpu", "zero_grad", "state_dict",
    "load_state_dict", "requires_grad_", "apply", "register_forward_hook",
    "register_buffer", "register_forward_pre_hook", "register_full_backward_hook", "half",
    "float", "double", "type", "share_memory", "init_hidden", "init_state", "reset",
    "reset_parameters", "extra_repr", "get_parameter", "get_submodule", "add_module",
})
# Calls that take a value out of the graph: their receiver is not live in the result.
_CUTTING_METHODS = frozenset({"detach", "item", "tolist", "numpy", "detach_"})
_MODULE_BASES = ("Module", "Sequential", "ModuleList", "ModuleDict", "LightningModule",
                 "PreTrainedModel")
# Constructors whose result holds parameters (torch.nn layers and containers).
_NN_PREFIXES = ("nn.", "torch.nn.")
_NN_NOT_MODULES = ("nn.functional.", "nn.init.", "nn.utils.", "torch.nn.functional.",
                   "torch.nn.init.", "torch.nn.utils.", "nn.Parameter", "torch.nn.Parameter")
PARAMETER_CALLS = ("nn.Parameter", "torch.nn.Parameter", "Parameter")
_OPTIMIZERS = ("Adam", "AdamW", "SGD", "RMSprop", "Adagrad", "LBFGS", "Adamax", "NAdam",
               "RAdam", "Adadelta", "SparseAdam", "ASGD", "Rprop")


@dataclass(frozen=True)
class Backward:
    """One call that runs backward: what it backwards, and whether it keeps the graph."""

    call: ast.Call
    target: ast.expr
    retains: bool  # retain_graph / create_graph set (or not a literal False)
    # A call of a helper of this file that backwards what it is handed stands for its
    # backward: the helper (its target is then the arguments whose graph it uses).
    helper: Function | None = None


@dataclass
class FileFacts:
    tree: ast.Module
    models: set[str] = field(default_factory=set)  # expressions naming a model
    frozen: set[str] = field(default_factory=set)  # models whose parameters are all frozen
    parameters: set[str] = field(default_factory=set)  # names bound to nn.Parameter
    no_grad_functions: set[str] = field(default_factory=set)  # functions under no_grad
    no_grad_methods: set[str] = field(default_factory=set)  # methods of models, likewise
    functions: dict[str, Function] = field(default_factory=dict)
    ambiguous: set[str] = field(default_factory=set)  # names defined more than once
    closures: dict[str, Function] = field(default_factory=dict)  # `act` -> the def it holds
    classes: dict[str, str] = field(default_factory=dict)  # model expression -> its class here
    # Optimizer expression -> the models whose `.parameters()` its constructor reads.
    optimizers: dict[str, set[str]] = field(default_factory=dict)
    has_backward: bool = False  # any backward or autograd.grad call in the file
    imported_opaque: set[str] = field(default_factory=set)
    imported_plain: set[str] = field(default_factory=set)
    model_classes: set[str] = field(default_factory=set)  # nn.Module subclasses here
    _history: set[str] | None = None

    @property
    def history_functions(self) -> set[str]:
        """Functions of this file that return a model's output (`rollout(actor, env)`,
        `self.compute_loss(batch)`): calls to them make history. Found when first asked
        (most files never ask); two rounds reach helpers that call helpers."""
        if self._history is None:
            self._history = set()  # while searching, a helper is assumed plain
            for _ in range(2):
                self._history |= {name for name, fn in self.functions.items()
                                  if name not in self._history and _returns_history(self, fn)}
        return self._history

    @functools.cached_property
    def without_grad(self) -> set[int]:
        """Statements that run with recording off (a no_grad block, a decorated function)."""
        return {id(s) for scope in scopes(self.tree) for s in body_statements(scope)
                if under_no_grad(scope, s)}

    @functools.cached_property
    def opaque(self) -> set[str]:
        """Classes whose code detaches or turns recording off somewhere: what their
        instances return cannot be judged from outside. Asked for rarely: computed then."""
        return _opaque(self.tree) | self.imported_opaque


def forget() -> None:
    """Drop what was memoised about the last file's tree (called after each file)."""
    for memo in (backwards, loops, scopes, body_statements, own, _no_grad_blocks):
        memo.cache_clear()
    _plain_candidates.clear()
    _plain_known.clear()
    _cutting_known.clear()


@functools.cache
def own(node: ast.AST) -> tuple[ast.AST, ...]:
    """reading.own_nodes, kept for the file being linted: rules ask for the same scopes
    again and again."""
    return tuple(reading.own_nodes(node))


def read_file(tree: ast.Module, path: str = "") -> FileFacts:
    facts = FileFacts(tree)
    nodes = list(ast.walk(tree))
    module_classes = _module_classes(tree, nodes)
    no_grad_blocks = any(isinstance(n, (ast.With, ast.AsyncWith)) and any(
        patterns.is_no_grad(i.context_expr) for i in n.items) for n in nodes)
    # Models imported from a module next to this file (`from model import Net`) are read
    # there: which classes are models, and which detach inside.
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.module and not node.level and path:
            theirs = _sibling(os.path.dirname(os.path.abspath(path)), node.module)
            for alias in node.names:
                local = alias.asname or alias.name
                if alias.name in theirs.models:
                    module_classes.add(local)
                if alias.name in theirs.opaque:
                    facts.imported_opaque.add(local)
                if alias.name in theirs.no_grad:
                    facts.no_grad_functions.add(local)
                if alias.name in theirs.plain:
                    facts.imported_plain.add(local)
    for cls in nodes:
        if isinstance(cls, ast.ClassDef) and cls.name in module_classes:
            facts.no_grad_methods.update(
                m.name for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
                and any(patterns.is_no_grad(d) for d in m.decorator_list))
    bound: dict[str, list[ast.expr]] = {}
    for node in nodes:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                bound.setdefault(reading.text(target), []).append(node.value)
    for node in nodes:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("backward", "manual_backward", "grad"):
            facts.has_backward = True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name in facts.functions:
                facts.ambiguous.add(node.name)  # two classes' `update`: which one is called?
            facts.functions.setdefault(node.name, node)
            if _without_grad(node, no_grad_blocks):
                facts.no_grad_functions.add(node.name)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("parameters", "named_parameters"):
            facts.models.add(reading.text(node.func.value))
        elif isinstance(node, ast.Assign):
            # `self.fc1, self.fc2 = nn.Linear(4, 8), nn.Linear(8, 1)`: pair by pair.
            for target, value in reading.assigned_pairs(node):
                if isinstance(value, ast.Call):
                    _note_built(facts, module_classes, bound, reading.targets_of(target),
                                value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.value, ast.Call):
            _note_built(facts, module_classes, bound, [node.target], node.value)
    _closure_aliases(facts, nodes)
    forget()  # what an earlier file left (a caller that did not go through the engine)
    _plain_candidates.update(facts.functions)
    _plain_known.update(dict.fromkeys(facts.imported_plain, True))
    facts.model_classes = module_classes
    facts.frozen = _frozen(nodes)
    # `self.model = model`, `net = model.to(device)`: another name for a model is a model.
    for _ in range(2):
        for node in nodes:
            if isinstance(node, ast.Assign) and isinstance(
                    _unwrapped(node.value), (ast.Name, ast.Attribute)) and reading.text(
                    _unwrapped(node.value)) in facts.models:
                facts.models.update(reading.text(t) for t in node.targets
                                    if isinstance(t, (ast.Name, ast.Attribute)))
    return facts


# torch.nn layers that hold no parameters: calling one makes no history of its own.
_PARAMETER_FREE = frozenset({
    "ReLU", "ReLU6", "LeakyReLU", "ELU", "SELU", "CELU", "GELU", "SiLU", "Mish", "Sigmoid",
    "Tanh", "Softmax", "LogSoftmax", "Softplus", "Softsign", "Hardtanh", "Hardswish",
    "Hardsigmoid", "Tanhshrink", "Threshold", "GLU", "Dropout", "Dropout1d", "Dropout2d",
    "Dropout3d", "AlphaDropout", "Identity", "Flatten", "Unflatten", "MaxPool1d",
    "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d", "AdaptiveAvgPool1d",
    "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
    "Upsample", "PixelShuffle", "PixelUnshuffle", "ZeroPad2d", "ConstantPad1d",
    "ConstantPad2d", "ReflectionPad2d", "ReplicationPad2d", "CosineSimilarity",
    "PairwiseDistance", "ChannelShuffle", "Softmin", "Softmax2d"})


def _parameter_free(built: str) -> bool:
    name = built.rsplit(".", 1)[-1]
    return name.endswith("Loss") or name in _PARAMETER_FREE


def _note_built(facts: FileFacts, module_classes: set[str], bound: dict[str, list[ast.expr]],
                targets: list[ast.expr], value: ast.Call) -> None:
    """What `targets = value` makes: a model, a parameter, an optimizer over some models."""
    built = _constructed(value)
    names = [reading.text(t) for t in targets]
    if built and built.startswith(_NN_PREFIXES) and _parameter_free(built):
        pass  # a loss or an activation: it passes history on, it makes none
    elif built and (built.startswith(_NN_PREFIXES) and not built.startswith(
            _NN_NOT_MODULES) or built in module_classes):
        facts.models.update(names)
        if built in module_classes:
            facts.classes.update((n, built) for n in names)
    elif built in PARAMETER_CALLS or _learnable_leaf(value):
        facts.parameters.update(names)
    if ("optim" in built.lower() or built.rsplit(".", 1)[-1] in _OPTIMIZERS) and \
            "lr_scheduler" not in built and "swa_utils" not in built:
        # (a scheduler or an averaged model is built over an optimizer or a model; it is
        # neither)
        held = _parameters_of(value) | {
            m for name in reading.names_in(value) for v in bound.get(name, ())
            for m in _parameters_of(v)}  # `params = [*a.parameters(), ...]`
        if held:
            facts.optimizers.update((n, held) for n in names)


def _learnable_leaf(value: ast.Call) -> bool:
    """`torch.zeros((), requires_grad=True)`: a leaf made to learn (SAC's `log_alpha`), not a
    copy of a computed value switched on (`torch.tensor(loss.item(), requires_grad=True)`)."""
    switched = any(k.arg == "requires_grad" and isinstance(k.value, ast.Constant)
                   and k.value.value is True for k in value.keywords)
    copied = any(isinstance(n, ast.Attribute) and n.attr in (*_CUTTING_METHODS, "data")
                 for a in value.args for n in ast.walk(a))
    return switched and not copied and reading.text(value.func).startswith("torch.")


def _parameters_of(value: ast.expr) -> set[str]:
    # A comprehension's own variable (`g` in `[{"params": g.parameters()} for g in groups]`)
    # names each element of something else, no model of its own.
    local = {n.id for c in ast.walk(value) if isinstance(c, ast.comprehension)
             for n in ast.walk(c.target) if isinstance(n, ast.Name)}
    return {reading.text(n.func.value) for n in ast.walk(value)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr in ("parameters", "named_parameters")
            and reading.text(n.func.value).split(".")[0].split("[")[0] not in local}


def _frozen(nodes: list[ast.AST]) -> set[str]:
    """`m.requires_grad_(False)`; `for p in m.parameters(): p.requires_grad = False` (also
    over `zip(a.parameters(), m.parameters())`, as momentum encoders are frozen)."""
    found: set[str] = set()
    enabled: set[str] = set()  # switched back on somewhere (a GAN's D between steps)
    for node in nodes:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr == "requires_grad_":
            off = bool(node.args) and isinstance(node.args[0], ast.Constant) and \
                node.args[0].value is False
            (found if off else enabled).add(reading.text(node.func.value))
        if isinstance(node, ast.For):
            owners = _parameter_owners(node)
            for stmt in ast.walk(node):
                switched = _switched_off(stmt)
                if switched in owners:
                    found.add(owners[switched])
    return found - enabled


def _parameter_owners(loop: ast.For) -> dict[str, str]:
    """{loop variable: model} for `for p in m.parameters()` and
    `for a, b in zip(m.parameters(), n.parameters())`."""
    sources = loop.iter.args if isinstance(loop.iter, ast.Call) and reading.text(
        loop.iter.func) == "zip" else [loop.iter]
    names = loop.target.elts if isinstance(loop.target, ast.Tuple) else [loop.target]
    owners = {}
    for name, source in zip(names, sources):
        if isinstance(name, ast.Name) and isinstance(source, ast.Call) and isinstance(
                source.func, ast.Attribute) and source.func.attr == "parameters":
            owners[name.id] = reading.text(source.func.value)
    return owners


def _switched_off(stmt: ast.AST) -> str:
    """`p` for `p.requires_grad = False` and `p.requires_grad_(False)`."""
    if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant) and \
            stmt.value.value is False:
        for target in stmt.targets:
            if isinstance(target, ast.Attribute) and target.attr == "requires_grad":
                return reading.text(target.value)
    if isinstance(stmt, ast.Call) and isinstance(stmt.func, ast.Attribute) and \
            stmt.func.attr == "requires_grad_" and stmt.args and isinstance(
            stmt.args[0], ast.Constant) and stmt.args[0].value is False:
        return reading.text(stmt.func.value)
    return ""


def _unwrapped(value: ast.expr) -> ast.expr:
    """`model` in `model.to(device)` / `model.train()`."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
            and value.func.attr in ("to", "cuda", "cpu", "train", "eval", "float", "double"):
        value = value.func.value
    return value


def _constructed(value: ast.expr) -> str:
    """The callable of `X(...)` (also under `.to(device)` and friends)."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
            and value.func.attr in ("to", "cuda", "cpu", "float", "double", "half", "train",
                                    "eval", "requires_grad_"):
        value = value.func.value
    return reading.text(value.func) if isinstance(value, ast.Call) else ""


def _without_grad(function: Function, blocks: bool = True) -> bool:
    """Does everything the function returns come from a no_grad region (a decorator, or every
    `return` inside a `with torch.no_grad():` block)? `blocks`: the file has such blocks."""
    if any(patterns.is_no_grad(d) for d in function.decorator_list):
        return True
    if not blocks:
        return False
    returns = [n for n in own(function) if isinstance(n, ast.Return) and n.value is not None]
    return bool(returns) and all(under_no_grad(function, r) for r in returns)


@dataclass(frozen=True)
class Sibling:
    """What a module next to the linted file defines that matters to it."""

    models: frozenset[str] = frozenset()  # nn.Module subclasses
    opaque: frozenset[str] = frozenset()  # classes that detach inside
    no_grad: frozenset[str] = frozenset()  # functions decorated with no_grad
    plain: frozenset[str] = frozenset()  # functions that return plain Python values


@functools.lru_cache(maxsize=256)
def _sibling(folder: str, module: str) -> Sibling:
    file = os.path.join(folder, *module.split(".")) + ".py"
    try:
        with open(file, "rb") as handle:
            tree = ast.parse(handle.read())
    except (OSError, SyntaxError, ValueError):
        return Sibling()
    functions = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    return Sibling(frozenset(_module_classes(tree)), frozenset(_opaque(tree)),
                   frozenset(f.name for f in functions if _without_grad(f)),
                   frozenset(f.name for f in functions if _plain(f)))


def _opaque(tree: ast.Module) -> set[str]:
    """Classes that detach or turn recording off somewhere inside."""
    return {c.name for c in ast.walk(tree) if isinstance(c, ast.ClassDef) and any(
        patterns.history_cut(n) or isinstance(n, ast.With) and any(
            patterns.is_no_grad(i.context_expr) for i in n.items) for n in ast.walk(c))}


def _module_classes(tree: ast.Module, nodes: list[ast.AST] | None = None) -> set[str]:
    """Classes of this file that are models (subclasses of nn.Module, also indirectly)."""
    classes = {n.name: n for n in (nodes if nodes is not None else ast.walk(tree))
               if isinstance(n, ast.ClassDef)}
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, cls in classes.items():
            if name in found:
                continue
            bases = [reading.text(b) for b in cls.bases]
            if any(b.rsplit(".", 1)[-1] in _MODULE_BASES or b in found for b in bases):
                found.add(name)
                changed = True
    return found


def _closure_aliases(facts: FileFacts, nodes: list[ast.AST]) -> None:
    """`lif1 = make_lif()` where `make_lif` returns its nested `lif`: calls of `lif1` run
    `lif`, and what `lif` keeps `nonlocal` lives from one call to the next."""
    for node in nodes:
        if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Call):
            continue
        factory = facts.functions.get(callee_name(node.value))
        if factory is None:
            continue
        nested = {n.name: n for n in factory.body
                  if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        returned = [r.value for r in reading.own_nodes(factory)
                    if isinstance(r, ast.Return) and r.value is not None]
        if len(returned) != 1 or not nested:
            continue
        made = returned[0].elts if isinstance(returned[0], ast.Tuple) else [returned[0]]
        for target in node.targets:
            names = target.elts if isinstance(target, ast.Tuple) else [target]
            if len(names) != len(made):
                continue
            for name, value in zip(names, made):
                if isinstance(name, ast.Name) and isinstance(value, ast.Name) and \
                        value.id in nested:
                    facts.functions.setdefault(name.id, nested[value.id])
                    facts.closures[name.id] = nested[value.id]


def callee_name(call: ast.Call) -> str:
    """`f` for `f(x)` and `self.f(x)`: a function or method of this file, by name."""
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) and \
            call.func.value.id == "self":
        return call.func.attr
    return ""


def _returns_history(facts: FileFacts, function: Function) -> bool:
    """Does something the function returns come from a model run inside it?"""
    if _without_grad(function):
        return False
    returns = [n for n in own(function) if isinstance(n, ast.Return) and n.value is not None]
    if not returns:
        return False
    defs = flow(body_statements(function))  # one pass: what each name holds by the end
    return any(makes_history(facts, r.value) or history_statements(facts, defs, defs.of(
        r.value)) for r in returns if r.value is not None)


def is_forward(facts: FileFacts, call: ast.Call) -> bool:
    """Does this call run a model (`model(x)`, `self.encoder(x)`, `net.decode(z)`) whose
    parameters learn?"""
    func = reading.text(call.func)
    if func in facts.frozen or func.rsplit(".", 1)[0] in facts.frozen:
        return False
    if func in facts.models:
        return True
    if func.rsplit(".", 1)[-1] == "functional_call" and call.args:
        return reading.text(call.args[0]) in facts.models  # torch.func.functional_call
    if isinstance(call.func, ast.Attribute) and call.func.attr not in _NOT_FORWARD:
        return reading.text(call.func.value) in facts.models
    return False


def opaque_call(facts: FileFacts, call: ast.Call) -> bool:
    """A call into a model of this file that detaches something inside."""
    func = reading.text(call.func)
    owner = func if func in facts.classes else func.rsplit(".", 1)[0]
    return facts.classes.get(owner, "") in facts.opaque


def makes_history(facts: FileFacts, node: ast.AST) -> bool:
    """Does evaluating `node` run a model or compute with a parameter, outside any cut
    (also inside a function of this file that returns such a value)?"""
    for sub in live_nodes(node):
        if isinstance(sub, ast.Call) and (is_forward(facts, sub) or (
                callee := callee_name(sub)) in facts.functions and callee in
                facts.history_functions):
            return True
        if isinstance(sub, (ast.Name, ast.Attribute)) and reading.text(sub) in facts.parameters:
            return True
    return False


def live_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """Nodes of `node` whose value can reach the result with its history: not under
    `.detach()`, `.item()`, `.data`, `.numpy()`, nor in a nested function."""
    stack = [node]
    while stack:
        sub = stack.pop()
        yield sub
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) \
                and sub.func.attr in _CUTTING_METHODS:
            stack.extend(sub.args)
            stack.extend(k.value for k in sub.keywords)
            continue
        if isinstance(sub, ast.Call) and (_returns_plain(sub.func) or reading.text(
                sub.func) in _NEW_TENSOR) or isinstance(sub, ast.Compare) or \
                patterns.non_differentiable(sub):
            continue  # a plain value, a new tensor, a comparison, an argmax: no gradient
        if isinstance(sub, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            # The iterated values reach the result only through what each element keeps.
            results = [sub.key, sub.value] if isinstance(sub, ast.DictComp) else [sub.elt]
            kept = {n.id for r in results for n in live_nodes(r) if isinstance(n, ast.Name)}
            bound = {n.id for g in sub.generators for n in ast.walk(g.target)
                     if isinstance(n, ast.Name)}
            stack.extend(results)
            if kept & bound:
                stack.extend(g.iter for g in sub.generators)
            continue
        if isinstance(sub, ast.Attribute) and sub.attr in ("data", "shape", "grad",
                                                          "requires_grad", "device", "dtype"):
            continue
        if isinstance(sub, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        stack.extend(ast.iter_child_nodes(sub))


# Builtins that return plain Python values, and (for the file being linted) its functions
# whose every `return` hands back such a value (`return loss.item()`): no history leaves them.
# Calls that copy data into a new tensor without history (not `torch.as_tensor`, which
# hands a tensor back as it is).
_NEW_TENSOR = frozenset({"torch.tensor", "torch.from_numpy", "torch.Tensor",
                         "torch.FloatTensor", "torch.LongTensor"})
_PLAIN_BUILTINS = frozenset({"float", "int", "round", "bool", "len", "str", "repr", "format"})
# Per linted file (cleared by `forget`): its functions, and which of them are plain, decided
# when first asked (most never are).
_plain_candidates: dict[str, Function] = {}
_plain_known: dict[str, bool] = {}


def _plain_function(name: str) -> bool:
    if name not in _plain_known:
        function = _plain_candidates.get(name)
        _plain_known[name] = False  # while deciding: a helper calling itself is not plain
        _plain_known[name] = function is not None and _plain(function)
    return _plain_known[name]


def returns_plain(call: ast.Call) -> bool:
    """A call of a builtin or helper that hands back a plain value (or a new tensor
    without history)."""
    return _returns_plain(call.func)


def _returns_plain(func: ast.expr) -> bool:
    if isinstance(func, ast.Name):
        return func.id in _PLAIN_BUILTINS or _plain_function(func.id)
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and \
            func.value.id != "self" and func.attr in _plain_candidates:
        # `pool.query(fake)`: a method of this file that hands back copies without history
        if func.attr not in _cutting_known:
            _cutting_known[func.attr] = False
            _cutting_known[func.attr] = _cuts_arguments(_plain_candidates[func.attr])
        return _cutting_known[func.attr]
    return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and \
        func.value.id == "self" and _plain_function(func.attr)


_cutting_known: dict[str, bool] = {}


def _cuts_arguments(function: Function) -> bool:
    """Does nothing the function returns carry the history of what it was handed? Follows
    its arguments through assignments, loops over them and appends (an image pool that
    stores and returns `batch.detach()`'s rows hands back no history)."""
    tainted = {a.arg for a in function.args.args + function.args.kwonlyargs} - {"self"}
    statements = body_statements(function)
    for _ in range(2):  # a second pass for values that flow back around a loop
        for stmt in statements:
            if isinstance(stmt, (ast.For, ast.AsyncFor)) and live_names(stmt.iter) & tainted:
                tainted |= {reading.text(t) for t in reading.targets_of(stmt.target)}
            elif isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and \
                    stmt.value is not None and live_names(stmt.value) & tainted:
                tainted |= {reading.text(t) for t in reading.targets(stmt)}
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and \
                    isinstance(stmt.value.func, ast.Attribute) and stmt.value.func.attr in (
                        "append", "extend", "insert", "add") and any(
                        live_names(a) & tainted for a in stmt.value.args):
                tainted.add(reading.text(stmt.value.func.value))
    returns = [n for n in own(function) if isinstance(n, ast.Return)]
    # (what it keeps on `self` may carry history of its own: not decided here)
    return bool(returns) and all(r.value is not None and not live_names(r.value) & tainted
                                 and not any(n.startswith("self.") or n == "self"
                                             for n in live_names(r.value))
                                 for r in returns)


def _plain(function: Function) -> bool:
    returns = [n for n in own(function) if isinstance(n, ast.Return)]
    return bool(returns) and all(r.value is not None and not live_names(r.value)
                                 for r in returns)


def live_names(node: ast.AST) -> set[str]:
    """Names and dotted names whose value `node` passes on with its history."""
    out: set[str] = set()
    for sub in live_nodes(node):
        if isinstance(sub, (ast.Name, ast.Attribute)) and isinstance(sub.ctx, ast.Load):
            out.add(reading.text(sub))
    return out


@functools.cache
def backwards(node: ast.AST) -> list[Backward]:
    """Backward calls in `node` (not in nested functions), in source order."""
    found: list[Backward] = []
    for sub in own(node) if not isinstance(node, ast.expr) else ast.walk(node):
        if not isinstance(sub, ast.Call):
            continue
        func = reading.text(sub.func)
        target: ast.expr | None = None
        if isinstance(sub.func, ast.Attribute) and sub.func.attr in ("backward",
                                                                     "manual_backward"):
            receiver = sub.func.value
            owner = reading.text(receiver).rsplit(".", 1)[-1]
            if func.startswith(("torch.autograd", "autograd.")) or owner in (
                    "accelerator", "fabric", "self") or sub.func.attr == "manual_backward":
                target = sub.args[0] if sub.args else None
            elif isinstance(receiver, ast.Call) and receiver.args and reading.text(
                    receiver.func).endswith(".scale"):
                target = receiver.args[0]
            else:
                target = receiver
        elif func in ("torch.autograd.grad", "autograd.grad") and sub.args:
            target = sub.args[0]
        if target is not None:
            found.append(Backward(sub, target, _retains(sub)))
    return sorted(found, key=lambda b: (b.call.lineno, b.call.col_offset))


def _stops_at(back: Backward) -> set[str]:
    """The inputs an `autograd.grad` call differentiates with respect to (as written)."""
    call = back.call
    if not reading.text(call.func).endswith("autograd.grad"):
        return set()
    inputs = call.args[1] if len(call.args) > 1 else next(
        (k.value for k in call.keywords if k.arg == "inputs"), None)
    if inputs is None:
        return set()
    parts = inputs.elts if isinstance(inputs, (ast.Tuple, ast.List)) else [inputs]
    return {reading.text(p) for p in parts}


def _retains(call: ast.Call) -> bool:
    for keyword in call.keywords:
        if keyword.arg in ("retain_graph", "create_graph") and not (
                isinstance(keyword.value, ast.Constant) and not keyword.value.value):
            return True
        if keyword.arg is None:  # **kwargs: cannot tell
            return True
    return False


@functools.cache
def loops(scope: ast.AST) -> list[Loop]:
    found = [n for n in own(scope) if isinstance(n, (ast.For, ast.AsyncFor,
                                                                     ast.While))]
    return sorted(found, key=lambda n: n.lineno)


@functools.cache
def scopes(tree: ast.Module) -> list[ast.Module | Function]:
    return [tree] + [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef,
                                                                  ast.AsyncFunctionDef))]



def nodes_of(stmt: ast.AST) -> Iterator[ast.AST]:
    """The nodes of one statement of `body_statements`: a `for` statement's own header
    only (its body's statements are listed on their own)."""
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        yield from ast.walk(stmt.target)
        yield from ast.walk(stmt.iter)
    else:
        yield from ast.walk(stmt)


@functools.cache
def body_statements(node: ast.AST) -> list[ast.stmt]:
    """Simple statements inside `node` (a loop, a function), in source order, not descending
    into nested functions or classes; `for` statements too, which bind their targets."""
    found = [n for n in own(node) if isinstance(n, ast.stmt)
             and (not reading.is_compound(n) or isinstance(n, (ast.For, ast.AsyncFor)))]
    return sorted(found, key=lambda n: (n.lineno, n.col_offset))


def writes(node: ast.AST, expression: str) -> list[ast.AST]:
    """Everything in `node` that rebinds `expression`: assignments, loop targets, `del`,
    in-place detaching (`h.detach_()`)."""
    found: list[ast.AST] = []
    for sub in own(node):
        if isinstance(sub, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor,
                            ast.With, ast.AsyncWith)):
            if any(reading.text(t) == expression for t in reading.targets(sub)):
                found.append(sub)
        elif isinstance(sub, ast.Delete) and any(reading.text(t) == expression
                                                 for t in sub.targets):
            found.append(sub)
        elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and \
                sub.func.attr in ("detach_", "requires_grad_", "zero_", "clear") and \
                reading.text(sub.func.value) == expression:
            found.append(sub)
        elif isinstance(sub, ast.NamedExpr) and reading.text(sub.target) == expression:
            found.append(sub)
        if isinstance(sub, ast.Assign) and any(
                isinstance(t, ast.Subscript) and reading.text(t.value) == expression
                and reading.text(sub.value) == f"{reading.text(t)}.detach()" for t in sub.targets):
            found.append(sub)  # `hidden[i] = hidden[i].detach()`: detached element by element
        if isinstance(sub, (ast.For, ast.AsyncFor)) and reading.text(sub.iter) == \
                expression and isinstance(sub.target, ast.Name) and any(
                    isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
                    and c.func.attr == "detach_" and reading.text(c.func.value) ==
                    sub.target.id for c in ast.walk(sub)):
            found.append(sub)  # `for t in self.hidden: t.detach_()`
    return found


def under_no_grad(scope: ast.AST, node: ast.AST) -> bool:
    """Is `node` inside a `with torch.no_grad():` (or inference_mode) block of `scope`, or is
    `scope` itself decorated so?"""
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
            patterns.is_no_grad(d) for d in scope.decorator_list):
        return True
    return any(reading.inside(node, s) for s in _no_grad_blocks(scope))


@functools.cache
def _no_grad_blocks(scope: ast.AST) -> tuple[ast.stmt, ...]:
    """Statements that run with grad mode off: a `with torch.no_grad():` body, a branch taken
    only then (`if not torch.is_grad_enabled():`), and what follows `assert not
    torch.is_grad_enabled()` in its block (a generation-only cache write)."""
    found: list[ast.stmt] = []
    for w in (scope, *own(scope)):
        if isinstance(w, (ast.With, ast.AsyncWith)) and any(
                patterns.is_no_grad(i.context_expr) for i in w.items):
            found += w.body
        elif isinstance(w, ast.If) and _grad_off(w.test):
            found += w.body
        for part in ("body", "orelse", "finalbody"):
            block = getattr(w, part, None)
            if not isinstance(block, list):
                continue
            asserted = next((i for i, st in enumerate(block)
                             if isinstance(st, ast.Assert) and _grad_off(st.test)), None)
            if asserted is not None:
                found += block[asserted + 1:]
    return tuple(found)


def _grad_off(test: ast.expr) -> bool:
    """`not torch.is_grad_enabled()`."""
    return isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and isinstance(
        test.operand, ast.Call) and reading.text(test.operand.func).endswith("is_grad_enabled")


@dataclass(frozen=True)
class Defs:
    """Reaching definitions along one pass over statements: for each name, the statement
    that last bound it, and for each statement, the statements its value came from."""

    current: dict[str, ast.stmt]
    sources: dict[int, frozenset[int]]  # id(stmt) -> ids of statements it depends on
    by_id: dict[int, ast.stmt]
    every: bool = False  # follow every value read, also through .detach(), .item() and such

    def of(self, node: ast.AST) -> frozenset[int]:
        """The statements whose values `node` (read now) carries, transitively."""
        out: set[int] = set()
        for name in (reading.names_in(node) if self.every else live_names(node)):
            stmt = self.current.get(name)
            if stmt is not None:
                out.add(id(stmt))
                out |= self.sources.get(id(stmt), frozenset())
        return frozenset(out)


def flow(statements: list[ast.stmt], until: ast.AST | None = None,
         start: Defs | None = None, every: bool = False) -> Defs:
    """Walk `statements` in order up to (not including) the one that contains `until`.
    `every`: values flow through cuts too (where did a value come from, history or not)."""
    current = dict(start.current) if start else {}
    sources = dict(start.sources) if start else {}
    by_id = dict(start.by_id) if start else {}
    for stmt in statements:
        if until is not None and reading.inside(until, stmt) and not isinstance(
                stmt, (ast.For, ast.AsyncFor)):
            break
        value = _value(stmt)
        if value is None:
            continue
        deps = Defs(current, sources, by_id, every).of(value)
        by_id[id(stmt)] = stmt
        for target in _bound(stmt):
            key = reading.text(target)
            if isinstance(stmt, ast.AugAssign) or isinstance(target, ast.Subscript) or \
                    isinstance(stmt, ast.Expr):
                previous = current.get(key)
                if previous is not None:
                    deps = deps | {id(previous)} | sources.get(id(previous), frozenset())
            sources[id(stmt)] = deps
            current[key] = stmt
    return Defs(current, sources, by_id, every)


def _value(stmt: ast.stmt) -> ast.expr | None:
    if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        return stmt.value
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        return stmt.iter
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(
            stmt.value.func, ast.Attribute) and stmt.value.func.attr in reading.MUTATORS:
        return stmt.value
    return None


def _bound(stmt: ast.stmt) -> list[ast.expr]:
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(
            stmt.value.func, ast.Attribute):
        return [stmt.value.func.value]  # `bank.append(x)`: the container now holds x
    out = []
    for target in reading.targets(stmt):
        out.append(target.value if isinstance(target, ast.Subscript) else target)
    return out


def steps_between(body: list[ast.stmt], first: ast.AST, second: ast.AST) -> list[ast.Call]:
    """`X.step()` calls strictly between two nodes of one body (an optimizer update)."""
    start, end = first.lineno, second.lineno  # type: ignore[attr-defined]
    return [n for s in body for n in nodes_of(s) if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute) and n.func.attr == "step"
            and start < n.lineno < end and not n.args]


def exclusive(scope: ast.AST, first: ast.AST, second: ast.AST) -> bool:
    """Do the two nodes sit in different branches of one `if` in `scope` (only one of them
    runs)?"""
    def holds(part: list[ast.stmt], node: ast.AST) -> bool:
        return any(node is n for s in part for n in ast.walk(s))

    return any(holds(b.body, first) and holds(b.orelse, second) or
               holds(b.orelse, first) and holds(b.body, second)
               for b in own(scope) if isinstance(b, ast.If))


def history_statements(facts: FileFacts, defs: Defs, ids: frozenset[int]) -> list[ast.stmt]:
    """Of the statements `ids`, those that run a model or compute with a parameter, with
    recording on."""
    found = [defs.by_id[i] for i in ids if i in defs.by_id]
    return sorted((s for s in found if makes_history(facts, value_of(s))
                   and id(s) not in facts.without_grad), key=lambda s: s.lineno)


def value_of(stmt: ast.stmt) -> ast.AST:
    """What a statement computes: an assignment's value, a loop's iterable, a call."""
    value = _value(stmt)
    return value if value is not None else stmt


def shared_forward(facts: FileFacts, scope: ast.AST, body: list[ast.stmt], first: Backward,
                   second: Backward) -> ast.stmt | None:
    """Where the graphs of two backward calls fork: the first statement before `first` that
    both reach, run outside no_grad with history, and read by a statement only one of them
    reaches (`fake = G(z)`, read by the discriminator's loss and by the generator's). That
    is the part of the graph the first call frees for the second."""
    at_first = flow(body, until=first.call)
    at_second = flow(body, until=second.call)
    one, two = at_first.of(first.target), at_second.of(second.target)
    common = one & two
    shared = [s for s in history_statements(facts, at_second, common)
              if s.lineno < first.call.lineno and not under_no_grad(scope, s)]
    if not shared:
        return None
    apart = [at_second.by_id.get(i) or at_first.by_id.get(i) for i in (one | two) - common]
    read_apart = set().union(*(live_names(value_of(s)) for s in apart if s is not None)) | \
        live_names(first.target) | live_names(second.target)
    forks = [s for s in shared if {reading.text(t) for t in reading.targets(s)} & read_apart]
    return forks[0] if forks else shared[-1]


def chain_names(defs: Defs, back: Backward) -> set[str]:
    """Every name read (with its history) on the way into what `back` backwards."""
    out = live_names(back.target)
    for i in defs.of(back.target):
        if i in defs.by_id:
            out |= live_names(value_of(defs.by_id[i]))
    return out


def feeds_backward(body: list[ast.stmt], value: ast.expr, backs: list[Backward]) -> bool:
    """Does `value` read a name that some backward call in `body` backwards, directly or
    through the statements it depends on? (A value that feeds a loss has a graph; one that
    merely came out of the same call, such as routing counts, may not.)"""
    names = live_names(value)
    return any(names & chain_names(flow(body, until=b.call), b) for b in backs)


def repeated(scope: ast.AST) -> list[ast.AST]:
    """What runs once per training step in `scope`: its loops, and the function itself (a
    function that backwards is called once per step, so what it keeps on `self` or in an
    outer scope is carried from one call to the next)."""
    return list(loops(scope)) + ([] if isinstance(scope, ast.Module) else [scope])


def each_run(body: ast.AST) -> str:
    """`every iteration of the loop on line 12` / `every call of train_step`."""
    if isinstance(body, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return f"every call of `{body.name}`"
    return f"every iteration of the loop on line {getattr(body, 'lineno', 0)}"


def persists(scope: ast.AST, body: ast.AST, name: str) -> bool:
    """Does `name` outlive one run of `body` (a loop of `scope`, or `scope` itself)? For
    `d[k]`, whether the container `d` does."""
    name = name.split("[", 1)[0]
    if body is scope:
        return name.startswith("self.") or reading.declares_outer(scope, name.split(".")[0])
    if "." in name and not name.startswith("self."):
        # `ro.log_probs` of a `ro = Rollout()` made afresh in each run of the body lives as
        # long as `ro` does.
        return persists(scope, body, name.split(".", 1)[0])
    if "." in name or name in reading.parameters(scope):
        return True  # an attribute (set in __init__ or an earlier call) or an argument
    return any(w.lineno < body.lineno and not reading.inside(w, body)  # type: ignore[attr-defined]
               for w in writes(scope, name))


def bind(helper: Function, call: ast.Call) -> dict[str, ast.expr]:
    """What a call binds to a helper's parameters (`self` left out of method calls)."""
    return reading.bound_arguments(helper, call, method=isinstance(call.func, ast.Attribute))


def step_backwards(facts: FileFacts, node: ast.AST) -> list[Backward]:
    """The backward calls of `node` (a loop or a function), and the calls it makes to helpers
    of this file that backward what they are handed (`self._update_d(real, fake)` whose
    body calls `d_loss.backward()` on a loss made from `fake`)."""
    found = list(backwards(node))
    for stmt in body_statements(node):
        for call in nodes_of(stmt):
            helper = facts.functions.get(callee_name(call)) if isinstance(call, ast.Call) \
                else None
            if helper is None or helper is node or not isinstance(call, ast.Call):
                continue
            bound = bind(helper, call)
            used = [bound[p] for p in _consumed(helper) if p in bound]
            if used:
                target = ast.copy_location(ast.Tuple(used, ast.Load()), call)
                found.append(Backward(call, target, False, helper))
    return sorted(found, key=lambda b: (b.call.lineno, b.call.col_offset))


def _consumed(helper: Function) -> list[str]:
    """Parameters whose graph a backward call of the helper (without retain_graph) uses."""
    params = [a.arg for a in helper.args.posonlyargs + helper.args.args]
    body = body_statements(helper)
    used: set[str] = set()
    for back in backwards(helper):
        if not back.retains and isinstance(back.call.func, ast.Attribute) and \
                back.call.func.attr == "backward":
            used |= chain_names(flow(body, until=back.call), back)
    return [p for p in params if p in used and p not in ("self", "cls")]


def steps_inside(back: Backward) -> bool:
    """Does the helper behind this backward also step an optimizer?"""
    return back.helper is not None and any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "step"
        and not n.args for n in own(back.helper))


def training_bodies(tree: ast.Module) -> Iterator[tuple[ast.AST, ast.AST, list[ast.stmt]]]:
    """(scope, loop or function, its statements) for every loop and every function."""
    for scope in scopes(tree):
        for loop in loops(scope):
            yield scope, loop, body_statements(loop)
        if not isinstance(scope, ast.Module):
            yield scope, scope, body_statements(scope)


def statement_of(body: list[ast.stmt], node: ast.AST) -> ast.stmt | None:
    return next((s for s in body if reading.inside(node, s)), None)


def grows(value: ast.expr, name: str) -> ast.expr | None:
    """The new part in `torch.cat([name, new])` (also sliced: `torch.cat(...)[-K:]`)."""
    while isinstance(value, ast.Subscript):
        value = value.value
    if isinstance(value, ast.Call) and reading.text(value.func) in (
            "torch.cat", "torch.concat", "torch.vstack", "torch.stack") and value.args \
            and isinstance(value.args[0], (ast.List, ast.Tuple)):
        parts = value.args[0].elts
        if any(reading.text(p) == name for p in parts):
            rest = [p for p in parts if reading.text(p) != name]
            return rest[0] if len(rest) == 1 else None
    return None


def stored(stmt: ast.stmt) -> tuple[str, ast.expr] | None:
    """(container, stored value) of `c.append(v)`, `c[k] = v`, `c = torch.cat([c, v])...`."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(
            stmt.value.func, ast.Attribute) and stmt.value.func.attr in (
            "append", "appendleft", "insert") and stmt.value.args and isinstance(
            stmt.value.func.value, (ast.Name, ast.Attribute)):
        return reading.text(stmt.value.func.value), stmt.value.args[-1]
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target = stmt.targets[0]
        if isinstance(target, ast.Subscript) and isinstance(target.value, (ast.Name,
                                                                            ast.Attribute)):
            return reading.text(target.value), stmt.value
        if isinstance(target, (ast.Name, ast.Attribute)):
            grown = grows(stmt.value, reading.text(target))
            if grown is not None:
                return reading.text(target), grown
    return None


def reaches(body: list[ast.stmt], stmt: ast.stmt, back: Backward) -> bool:
    """Does the backward call reach what `stmt` stored, this iteration or from the last?
    `autograd.grad(f(x), x)` stops at `x`: what made `x` is not reached."""
    if _stops_at(back) & {reading.text(t) for t in reading.targets(stmt)}:
        return False
    if id(stmt) in flow(body, until=back.call).of(back.target):
        return True
    return id(stmt) in flow(body, until=back.call, start=flow(body)).of(back.target)
