"""Evidence for a graph that grows every step: the growth the watch saw (capture.growth), and
the facts that decide the cause: whether backward keeps its graph (retain_graph=True) and
how the growing value is kept (appended to a list, updated as a running total or estimate,
or carried from step to step).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from autograd_doctor.capture.growth import Growth, reaches
from autograd_doctor.capture.tracer import made_at
from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.edits.operations import Remedy
from autograd_doctor.graph.walk import Node, inputs_of, is_accumulator, leaf_of, node_name, walk
from autograd_doctor.source import patterns, places, reading
from autograd_doctor.source.files import project_files

# How the growing value is kept (GrowthEvidence.storage).
LIST = "list"  # a list that gains a tensor with history per step
RUNNING_TOTAL = "running-total"  # `total += loss`, `ema = 0.9 * ema + 0.1 * x`
CARRIED = "carried"  # built on its previous value some other way (an RNN state)
HOPS = 32  # how far below the growing value its previous value is looked for


@dataclass
class GrowthEvidence:
    growth: Growth
    retained: bool  # the growing tensor is backwarded through with retain_graph=True
    storage: str
    update: tuple[str, ast.stmt] | None  # the running-total statement, when there is one
    placement: places.Placement | None
    written: str = ""  # the growing value as the updating statement writes it (`self.sum`)
    # The statement that keeps the carried value, and the name as written there: in the
    # watched scope, or (replay) where the value was made (`self.interest = ...` in the
    # model's forward for what the loop calls `model.interest`).
    store: tuple[str, ast.stmt, str] | None = None


def gather(growth: Growth) -> GrowthEvidence:
    placement = places.place(growth.frame, growth.expression)
    found = _update(growth, placement) if growth.kind == "chain" else None
    retained = growth.in_backward and growth.record.retained
    stores = (placement.stores_in_loop or placement.stores) if placement else []
    store = _entry_update(growth, placement) or (
        (placement.file, stores[-1], growth.expression) if placement and stores else
        _made_at(growth) if growth.kind == "chain" else None)
    if found is None and store is not None and growth.held is not None and \
            _weighted_recurrence(growth.held) is False:
        # Written however it is (a row update through `torch.where`), a value whose next
        # one is plain arithmetic on it, no weight applied, is a running estimate.
        found = store
    update = (found[0], found[1]) if found else None
    storage = LIST if growth.kind == "list" else RUNNING_TOTAL if update else CARRIED
    return GrowthEvidence(growth, retained, storage, update, placement,
                          found[2] if found else growth.expression, store)


def _entry_update(g: Growth, placement: places.Placement | None
                  ) -> tuple[str, ast.stmt, str] | None:
    """For entries of a container carried in the loop (`levels[region] =
    step(levels[region])`), the statement in the loop that builds an entry from one."""
    if g.kind != "chain" or g.element in ("", g.expression) or placement is None \
            or placement.loop is None:
        return None
    for stmt, value in reading.container_stores(placement.loop, g.expression):
        read = any(isinstance(n, ast.Subscript) and reading.text(n.value) == g.expression
                   for n in ast.walk(value))
        targets = [t for t in reading.targets(stmt) if isinstance(t, ast.Subscript)]
        if read and targets:
            return placement.file, stmt, reading.text(targets[0])
    return None


def entry_structure(ev: GrowthEvidence) -> str:
    """The structure of what the store writes: an entry's own, not its container's."""
    store = ev.store
    return ev.growth.structure if store is None or store[2] == ev.growth.expression else "T"


def _same_holder(g: Growth, written: str, file: str) -> bool:
    """Does `written` (`self.loss_totals` in the server's method) name the container the
    growing entry is in (`server.loss_totals`, as the watched frame sees it)?"""
    if written == g.expression:
        return True
    attr = g.expression.rsplit(".", 1)[-1] if "." in g.expression else ""
    return bool(attr) and written.endswith("." + attr) and (
        written.startswith("self.") or file != g.frame.file)


def _made_at(g: Growth) -> tuple[str, ast.stmt, str] | None:
    """The replay's record of where the growing value was made, when that statement stores
    it under the same attribute."""
    attribute = g.expression.rsplit(".", 1)[-1]
    for frame in made_at(g.held) if g.held is not None else ():
        stmt = frame.statement
        if stmt is None:
            continue
        for target in reading.targets(stmt):
            # `self.difficulty[idx] = ...` writes rows of the tensor held as `difficulty`
            if isinstance(target, ast.Subscript) and "[" not in g.expression:
                target = target.value
            text = reading.text(target)
            if text == g.expression or "." in text and "." in g.expression and \
                    text.rsplit(".", 1)[-1] == attribute:
                return frame.file, stmt, text
    return None


def _weighted_recurrence(held: Node) -> bool | None:
    """Is a weight applied on the way from the growing value back to its previous value
    (an RNN state, `tanh(W h + U x)`), rather than plain arithmetic on it (a running
    estimate, however it is written)? None when no previous value is found: the nearest
    node below of the same operation."""
    name = node_name(held)
    frontier, seen, previous = [held], {held}, None
    for _ in range(HOPS):
        following = []
        for node in frontier:
            for child in inputs_of(node):
                if child not in seen:
                    seen.add(child)
                    following.append(child)
                    if previous is None and node_name(child) == name:
                        previous = child
        if previous is not None or not following:
            break
        frontier = following
    if previous is None:
        return None
    below = set(walk([previous]))
    path = [n for n in walk([held], stop=below) if reaches(n, previous, hops=HOPS)]
    return any(is_accumulator(c) and bool(getattr(leaf_of(c), "requires_grad", False))
               for n in path for c in inputs_of(n))


def _update(g: Growth, placement: places.Placement | None
            ) -> tuple[str, ast.stmt, str] | None:
    """The statement that adds to the running value: in the frame's scope, its file, or,
    for a value held on an object (`meter.sum`, `history.total`), wherever the user's code
    updates that attribute (`self.sum += val`, in the class's own file)."""
    files = [g.frame.file] + [f for f in project_files() if f != g.frame.file]
    scopes: list[tuple[str, ast.AST]] = [(g.frame.file, placement.scope)] if placement else []
    scopes += [(f, tree) for f in files if (tree := reading.parse(f)) is not None]
    for name in dict.fromkeys(n for n in (g.element, g.expression) if n):
        attr = name.rsplit(".", 1)[-1] if "." in name else ""
        for file, scope in scopes:
            for stmt in (n for n in ast.walk(scope)
                         if isinstance(n, (ast.Assign, ast.AugAssign))):
                for target in reading.targets(stmt):
                    text = reading.text(target)
                    # `self.class_loss[name] += ...` updates each of the container's entries
                    entry = isinstance(target, ast.Subscript) and name == g.element != \
                        g.expression and (name.startswith(reading.text(target.value) + "[")
                                          or _same_holder(g, reading.text(target.value), file))
                    # `self.loss_ema[k] = ...` writes into the tensor held as `loss_ema`.
                    # (Only when the growing value is a tensor itself, not an entry of a
                    # container that holds it.)
                    held = reading.text(target.value) if isinstance(target, ast.Subscript) \
                        and not entry and g.element in ("", g.expression) else text
                    same = text == name or entry or held == name or (
                        bool(attr) and held.endswith("." + attr) and (
                            held.startswith("self.") or file != g.frame.file))
                    if same and (patterns.accumulates(stmt, text)
                                 or patterns.running_estimate(stmt, text)):
                        written = target.value if held != text and isinstance(
                            target, ast.Subscript) else target
                        return file, stmt, reading.segment(file, written)
            for expr_stmt in (n for n in ast.walk(scope) if isinstance(n, ast.Expr)):
                chain = patterns.added_in_place(expr_stmt)
                held = reading.text(chain[0]) if chain else ""
                if chain and (held == name or bool(attr) and held.endswith("." + attr) and (
                        held.startswith("self.") or file != g.frame.file)):
                    return file, expr_stmt, reading.segment(file, chain[0])
    return None


# -- for the causes: the words and the finding's frame -----------------------------------


def figures(g: Growth) -> str:
    if g.kind == "list":
        return f"its length went {' -> '.join(map(str, g.lengths[-5:]))} over the last steps"
    held = f", holding {g.bytes_held / 2**20:.1f} MiB of saved tensors" if g.bytes_held else ""
    if g.in_backward:
        first = ", ".join(map(str, g.sizes_first)) or "?"
        return (f"backward traversed {first} nodes at the first steps and {g.size_now} at "
                f"step {g.record.number}{held}")
    return (f"after {g.record.number} steps it holds a graph of {g.size_now} nodes, one "
            f"more step's worth each step{held}")


def claim(g: Growth, category: str, why: str, hint: str, culprit_at: tuple[str, int] | None,
          remedy: Remedy | None, expression: str = "") -> Claim:
    file, line = culprit_at if culprit_at else (None, None)
    name = expression or g.expression
    kind = ("container-element" if g.kind == "list" or name.endswith("]") else
            "attribute" if "." in name else "local")
    details: dict[str, object] = {"nodes": {"first": g.sizes_first, "now": g.size_now},
                                  "bytes_held": g.bytes_held, "step": g.record.number}
    if g.lengths:
        details["lengths"] = g.lengths
    return Claim(category, why, hint, places.culprit(name, kind, file, line),
                 places.frame_location(g.record.site) if g.in_backward else None, None,
                 details, remedy)
