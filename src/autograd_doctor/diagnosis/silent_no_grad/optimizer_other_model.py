"""Optimizer over another model: the optimizer holds parameters the loss never reaches,
while the parameters the loss does reach are in no optimizer.

Typically a copy-paste slip (`Adam(teacher.parameters())` while the loss comes from
`student`), or a model rebuilt after the optimizer was created. Backward runs and fills
gradients, the optimizer steps, and nothing that matters changes. Its relatives: a
learnable tensor (a loss module's weights, a logit scale) handed to no optimizer, and a
parameter group built for a module that a freeze left frozen to the end of the run.

Build the optimizer over the parameters of the model the loss comes from.
"""

from __future__ import annotations

import ast
import copy
import itertools
from dataclasses import replace

from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.diagnosis.silent_no_grad.evidence import (
    NoGrad,
    claim,
    last_backward,
    starved,
    summary,
)
from autograd_doctor.edits.operations import Insert, Move, Remedy, replace_node
from autograd_doctor.graph.names import steps
from autograd_doctor.graph.objects import construction
from autograd_doctor.source import places, reading
from autograd_doctor.source.files import project_files

CATEGORY = "optimizer-other-model"
CULPRIT = "teacher"
CULPRIT_LINE = 6  # line of BROKEN

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
teacher, student = nn.Linear(4, 1), nn.Linear(4, 1)
opt = torch.optim.SGD(teacher.parameters(), lr=0.1)
for step in range(4):
    x = torch.randn(8, 4)
    loss = (student(x) - teacher(x).detach()).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

FIXED = BROKEN.replace("SGD(teacher.parameters()", "SGD(student.parameters()")


def match(ev: NoGrad) -> Claim | None:
    if ev.left_out:
        return _left_out(ev)
    if ev.frozen and ev.missing_ids <= ev.frozen:
        return _left_frozen(ev)
    if ev.missing_ids and ev.missing_ids <= ev.meant:
        return _unfrozen_by_attribute(ev)
    # The loss reaches trainable parameters that no optimizer holds, while this optimizer's
    # parameters (all or some) get nothing: the optimizer is stepping the wrong tensors.
    if ev.on_leaf or not ev.records or not ev.reached_outside:
        return None
    trained = common_module(ev.reached_outside)
    if not trained:
        return None
    built = construction(ev.holders, ev.files, ev.frames, ev.built_at,
                         type(ev.optimizer).__name__ if ev.optimizer is not None else "")
    remedy = rebuilt = copied = written = renamed = None
    wrong: list[ast.expr] = []
    alternatives: tuple[Remedy, ...] = ()
    if built is not None:
        file, stmt, arg = built
        # `Adam(model.parameters())` or `AdamW([p for p in model.parameters() if ...])`:
        # the optimizer was built over this very model, before it changed.
        if _holds_module_of(arg, trained):
            rebuilt = _rebuilt_after(file, stmt, root(trained), ev)
            remedy = _build_after(file, stmt, rebuilt) if rebuilt is not None else None
            fresh = _fresh_after(file, rebuilt, reading.segment(file, stmt)) \
                if rebuilt is not None else None
            if fresh is not None and remedy is not None and fresh != remedy:
                # Moving the change before the optimizer fails when it reads what is made
                # in between; a fresh optimizer after it does not (verification picks).
                alternatives = (fresh,)
            elsewhere = _rebuilt_in_method(file, stmt, root(trained)) if rebuilt is None \
                else None
            if elsewhere is not None:
                remedy = _build_in_method(file, stmt, elsewhere, ev.optimizer)
                file, rebuilt = elsewhere[0], elsewhere[1]
                built = (file, rebuilt, arg)
                attribute = root(trained).split(".", 1)[-1]
                renamed = next((reading.text(t) for t in reading.targets(rebuilt)
                                if isinstance(t, ast.Attribute) and t.attr == attribute), None)
            if rebuilt is None:
                caller = _rebuilt_in_caller(ev, file, stmt, root(trained))
                if caller is not None:
                    file, rebuilt, remedy = caller
                    built = (file, rebuilt, arg)
        else:
            # Name the trained module wherever the optimizer names the starved one (a group
            # for its weights, one for its biases), keeping the rest of what it holds (a
            # head's group, the learning rates).
            wrong = [n for n in ast.walk(arg) if isinstance(n, (ast.Name, ast.Attribute))
                     and reading.text(n) == starved(ev)]
            if wrong:
                pair = _paired(ev)
                mirror = pair[1] if pair is not None and pair[0] == starved(ev) else None
                trained = reading.quoted_as_file(file, mirror or trained)
            elif (held := _as_held_there(arg, ev, file, stmt)) is not None:
                wrong, trained = [held[0]], held[1]
                written = reading.text(held[0])
            remedy = Remedy("optimizer-params",
                            f"build the optimizer over {trained}'s parameters", file,
                            stmt.lineno,
                            tuple(replace_node(file, n, trained) for n in wrong) if wrong
                            else (replace_node(file, arg, f"{trained}.parameters()"),))
            copied = _made_from(file, stmt, root(trained), starved(ev), ev) \
                if wrong else None
            if copied is not None:
                # The copy the loss trains does not exist yet where the optimizer is built:
                # a fresh optimizer over it right after it is made.
                remedy = _fresh_after(file, copied, _replacing(stmt, wrong, trained))
            elif wrong and not _named_at(file, stmt, root(trained)) and (
                    copied := _made_in_step(file, root(trained), starved(ev), ev)):
                # Copied in the method that trains it (`local = deepcopy(self.global_model)`
                # in `fine_tune()`), the optimizer built in `__init__`: a fresh one there.
                statement = _written_there(file, stmt, ast.parse(_replacing(
                    stmt, wrong, trained)).body[0], "self", ev.optimizer)
                remedy = _fresh_after(file, copied, statement) if statement else None
    if rebuilt is not None:
        why = (f"{summary(ev)}. `{trained}` got new parameters after the optimizer was built "
               f"({places.user_path(built[0]) if built else ''}:{rebuilt.lineno}: "
               f"`{reading.line_text(built[0], rebuilt.lineno) if built else ''}`): the "
               f"loss trains those, the optimizer holds the old ones.")
        hint = "Build the optimizer after the model is complete."
    else:
        why = (f"{summary(ev)}. The loss reaches the parameters of `{trained}` instead, which "
               f"no optimizer holds: the optimizer was built over the wrong model.")
        hint = f"Build it over `{trained}.parameters()`."
    # Where the model changed after its optimizer was built, that change is where the
    # parameters the optimizer holds stopped being the ones the loss trains.
    at = (built[0], (rebuilt or copied or built[1]).lineno) if built else None
    found = replace(claim(ev, CATEGORY, why, hint, at, remedy), alternatives=alternatives)
    if written is not None and found.culprit is not None:
        found = replace(found, culprit=replace(found.culprit, expression=written,
                                               kind="attribute" if "." in written else "local"))
    replaced = _replaced_in_method(rebuilt, ev.reached_outside, ev.files) if rebuilt is not None \
        else None
    if replaced is not None:
        # One parameter swapped by a method of the model (`self.pos_embed = nn.Parameter(
        # ...)` in `set_image_size()`): that assignment is where the optimizer lost it.
        file, line, expression = replaced
        return replace(found, culprit=places.culprit(expression, "parameter", file, line,
                                                     role="made"))
    if found.culprit is not None and (rebuilt is not None or all(
            m.startswith("<") for m in ev.missing)):
        # The starved parameters have no name any more: the module rebuilt under the name
        # the loss now trains is the culprit (`model.fc`, `model`), as the rebuilding
        # statement names it (`self.policy = PolicyNet(...)` for `self.policy.body`).
        name = renamed or next((t for t in (reading.text(t) for t in reading.targets(rebuilt))
                                if steps(trained)[:len(steps(t))] == steps(t)), trained) \
            if rebuilt is not None else trained
        found = replace(found, culprit=replace(found.culprit, expression=name,
                                               kind="attribute" if "." in name else "local"))
    return found


def _left_out(ev: NoGrad) -> Claim | None:
    """Learnable tensors the user declared (a loss module's task weights, a logit scale)
    that the loss trains and no optimizer holds: the optimizer gets them too."""
    if not ev.left_out_owner:
        return None  # several unrelated things left out: no one statement to name
    owner = ev.left_out_owner
    whole = owner not in ev.left_out  # a module: its parameters; else the tensor itself
    built = construction(ev.holders, ev.files, ev.frames, ev.built_at,
                         type(ev.optimizer).__name__ if ev.optimizer is not None else "")
    remedy, at = None, None
    if built is not None:
        file, stmt, arg = built
        at = (file, _assigned_line(file, owner) or stmt.lineno)
        remedy = _add_to_optimizer(file, stmt, arg, owner, whole)
    what = f"the parameters of `{owner}`" if whole else f"`{owner}`"
    them = "them" if whole else "it"
    kept = "they hold the values they" if whole else "it holds the value it"
    why = (f"The loss reaches {what} and backward gives {them} gradients, but no optimizer "
           f"holds {them}: after {ev.steps} steps {kept} started with.")
    hint = f"Hand {what} to the optimizer as well."
    found = claim(ev, CATEGORY, why, hint, at, remedy)
    details = {"parameters": ev.left_out[:20], "modules": [owner] if whole else [],
               "without_gradient": 0, "of": ev.total, "steps": ev.steps,
               "not_held": len(ev.left_out)}
    kind = "attribute" if "." in owner else "local"
    culprit = places.culprit(owner, kind, at[0], at[1], role="made") if at else \
        places.culprit(owner, kind, None, None, role="made")
    return replace(found, culprit=culprit, details=details)


def _left_frozen(ev: NoGrad) -> Claim | None:
    """Groups built for modules that stayed frozen from the first step to the end while the
    optimizer's other groups trained: the freeze reached further than meant (the whole
    backbone for its stem, the new head with the pretrained layers, a model reloaded with
    its flags). The fix unfreezes those modules right before the optimizer is built."""
    modules = ev.frozen_modules
    built = construction(ev.holders, ev.files, ev.frames, ev.built_at,
                         type(ev.optimizer).__name__ if ev.optimizer is not None else "")
    remedy, at = None, None
    if built is not None:
        file, stmt, arg = built
        at = (file, _made_before(file, stmt, modules) or stmt.lineno)
        receivers = [reading.text(r) for r in _parameter_receivers(arg)]
        written = [next((r for r in receivers if steps(r)[1:] == steps(m)[1:]
                         and len(steps(m)) > 1), "") for m in modules]
        if all(written):
            remedy = Remedy("unfreeze", "unfreeze the frozen groups' modules", file,
                            stmt.lineno, (Insert(
                                file, stmt.lineno,
                                "\n".join(f"{w}.requires_grad_(True)" for w in written),
                                reading.indent_of(file, stmt.lineno)),))
    site = _frozen_site(ev, modules)
    made = _built_frozen(modules) if site is None and (
        at is None or built is None or at[1] == built[1].lineno) else None
    at = site or (made[:2] if made else at)
    names = ", ".join(f"`{m}`" for m in modules)
    why = (f"{summary(ev)}: the optimizer has a group for {names}, whose parameters were "
           f"frozen (requires_grad=False) from its first step to the end, while its other "
           f"groups trained.")
    hint = (f"Freeze only what should stay fixed, or unfreeze {names} before building the "
            f"optimizer.")
    found = claim(ev, CATEGORY, why, hint, at, remedy)
    module = made[2] if made else ", ".join(modules)
    kind = "attribute" if "." in module else "local"
    return replace(found, culprit=places.culprit(module, kind, at[0] if at else None,
                                                 at[1] if at else None, role="made"))


def _frozen_site(ev: NoGrad, modules: list[str]) -> tuple[str, int] | None:
    """Where a replay saw the groups' parameters frozen: the frame of that stack whose line
    names the model (`transfer.freeze(model, names)` rather than the helper's loop)."""
    if ev.trace is None:
        return None
    roots = {steps(m)[0] for m in modules}
    for key in sorted(ev.frozen):
        frame = places.naming(ev.trace.frozen_by_id(key), roots)
        if frame is not None:
            return frame.file, frame.line
    return None


def _built_frozen(modules: list[str]) -> tuple[str, int, str] | None:
    """Frozen by no statement of the user's (the flags came with the layer:
    `nn.Embedding.from_pretrained(...)` freezes by default): the one assignment of the
    project that makes the module (`self.item_emb = ...` in the model's class)."""
    if len(modules) != 1:
        return None
    last = steps(modules[0])[-1]
    if not last.startswith("."):
        return None
    name = f"self{last}"
    found = [(file, line, name) for file in project_files()
             if (line := _assigned_line(file, name)) is not None]
    return found[0] if len(found) == 1 else None


def _made_before(file: str, built: ast.stmt, modules: list[str]) -> int | None:
    """The last statement before the optimizer, in its function, that made the model the
    groups belong to (`model = torch.load(...)` restores the frozen flags with it)."""
    tree = reading.parse(file)
    if tree is None:
        return None
    scope = reading.enclosing_function(tree, built) or tree
    roots = {root(m) for m in modules}
    made = [s.lineno for s in reading.statements(scope) if s.lineno < built.lineno
            and any(reading.text(t) in roots for t in reading.targets(s))]
    return made[-1] if made else None


def _assigned_line(file: str, name: str) -> int | None:
    """The line where `name` is assigned in `file` (the first such statement)."""
    tree = reading.parse(file)
    if tree is None:
        return None
    lines = [n.lineno for n in ast.walk(tree) if isinstance(n, (ast.Assign, ast.AnnAssign))
             and any(reading.text(t) == name for t in reading.targets(n))]
    return min(lines) if lines else None


def _add_to_optimizer(file: str, stmt: ast.stmt, arg: ast.expr, owner: str,
                      whole: bool) -> Remedy:
    """The optimizer's parameter argument with `owner` added: another element of a list
    written out, another group of a list of groups, else a list of both."""
    added = f"*{owner}.parameters()" if whole else owner
    if isinstance(arg, (ast.List, ast.Tuple)) and arg.elts and all(
            isinstance(e, ast.Dict) for e in arg.elts):
        added = f'{{"params": {f"{owner}.parameters()" if whole else f"[{owner}]"}}}'
        text = f"[{', '.join(reading.segment(file, e) for e in arg.elts)}, {added}]"
    elif isinstance(arg, ast.List):
        text = f"[{', '.join(reading.segment(file, e) for e in arg.elts)}, {added}]"
    else:
        text = f"[*{reading.segment(file, arg)}, {added}]"
    return Remedy("optimizer-params", f"hand {owner} to the optimizer as well", file,
                  stmt.lineno, (replace_node(file, arg, text),))


def _unfrozen_by_attribute(ev: NoGrad) -> Claim | None:
    """Parameters handed to the optimizer stay frozen where the code meant to unfreeze them:
    `module.requires_grad = True` sets a plain attribute of the module, and
    `p.requires_grad_ = True` hides the method; neither changes a flag. The assignments are
    made calls (`X.requires_grad_(True)`, right for a module and a tensor alike)."""
    parts = {step for name in ev.missing for step in steps(name) if step.startswith(".")}
    found: list[tuple[str, ast.Assign, ast.Attribute]] = []
    for file in dict.fromkeys([*ev.files, *project_files()]):
        tree = reading.parse(file)
        for node in ast.walk(tree) if tree is not None else ():
            if not isinstance(node, ast.Assign) or len(node.targets) != 1:
                continue
            target = node.targets[0]
            if not isinstance(target, ast.Attribute) or target.attr not in (
                    "requires_grad", "requires_grad_"):
                continue
            path = [s for s in steps(reading.text(target.value)) if s.startswith(".")]
            # `requires_grad_` assigned is never right; `requires_grad` only on a module
            # on the starved parameters' path (`model.encoder.convs[-1]`).
            if target.attr == "requires_grad_" or path and path[-1] in parts:
                found.append((file, node, target))
    if not found:
        return None
    file, first, target = found[0]
    remedy = Remedy("unfreeze", "call requires_grad_() instead of assigning an attribute",
                    file, first.lineno, tuple(
                        replace_node(f, n, f"{reading.text(t.value)}.requires_grad_("
                                           f"{reading.segment(f, n.value)})")
                        for f, n, t in found))
    owner = reading.text(target.value) if target.attr == "requires_grad" else None
    why = (f"{summary(ev)}: they are frozen, and the statement meant to unfreeze them "
           f"(`{reading.line_text(file, first.lineno).strip()}`) assigns a plain attribute, "
           f"which changes no tensor's requires_grad.")
    hint = "Call `requires_grad_(True)` on the module or the parameters."
    found_claim = claim(ev, CATEGORY, why, hint, (file, first.lineno), remedy)
    if owner is not None and found_claim.culprit is not None:
        found_claim = replace(found_claim, culprit=replace(found_claim.culprit,
                                                           expression=owner))
    return found_claim


def _as_held_there(arg: ast.expr, ev: NoGrad, file: str, stmt: ast.stmt
                   ) -> tuple[ast.expr, str] | None:
    """The module the optimizer took every parameter of (`ema` in `AdamW(ema.parameters())`,
    all starved), and the trained module it stands for (its copy, the same parameter names
    below it) under the name it has where the optimizer is built: the loop knows them as
    `state.ema` and `state.denoiser`, the builder as `ema` and `denoiser`."""
    modules = _parameter_receivers(arg)
    pair = _paired(ev)
    if len(modules) != 1 or len(ev.missing) != ev.total or pair is None:
        return None
    written = [p.lstrip(".") for p in steps(reading.text(modules[0]))]
    held, trained = (steps(n) for n in pair)
    cut = len(held) - len(written)
    if cut < 0 or [p.lstrip(".") for p in held[cut:]] != written or trained[:cut] != held[:cut]:
        return None
    name = "".join(trained[cut:]).lstrip(".")
    tree = reading.parse(file)
    scope = (reading.enclosing_function(tree, stmt) or tree) if tree is not None else None
    first = steps(name)[0] if name and name[0] not in "[(" else ""
    if scope is None or not first or not (reading.stores(scope, first) or first in (
            reading.parameters(scope) if isinstance(scope, ast.FunctionDef) else ())):
        return None  # not a name that scope has
    return modules[0], name


def _paired(ev: NoGrad) -> tuple[str, str] | None:
    """The starved module and the trained one that mirror each other, parameter for
    parameter (a deep copy and its original): the one pair of prefixes that the longest
    common tails of their parameter names leave."""
    pairs = set()
    for m in ev.missing[:200]:
        a = steps(m)
        size, b = max(((_common_tail(a, steps(r)), steps(r)) for r in ev.reached_outside[:200]),
                      default=(0, []), key=lambda x: x[0])
        if size < 1 or size >= min(len(a), len(b)):
            return None
        pairs.add(("".join(a[:-size]), "".join(b[:-size])))
    return pairs.pop() if len(pairs) == 1 else None


def _replacing(stmt: ast.stmt, nodes: list[ast.expr], text: str) -> str:
    """The statement with some of its expressions written anew."""
    where = {(n.lineno, n.col_offset, n.end_lineno, n.end_col_offset) for n in nodes}
    new = ast.parse(text, mode="eval").body

    class Swap(ast.NodeTransformer):
        def visit(self, n: ast.AST) -> ast.AST:
            if isinstance(n, ast.expr) and (n.lineno, n.col_offset, n.end_lineno,
                                            n.end_col_offset) in where:
                return new
            found: ast.AST = super().visit(n)
            return found

    return ast.unparse(Swap().visit(copy.deepcopy(stmt)))


def _common_tail(a: list[str], b: list[str]) -> int:
    return sum(1 for _ in itertools.takewhile(lambda x: x[0] == x[1],
                                              zip(reversed(a), reversed(b))))


def _parameter_receivers(arg: ast.expr) -> list[ast.expr]:
    return [n.func.value for n in ast.walk(arg) if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute) and n.func.attr in _PARAMETER_METHODS]


def _holds_module_of(arg: ast.expr, trained: str) -> bool:
    """Did the optimizer take the parameters of `trained` or of a module holding it?
    `model.parameters()` holds `model.fc`; `model.head.parameters()` does not hold
    `model.encoder`. Without a `.parameters()` call to read, the same root will do."""
    modules = [reading.text(m) for m in _parameter_receivers(arg)]
    if not modules:
        return root(trained) in {root(reading.text(n)) for n in ast.walk(arg)
                                 if isinstance(n, (ast.Name, ast.Attribute))}
    path = steps(trained)
    return any(steps(m) == path[:len(steps(m))] for m in modules)


_PARAMETER_METHODS = ("parameters", "named_parameters")


def _replaced_in_method(rebuilt: ast.stmt, new: list[str], files: list[str]
                        ) -> tuple[str, int, str] | None:
    """`model.set_size(...)` after the optimizer, where the parameters the loss trains
    outside any optimizer are attributes of `model` itself that a method of that name assigns
    (`self.pos_embed = ...`): that assignment, in whichever of the user's files defines it."""
    call = rebuilt.value if isinstance(rebuilt, ast.Expr) else None
    if not isinstance(call, ast.Call) or not new:
        return None
    parts = [steps(n) for n in new]
    attributes = {p[-1] for p in parts}
    if len(attributes) != 1:
        return None  # several kinds of parameters: the module rebuilt names them better
    method = reading.text(call.func).rsplit(".", 1)[-1]
    for file in dict.fromkeys([*files, *project_files()]):
        tree = reading.parse(file)
        for node in ast.walk(tree) if tree is not None else ():
            if not isinstance(node, ast.FunctionDef) or node.name != method:
                continue
            # `self.pos_embed = ...` in the model's method, `lif.threshold = ...` in a
            # function walking the model's layers.
            assigned = [(s, reading.text(t)) for s in reading.statements(node)
                        for t in reading.targets(s) if isinstance(t, ast.Attribute)
                        and f".{t.attr}" in attributes]
            if len(assigned) == 1:
                stmt, target = assigned[0]
                return file, stmt.lineno, target
    return None


def _rebuilt_in_caller(ev: NoGrad, file: str, built: ast.stmt, name: str
                       ) -> tuple[str, ast.stmt, Remedy | None] | None:
    """`net, optimizer = build()` in the training function, then `calibrate(net)`: the
    optimizer was built in a helper, the model changed after the helper returned. The
    change is found in the function running the steps, after the call to the helper, and a
    fresh optimizer is built right after it, its arguments written as that function can
    (the helper's parameters become the arguments it was called with, or their defaults)."""
    tree = reading.parse(file)
    helper = reading.enclosing_function(tree, built) if tree is not None else None
    if not isinstance(helper, ast.FunctionDef):
        return None
    for frame in ev.frames:
        scope = frame.scope
        if scope is None or scope is helper:
            continue
        calls = [st for st in reading.statements(scope) if not reading.is_compound(st) and any(
            isinstance(c, ast.Call) and reading.text(c.func).rsplit(".", 1)[-1] == helper.name
            for c in ast.walk(st))]
        if not calls:
            continue
        rebuilt = _rebuilt_after(frame.file, calls[0], name, ev)
        if rebuilt is None:
            continue
        call = next(c for c in ast.walk(calls[0]) if isinstance(c, ast.Call)
                    and reading.text(c.func).rsplit(".", 1)[-1] == helper.name)
        statement = _as_called(built, helper, call)
        remedy = _fresh_after(frame.file, rebuilt, statement) if statement else None
        return frame.file, rebuilt, remedy
    return None


def _as_called(built: ast.stmt, helper: ast.FunctionDef, call: ast.Call) -> str | None:
    """The helper's statement with its parameters replaced by what this call passes (or
    their defaults); None when one has neither."""
    names = set(reading.parameters(helper))
    given = reading.bound_arguments(helper, call, defaults=True)
    if any(isinstance(n, ast.Name) and n.id in names and n.id not in given
           for n in ast.walk(built)):
        return None

    class Bind(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            return copy.deepcopy(given[node.id]) if node.id in names else node

    return ast.unparse(Bind().visit(copy.deepcopy(built)))


def _fresh_after(file: str, rebuilt: ast.stmt, statement: str) -> Remedy:
    """`statement` (the optimizer's construction) again right after the change."""
    return Remedy("optimizer-params", "build a fresh optimizer over the changed model",
                  file, rebuilt.lineno,
                  (Insert(file, (rebuilt.end_lineno or rebuilt.lineno) + 1, statement,
                          reading.indent_of(file, rebuilt.lineno)),))


def common_module(names: list[str]) -> str:
    """The innermost module holding every one of these parameters (`model.fc` for its
    weight and bias); a re-parametrisation's `parametrizations.weight.original0` belongs
    to the layer it re-parametrises."""
    paths = []
    for name in names:
        parts = steps(name)
        cut = parts.index(".parametrizations") if ".parametrizations" in parts else len(parts) - 1
        paths.append(parts[:cut])
    common: list[str] = []
    for column in zip(*paths):
        if len(set(column)) != 1:
            break
        common.append(column[0])
    return "".join(common)


def root(expression: str) -> str:
    parts = steps(expression)
    return "".join(parts[:2]) if parts and parts[0] == "self" and len(parts) > 1 else (
        parts[0] if parts else "")


_HARMLESS = ("train", "eval", "to", "cuda", "cpu", "float", "double", "half", "zero_grad",
             "requires_grad_", "state_dict", "parameters", "named_parameters", "register_buffer")


def _between(file: str, built: ast.stmt, ev: NoGrad) -> list[ast.stmt]:
    """The statements of the optimizer's function after it was built, before the backward
    (when that is in the same file)."""
    tree = reading.parse(file)
    record = last_backward(ev)
    if tree is None or record is None or record.site is None:
        return []
    scope = reading.enclosing_function(tree, built) or tree
    # Where the optimizer's own function was when the backward ran: the call into the
    # training function (`train(...)` after `rnn = CharRNN(...)`), not the backward's line,
    # which may sit in a function written above both.
    here = next((f for f in record.frames if f.file == file and f.scope is not None
                 and (f.scope is scope or isinstance(scope, ast.Module)
                      and f.function == "<module>")), None)
    end = here.line if here is not None else None
    return [s for s in reading.statements(scope)
            if built.lineno < s.lineno and (end is None or s.lineno < end)]


def _rebuilt_after(file: str, built: ast.stmt, name: str, ev: NoGrad) -> ast.stmt | None:
    """The last statement after the optimizer was built, before the backward, that gave
    `name` new parameters: rebinding it or one of its attributes (`model.fc = nn.Linear(...)`,
    `model = make_model()`), or a call on it that re-parametrises it
    (`generator.apply_weight_norm()`, `weight_norm(model.conv)`)."""
    found = None
    for stmt in _between(file, built, ev):
        if reading.is_compound(stmt):
            continue
        stored = [reading.text(t) for t in reading.targets(stmt)]
        if any(root(t) == name for t in stored):
            found = stmt
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            call = stmt.value
            method = call.func.attr if isinstance(call.func, ast.Attribute) else ""
            on = root(reading.text(call.func.value)) if isinstance(call.func, ast.Attribute) \
                else ""
            args = {root(reading.text(a)) for a in call.args}
            if (on == name and method not in _HARMLESS) or name in args:
                found = stmt
    return found


def _made_from(file: str, built: ast.stmt, name: str, source: str, ev: NoGrad
               ) -> ast.stmt | None:
    """The statement after the optimizer, before the backward, that made the trained module
    out of the one the optimizer holds (`model = Classifier(copy.deepcopy(encoder))`): where
    the two parted. A copy made before the optimizer leaves the optimizer as the mistake."""
    made = [stmt for stmt in _between(file, built, ev)
            if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None
            and any(root(reading.text(t)) == name for t in reading.targets(stmt))
            and any(reading.text(n) == source for n in ast.walk(stmt.value)
                    if isinstance(n, (ast.Name, ast.Attribute)))]
    return made[-1] if made else None


def _named_at(file: str, stmt: ast.stmt, name: str) -> bool:
    """Can the statement's function (or the module) read `name`?"""
    tree = reading.parse(file)
    if tree is None:
        return False
    first = steps(name)[0] if name else ""
    scope = reading.enclosing_function(tree, stmt)
    if first == "self" and scope is not None:
        # `self.local` that only another method of the class makes (`local_update()`) does
        # not exist yet where `__init__` builds the optimizer.
        target = root(name)
        owner = reading.class_of(file, scope)
        elsewhere = [m for m in (owner.body if owner is not None else [])
                     if isinstance(m, ast.FunctionDef) and m is not scope
                     and any(root(reading.text(t)) == target for s in reading.statements(m)
                             for t in reading.targets(s))]
        here = any(root(reading.text(t)) == target for s in reading.statements(scope)
                   if s.lineno < stmt.lineno for t in reading.targets(s))
        return here or not elsewhere
    return bool(reading.stores(tree, first)) or scope is not None and (
        bool(reading.stores(scope, first)) or first in reading.parameters(scope))


def _made_in_step(file: str, name: str, source: str, ev: NoGrad) -> ast.stmt | None:
    """The statement before the backward, in the function that calls it, that made the
    trained module out of the one the optimizer holds."""
    record = last_backward(ev)
    site = record.site if record is not None else None
    scope = site.scope if site is not None and site.file == file else None
    if scope is None or site is None:
        return None
    made = [stmt for stmt in reading.statements(scope)
            if stmt.lineno < site.line and isinstance(stmt, ast.Assign)
            and any(root(reading.text(t)) == name for t in reading.targets(stmt))
            and any(reading.text(n) == source for n in ast.walk(stmt.value)
                    if isinstance(n, (ast.Name, ast.Attribute)))]
    return made[-1] if made else None


def _build_after(file: str, built: ast.stmt, rebuilt: ast.stmt) -> Remedy | None:
    """Where the model is changed in the same block as the optimizer (or in a statement of
    that block: `if config.weight_norm: ...`), that change moves before the optimizer is
    built; where it happens again each round of a loop (a model per fold), a fresh optimizer
    is built right after it."""
    tree = reading.parse(file)
    if tree is None:
        return None
    holder = reading.sibling_holding(tree, built, rebuilt)
    if holder is not None and not isinstance(holder, (ast.For, ast.While)):
        return Remedy("optimizer-params", "change the model before building the optimizer",
                      file, built.lineno,
                      (Move(file, holder.lineno, holder.end_lineno or holder.lineno,
                            built.lineno, reading.indent_of(file, built.lineno)),))
    return _fresh_after(file, rebuilt, reading.segment(file, built))


def _rebuilt_in_method(file: str, built: ast.stmt, name: str
                       ) -> tuple[str, ast.stmt, str] | None:
    """`self.model = build(...)` in another method of the class whose `__init__` built the
    optimizer (a `setup()` called after construction), or `trainer.student = prune(...)`
    in a function elsewhere that is handed the object (a callback): the file, the statement,
    and the name the object has there."""
    tree = reading.parse(file)
    function = reading.enclosing_function(tree, built) if tree is not None else None
    owner = reading.class_of(file, function) if function is not None else None
    if owner is None or not name.startswith("self."):
        return None
    for method in (m for m in owner.body if isinstance(m, ast.FunctionDef) and m is not function):
        for stmt in reading.statements(method):
            if any(root(reading.text(t)) == name for t in reading.targets(stmt)):
                return file, stmt, "self"
    attribute = name.split(".", 1)[1]
    for other in project_files():
        found = reading.parse(other)
        for node in ast.walk(found) if found is not None else ():
            if not isinstance(node, ast.FunctionDef) or node is function:
                continue
            for stmt in reading.statements(node):
                for t in reading.targets(stmt):
                    if isinstance(t, ast.Attribute) and t.attr == attribute and isinstance(
                            t.value, ast.Name) and t.value.id != "self":
                        return other, stmt, t.value.id
    return None


def _build_in_method(file: str, built: ast.stmt, rebuilt: tuple[str, ast.stmt, str],
                     optimizer: object) -> Remedy | None:
    """A fresh optimizer right after the model is rebuilt, written for the function that
    rebuilds it."""
    where, stmt, holder = rebuilt
    statement = _written_there(file, built, built, holder, optimizer)
    if statement is None:
        return None
    return Remedy("optimizer-params", "build a fresh optimizer over the rebuilt model", where,
                  stmt.lineno, (Insert(where, (stmt.end_lineno or stmt.lineno) + 1, statement,
                                       reading.indent_of(where, stmt.lineno)),))


def _written_there(file: str, built: ast.stmt, statement: ast.stmt, holder: str,
                   optimizer: object) -> str | None:
    """The optimizer's construction as another function can write it: `self` is the object
    as that function names it (`holder`); the constructor's arguments it kept on the object
    are read from there (`cfg` -> `self.cfg`); a hyperparameter handed in and not kept
    (`lr=lr`) is the value the optimizer holds. None when some name cannot be written."""
    tree = reading.parse(file)
    function = reading.enclosing_function(tree, built) if tree is not None else None
    if function is None:
        return None
    kept = {reading.text(s.value) for s in reading.statements(function)
            if isinstance(s, ast.Assign) and isinstance(s.value, ast.Name)
            and any(reading.text(t) == f"self.{s.value.id}" for t in s.targets)}
    arguments = set(reading.parameters(function)) - {"self"}
    defaults = getattr(optimizer, "defaults", None) or {}
    unwritable = False

    class Rewrite(ast.NodeTransformer):
        def visit_keyword(self, node: ast.keyword) -> ast.AST:
            read = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)} & arguments
            value = defaults.get(node.arg or "")
            if read - kept and isinstance(value, (int, float)) and not isinstance(value, bool):
                node.value = ast.Constant(value)
                return node
            return self.generic_visit(node)

        def visit_Name(self, node: ast.Name) -> ast.AST:
            nonlocal unwritable
            if node.id in arguments:
                unwritable = unwritable or node.id not in kept
                return ast.Attribute(ast.Name(holder, ast.Load()), node.id, node.ctx)
            return ast.Name(holder, node.ctx) if node.id == "self" else node

    text = ast.unparse(Rewrite().visit(copy.deepcopy(statement)))
    return None if unwritable else text
