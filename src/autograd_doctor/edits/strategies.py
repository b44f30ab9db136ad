"""The fix vocabulary: every strategy id a fix may carry, what it does, and the builders
that more than one cause (or a lint rule) uses. Torch-free.

A strategy id names the kind of edit, not the cause: `detach-at-boundary` fixes a carried
RNN state whether it made backward fail or made the graph grow.
"""

from __future__ import annotations

import ast
import copy
import textwrap
from collections.abc import Sequence

from autograd_doctor.edits.forms import atom, detached
from autograd_doctor.edits.operations import (
    Delete,
    Insert,
    Move,
    Operation,
    Remedy,
    Replace,
    replace_node,
)
from autograd_doctor.source import patterns, reading
from autograd_doctor.source.files import project_files

STRATEGIES: dict[str, str] = {
    "detach-at-boundary": "detach a carried tensor at the top of each iteration (truncated "
                          "backpropagation through time)",
    "detach-on-store": "store the value without its graph (.detach() where it is stored, or "
                       "the update under torch.no_grad())",
    "reset-state": "reset a state kept between calls at the start of each sequence, with the "
                   "reset the code already has",
    "clear-after-step": "empty a per-update buffer or total after each update, so the next "
                        "one starts afresh",
    "detach-input": "use .detach() on the input where a loss must not train what produced it",
    "sum-losses": "add two losses over one forward and call backward once",
    "drop-retain-graph": "drop retain_graph=True where nothing backwards the graph again "
                         "(lint's autofix)",
    "retain-graph-first-call": "keep the graph for a second backward with retain_graph=True on "
                               "the first call only",
    "create-graph": "make a gradient differentiable with create_graph=True (a gradient "
                    "penalty)",
    "recompute-after-step": "compute a value again after the optimizer step that changed what "
                            "produced it",
    "recompute-in-loop": "compute a value inside the loop, once per iteration, instead of "
                         "once before it",
    "remove-threshold": "compute the loss on the scores a hard threshold was taken from (a "
                        "soft mask), so gradients reach the model",
    "straight-through-estimator": "keep a hard step's forward values (a threshold, a "
                                  "rounding) and pass gradients through it to its input",
    "non-reentrant-checkpoint": "checkpoint with use_reentrant=False, so the checkpointed "
                                "layers learn whether or not their input requires grad",
    "recompute-in-closure": "compute the loss inside the closure that backwards it",
    "remove-duplicate-backward": "remove a second backward call on the same loss",
    "accumulate-item": "accumulate a running total as a Python number with .item()",
    "read-before-backward": "read a saved tensor before the backward call that frees it",
    "reorder-step": "step the optimizer after every backward that needs the weights it "
                    "changes",
    "out-of-place": "write an in-place operation out of place",
    "write-before-read": "make an in-place update of a parameter before the first use that "
                         "saves it for backward, not after it",
    "inplace-false": "build an activation with inplace=False",
    "clone-saved": "clone a tensor where one use reads it, so that an in-place write made "
                   "elsewhere (by a layer, on its own weight) leaves the saved value intact",
    "move-out-of-no-grad": "compute what the loss needs outside torch.no_grad()",
    "use-no-grad-context": "replace a global torch.set_grad_enabled(False) by a with "
                           "torch.no_grad(): block, so grad mode comes back on",
    "remove-detach": "remove a .detach() or .data between the model and the loss",
    "keep-in-torch": "keep a computation in torch instead of leaving it (.item(), NumPy) and "
                     "re-wrapping the result",
    "unfreeze": "let the parameters handed to the optimizer require gradients",
    "backward-original-loss": "backward the loss itself, not a detached copy",
    "optimizer-params": "build the optimizer over the parameters of the model the loss comes "
                        "from",
}


def detach_statement(scope: ast.AST, expression: str, structure: str) -> str:
    """`h = h.detach()` in the form the value's structure needs, guarded when the name may
    hold None (an RNN state before its first step)."""
    statement = f"{expression} = {detached(expression, structure)}"
    # State declared `nonlocal` / `global` starts wherever it was made, None as often as not.
    outer = any(isinstance(n, (ast.Nonlocal, ast.Global)) and expression in n.names
                for n in reading.own_nodes(scope))
    if outer or reading.may_be_none(scope, expression) or _starts_none(expression):
        return f"if {expression} is not None:\n    {statement}"
    return statement


def _starts_none(expression: str) -> bool:
    """`model.h` whose class starts it as None (`self.h = None` in `__init__`)."""
    if "." not in expression:
        return False
    attribute = "self." + expression.rsplit(".", 1)[-1]
    return any((tree := reading.parse(file)) is not None and reading.assigns_none(tree, attribute)
               for file in project_files())


def detach_at_boundary(file: str, scope: reading.Scope, loop: reading.Loop | None,
                       carried: list[tuple[str, str]],
                       release: tuple[str, ast.stmt] | None = None) -> Remedy | None:
    """`h = h.detach()` before the loop body (or the function body) first reads it.
    `carried` holds (expression, structure) pairs. `release` is the backward statement
    (file, statement) whose retain_graph=True kept every step's graph: it is dropped too."""
    body = loop.body if loop is not None else getattr(scope, "body", [])
    if not body:
        return None
    exprs = [e for e, _ in carried]
    uses = [reading.first_use(body, scope, e) for e in exprs]
    found = [u for u in uses if u is not None]
    target = min(found, key=lambda s: s.lineno) if found else body[0]
    indent = reading.indent_of(file, target.lineno)
    lines = [detach_statement(scope, e, structure) for e, structure in carried]
    where = "each iteration" if loop is not None else "each call"
    return _released(Remedy("detach-at-boundary",
                            f"detach {' and '.join(exprs)} at the top of {where}", file,
                            target.lineno, (Insert(file, target.lineno, "\n".join(lines),
                                                   indent),)),
                     release, f"detach {' and '.join(exprs)} each step")


def _released(remedy: Remedy, release: tuple[str, ast.stmt] | None, short: str) -> Remedy:
    """The remedy, plus dropping retain_graph=True from the backward call that kept every
    step's graph, when there is one."""
    call = patterns.keyword_call(release[1], "retain_graph") if release else None
    if release is None or call is None:
        return remedy
    return Remedy(remedy.strategy, f"{short} and drop retain_graph=True", remedy.file,
                  remedy.line, remedy.operations + (with_keywords(
                      release[0], call, drop=("retain_graph",)),))


def with_keywords(file: str, call: ast.Call, add: tuple[str, ...] = (),
                  drop: tuple[str, ...] = ()) -> Replace:
    """The call rewritten with keyword arguments added (`"retain_graph=True"`) or dropped
    (`"retain_graph"`), everything else as the user wrote it."""
    if not drop:  # keep the user's layout (a call over several lines stays so)
        text = reading.segment(file, call).rstrip()[:-1].rstrip().rstrip(",")
        empty = not call.args and not call.keywords
        return replace_node(file, call, f"{text}{'' if empty else ', '}{', '.join(add)})")
    args = [reading.segment(file, a) for a in call.args]
    args += [reading.segment(file, k) for k in call.keywords if k.arg not in drop]
    return replace_node(file, call, f"{reading.segment(file, call.func)}"
                                    f"({', '.join([*args, *add])})")


def retain_graph(file: str, stmt: ast.stmt, why: str) -> Remedy | None:
    """`retain_graph=True` on the backward call of `stmt`: the one remedy that keeps every
    gradient path and every read as written, at the cost of holding the graph until its
    last reference goes (verification rejects it where that makes the graph grow)."""
    call = patterns.backward_call(stmt)
    if call is None or any(k.arg == "retain_graph" for k in call.keywords):
        return None
    return Remedy(strategy="retain-graph-first-call", description=why, file=file,
                  line=call.lineno, operations=(with_keywords(file, call,
                                                              add=("retain_graph=True",)),))


def keep_in_torch(sites: Sequence[tuple[str, ast.AST, ast.stmt]],
                  stack: bool = False, left: Sequence[tuple[str, ast.stmt]] = ()
                  ) -> Remedy | None:
    """A round trip out of torch (NumPy, `.item()`, `float`) written in torch, from where the
    value left (`sites`: the frames there, innermost first) to where it came back: the rest
    of a helper that returns it, the call that re-wraps the result, and the user functions
    the value was handed to. Verification decides whether the translation runs and trains;
    `stack` is the variant for a value rebuilt from a list (`torch.stack(preds)`); `left`,
    the statements where it left torch before it came back."""
    file, scope, first = sites[0]
    todo: list[tuple[str, ast.stmt]] = [(file, first), *left]
    # Left torch earlier in the same function that re-wraps it: what it computed in
    # between (in NumPy) is part of the trip.
    starts = [stmt.lineno for f, stmt in left if f == file and isinstance(
        scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and reading.inside(stmt, scope)]
    if starts:
        todo += [(file, s) for s in _simple(scope) if min(starts) < s.lineno < first.lineno]
    if isinstance(scope, ast.FunctionDef) and len(sites) > 1 and _returns(scope) \
            and not any(patterns.backward_call(s) for s in _simple(scope)):
        todo += [(file, s) for s in _simple(scope) if s.lineno > first.lineno]
        caller_file, _, caller = sites[1]
        todo.append((caller_file, caller))
    ops: list[Operation] = []
    done: set[tuple[str, int]] = set()
    needs_torch: set[str] = set()
    while todo:
        where, stmt = todo.pop(0)
        if (where, stmt.lineno) in done:
            continue
        done.add((where, stmt.lineno))
        new = patterns.in_torch(stmt, stack)
        if new is None:
            continue
        if reading.is_compound(stmt):  # `for a, b in zip(p.tolist(), t.tolist()):` the
            # header changes; its body is translated statement by statement
            ops += [replace_node(where, old, ast.unparse(changed)) for field in ("iter", "test")
                    if isinstance(old := getattr(stmt, field, None), ast.expr)
                    and isinstance(changed := getattr(new, field, None), ast.expr)
                    and ast.dump(old) != ast.dump(changed)]
        else:
            ops.append(replace_node(where, stmt, ast.unparse(new)))
        needs_torch.add(where)
        for call in (n for n in ast.walk(stmt) if isinstance(n, ast.Call)):
            found = reading.function_called(where, call)
            if found is not None and _returns(found[1]) and not any(
                    patterns.backward_call(s) for s in _simple(found[1])):
                todo += [(found[0], s) for s in _simple(found[1])]
        names = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name)}
        todo += [(where, c) for c in reading.module_constants(where, names)]
    if not ops:
        return None
    for where in sorted(needs_torch):
        tree = reading.parse(where)
        if tree is not None and not any(isinstance(n, ast.Import) and any(
                a.name == "torch" and a.asname is None for a in n.names) for n in tree.body):
            ops.append(Insert(where, _first_code_line(tree), "import torch", ""))
    # The fix is shown at the file where most of it happens (the helper, not its caller).
    main = max(ops, key=lambda o: sum(p.file == o.file for p in ops))
    assert isinstance(main, Replace)
    return Remedy("keep-in-torch", "compute the value in torch all the way to the loss",
                  main.file, main.line, tuple(ops))


def _returns(scope: ast.FunctionDef) -> bool:
    return any(isinstance(n, ast.Return) and n.value is not None for n in ast.walk(scope))


def _simple(scope: ast.AST) -> list[ast.stmt]:
    return [n for n in ast.walk(scope) if isinstance(n, ast.stmt) and n is not scope
            and not reading.is_compound(n) and not isinstance(
                n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]


def _first_code_line(tree: ast.Module) -> int:
    """The line of the first statement after a module docstring and `__future__` imports."""
    for node in tree.body:
        docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        future = isinstance(node, ast.ImportFrom) and node.module == "__future__"
        if not docstring and not future:
            return node.lineno
    return (tree.body[-1].end_lineno or 0) + 1 if tree.body else 1


def detach_stored(file: str, store: ast.stmt, names: list[str], structure: str = "T"
                  ) -> Remedy | None:
    """`self.hidden = hn.detach()`; after a tuple assignment (`self.m, self.s = m, s`), a
    line per stored name that detaches it."""
    value = reading.value_span(store)
    if value is None:
        return None
    operation: Insert | Replace
    if len(reading.targets(store)) > 1:
        after = (store.end_lineno or store.lineno) + 1
        operation = Insert(file, after, "\n".join(f"{n} = {detached(n, structure)}"
                                                  for n in names),
                           reading.indent_of(file, store.lineno))
    else:
        operation = replace_node(file, value, detached_value(file, value, structure))
    return Remedy("detach-on-store", f"store {' and '.join(names)} without the graph", file,
                  store.lineno, (operation,))


def detached_value(file: str, value: ast.expr, structure: str = "T") -> str:
    """`value` written without its graph; guarded when it is a name the file also sets to
    None (`self.prev = self.curr`, where `curr` starts as None)."""
    text = reading.segment(file, value)
    form = detached(text, structure)
    tree = reading.parse(file)
    if tree is None or not isinstance(value, (ast.Name, ast.Attribute)):
        return form
    if reading.assigns_none(tree, reading.text(value)):
        return f"None if {text} is None else {form}"
    return form


def detach_in_update(file: str, store: ast.stmt, expression: str, structure: str = "T",
                     release: tuple[str, ast.stmt] | None = None) -> Remedy | None:
    """`memory = f(memory.detach(), new)`: cut the carried value where it feeds its own
    update, so the stored value keeps this step's graph (what produced `new` still learns
    through it at the next step) but no older one."""
    value = reading.value_span(store)
    if value is None:
        return None
    reads = [n for n in ast.walk(value) if isinstance(n, (ast.Name, ast.Attribute))
             and isinstance(n.ctx, ast.Load) and reading.text(n) == expression]
    if not reads:
        return None
    operations = tuple(replace_node(file, n, detached(reading.segment(file, n), structure))
                       for n in reads)
    return _released(Remedy("detach-at-boundary",
                            f"detach the previous {expression} where it feeds its own update",
                            file, store.lineno, operations),
                     release, f"detach the previous {expression} in its update")


def recompute_where_read(file: str, store: ast.stmt, written: str) -> Remedy | None:
    """`self.pos = self.pos_emb(torch.arange(n))` in `__init__`, read by `forward`: compute
    the value where each method reads it, so every call builds its own graph and the weights
    behind it keep learning. The values the expression takes from `__init__`'s own names
    (`n`) are kept on the object (`self.n = n`) for the methods to read."""
    tree = reading.parse(file)
    value = reading.value_span(store)
    targets = reading.targets(store)
    if tree is None or value is None or len(targets) != 1 or not written.startswith("self."):
        return None
    function = next((f for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef,
                                                                 ast.AsyncFunctionDef))
                     and any(s is store for s in ast.walk(f))), None)
    owner = reading.class_of(file, function) if function is not None else None
    if function is None or owner is None:
        return None
    own = {a.arg for a in function.args.args[1:] + function.args.kwonlyargs} | {
        n.id for n in ast.walk(function) if isinstance(n, ast.Name)
        and isinstance(n.ctx, ast.Store)}
    needed = sorted({n.id for n in ast.walk(value) if isinstance(n, ast.Name) and n.id in own})
    methods = [m for m in owner.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
    reads = [n for m in methods for n in ast.walk(m) if isinstance(n, ast.Attribute)
             and isinstance(n.ctx, ast.Load) and reading.text(n) == written]
    if not reads or any(any(r is n for n in ast.walk(function)) for r in reads):
        return None  # read where it is made too: not a value set up once for later calls
    for name in needed:  # `self.n` must be free, or already hold `n`
        kept = [s for m in methods for s in reading.stores(m, f"self.{name}")]
        if any(reading.text(reading.value_span(s) or s) != name for s in kept):
            return None

    class Rename(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            return ast.Attribute(ast.Name("self", ast.Load()), node.id, ast.Load()) \
                if node.id in needed else node

    # On a private copy: the parsed tree is shared and cached.
    expression = atom(ast.unparse(Rename().visit(copy.deepcopy(value))))
    indent = reading.indent_of(file, store.lineno)
    keep = [f"self.{n} = {n}" for n in needed
            if not any(reading.stores(m, f"self.{n}") for m in methods)]
    if not keep and function.body == [store]:
        keep = ["pass"]  # the method did nothing else (`on_epoch_start`): it stays, empty
    operations: list[Operation] = []
    local = written.rsplit(".", 1)[-1]
    for method in methods:
        mine = [r for r in reads if any(r is n for n in ast.walk(method))]
        if len(mine) > 1 and local not in {n.id for n in ast.walk(method)
                                           if isinstance(n, ast.Name)}:
            # Read several times in one call: computed once there, at its first read.
            first = reading.statement_at(method, mine[0].lineno)
            if first is not None:
                operations.append(Insert(file, first.lineno, f"{local} = {expression}",
                                         reading.indent_of(file, first.lineno)))
                operations += [replace_node(file, r, local) for r in mine]
                continue
        operations += [replace_node(file, r, expression) for r in mine]
    operations.append(Delete(file, store.lineno, store.end_lineno or store.lineno))
    if keep:
        operations.append(Insert(file, store.lineno, "\n".join(keep), indent))
    return Remedy("recompute-in-loop", f"compute {written} where it is read, in each call",
                  file, reads[0].lineno, tuple(operations))


def move_out_of_no_grad(file: str, block: ast.With, chain: Sequence[ast.stmt]) -> Remedy:
    """Take the statements on the loss's path out of a `with torch.no_grad():` block (the
    block goes when all of it is on the path)."""
    indent = reading.indent_of(file, block.lineno)
    ops: list[Operation]
    if len(chain) == len(block.body):
        # Everything in the block is on the loss's path: the block goes, its body stays.
        end = block.end_lineno or block.lineno
        body = textwrap.dedent("".join(reading.lines(file)[block.body[0].lineno - 1:end]))
        text = "".join(indent + line if line.strip() else line
                       for line in body.splitlines(keepends=True))
        last = reading.lines(file)[end - 1].rstrip("\n")
        ops = [Replace(file, block.lineno, 0, end, len(last), text.rstrip("\n"))]
    else:
        # Before the block, unless they read what the block computes (`feats` from the
        # frozen encoder): then after it.
        kept = [s for s in block.body if s not in chain]
        made = {reading.text(t) for s in kept for t in reading.targets(s)}
        after = any(made & reading.names_in(s) for s in chain)
        to = (block.end_lineno or block.lineno) + 1 if after else block.lineno
        ops = [Move(file, s.lineno, s.end_lineno or s.lineno, to, indent) for s in chain]
    names = ", ".join(sorted({reading.text(t) for s in chain for t in reading.targets(s)}))
    whole = len(chain) == len(block.body)
    description = (f"remove the `{reading.line_text(file, block.lineno)}` block (all of it "
                   f"feeds the loss)" if whole else
                   f"compute {names} outside the no_grad block")
    return Remedy(
        strategy="move-out-of-no-grad",
        description=description,
        file=file,
        line=block.lineno,
        operations=tuple(ops),
    )
