"""Precomputed outside the loop: a tensor with history is computed once and reused.

A tensor computed once before the loop (a target, an embedding table passed through a layer,
a loss) carries its graph into every iteration. The first iteration's backward frees that
graph; the second iteration's backward reaches it again and fails.

`retain_graph=True` keeps the graph alive but is still wrong: if the tensor depends on
weights that the optimizer updates, every step reuses the value from before training started
and, once the weights changed in place, backward fails with the in-place error. If it depends
on trainable parameters, compute it inside the loop; if it is a constant (a target, features
of a frozen network), compute it once with `.detach()` so no graph is kept at all.
"""

from __future__ import annotations

import ast
from dataclasses import replace

from autograd_doctor.diagnosis.backward_twice.evidence import (
    BEFORE_LOOP,
    UNPLACED,
    Evidence,
    Suspect,
    added_term,
    claim,
    constructor_keyword,
    describe_call,
    recompute_in_loop,
    stores_of,
)
from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.edits.forms import detached
from autograd_doctor.edits.operations import Insert, Remedy, replace_node
from autograd_doctor.edits.strategies import detach_stored, recompute_where_read
from autograd_doctor.graph.objects import resolve
from autograd_doctor.graph.walk import leaves, walk
from autograd_doctor.source import patterns, places, reading

CATEGORY = "precomputed-outside-loop"
CULPRIT = "prior"
CULPRIT_LINE = 8  # line of BROKEN

BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
encoder = nn.Linear(4, 4)
model = nn.Linear(4, 1)
opt = torch.optim.SGD([*encoder.parameters(), *model.parameters()], lr=0.1)
prior = encoder(torch.ones(1, 4))
for step in range(3):
    x = torch.randn(8, 4)
    loss = model(x + prior).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

FIXED = BROKEN.replace("prior = encoder(torch.ones(1, 4))\n", "").replace(
    "    x = torch.randn(8, 4)\n",
    "    x = torch.randn(8, 4)\n    prior = encoder(torch.ones(1, 4))\n")


def match(ev: Evidence) -> Claim | None:
    suspect = ev.primary
    if suspect is not None and ev.storage == UNPLACED and not ev.same_step \
            and not ev.root_stale and suspect.kind == "local":
        return _read_by_closure(ev, suspect)
    # The loss itself computed before the loop that backwards it is the same loss
    # backwarded again: repeated-backward's (which recomputes it in the loop).
    if ev.same_step or suspect is None or ev.storage != BEFORE_LOOP or ev.root_stale \
            or ev.per_optimizer is not None:
        return None
    placement = places.place(suspect.frame, suspect.expression)
    # An attribute set in the same function just before the loop (`ep.code = enc(...)`
    # then `for _ in range(steps):`) is placed like a local; one set up elsewhere (in
    # `__init__`, a setup call) is read from the object.
    if placement is None or placement.loop is None or not placement.stores_before_loop:
        # A closure's cell (`Phi` of the stepper `make_stepper()` returned) is kept like an
        # attribute: set where the enclosing function ran.
        return _kept_on_object(ev, suspect) if suspect.kind != "local" or suspect.cell \
            else None
    store = placement.stores_before_loop[-1]
    reference = _fixed_reference(placement, store, suspect.expression)
    recompute = recompute_in_loop(ev, placement, store, suspect)
    detach = _detach(placement.file, store, suspect)
    # Computed once on purpose is the usual intent (a fixed latent, a target), unless the
    # weights behind the value learn only through it (detaching would starve them), or the
    # value is a term only added to the loss (a penalty: detached, it is a constant that
    # teaches nothing, which no gradient check can see). Then it is computed in the loop.
    # Both are offered (verification decides when the graph cannot); a fixed reference is
    # never moved.
    additive = added_term(ev)
    if reference:
        first, second = detach, None
    elif _starved_by_detaching(ev) or additive:
        first, second = recompute, detach
    else:
        first, second = detach, recompute
    remedy = first or second
    alternatives = (second,) if first is not None and second is not None else ()
    why = ("it is a term added to the loss (a penalty): detached it would be a constant "
           "that teaches nothing, so compute it inside the loop" if additive and not reference
           else "it is a fixed reference (a target or anchor recorded before training; the loop "
           "computes the live value separately), so compute it once with `.detach()`"
           if reference else
           "if it is meant to stay fixed (a latent or a target computed once), compute it "
           "once with `.detach()`; if the weights behind it should keep learning through it, "
           "compute it inside the loop")
    message = (
        f"`{suspect.expression}` is computed once, before the loop at "
        f"{places.user_path(placement.file)}:{placement.loop.lineno}, and every iteration "
        f"uses it. {describe_call(ev, 'freeing').capitalize()} freed the graph behind it in "
        f"the first iteration, and {describe_call(ev, 'failing')} reached that graph again."
    )
    hint = (
        f"Here {why}. retain_graph=True would keep reusing a value computed before training "
        f"started and fail with the in-place error once the weights change."
    )
    said = claim(ev, CATEGORY, message, hint, suspect, (placement.file, store.lineno), remedy)
    return replace(said, alternatives=alternatives)


def _read_by_closure(ev: Evidence, suspect: Suspect) -> Claim | None:
    """A value the enclosing function computes once and a nested step function reads
    (`head_w` made per episode, read by `adapt_step()` called several times): every call
    after the first reaches the graph the first call's backward freed. Computed again at
    the top of the nested function, each call builds its own."""
    inner = suspect.scope
    file = suspect.frame.file
    tree = reading.parse(file)
    if not isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)) or tree is None:
        return None
    outer = reading.enclosing_function(tree, inner)
    freeing = ev.freeing.site if ev.freeing is not None else None
    if outer is None or patterns.handed_to_step(outer, inner.name):
        return None  # the optimizer runs it several times per step: repeated-backward
    if reading.stores(inner, suspect.expression) or freeing is None or \
            freeing.file != file or not reading.inside_line(freeing.line, inner):
        return None
    stores = reading.stores(outer, suspect.expression)
    if not stores or any(s.lineno > inner.lineno for s in stores):
        return None
    store = stores[-1]
    # The statements beside the nested function (in the loop's body when it is defined in
    # the loop) that built the value.
    block = reading.block_of(tree, inner) or outer.body
    chain = [stmt for stmt in block if stmt.lineno < inner.lineno and not
             reading.is_compound(stmt) and (stmt is store or any(
                 getattr(resolve(reading.text(t), ev.live_scopes), "grad_fn", None)
                 in ev.stale for t in reading.targets(stmt)))]
    first = inner.body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        first = inner.body[1] if len(inner.body) > 1 else first  # after the docstring
    text = "\n".join(reading.segment(file, s) for s in chain)
    recompute = Remedy("recompute-in-closure",
                       f"compute {suspect.expression} again in each call of {inner.name}()",
                       file, first.lineno, (Insert(file, first.lineno, text,
                                                   reading.indent_of(file, first.lineno)),))
    detach = _detach(file, store, suspect)
    first_choice, second = (recompute, detach) if ev.upstream_trained else (detach, recompute)
    message = (
        f"`{suspect.expression}` is computed once, at {places.user_path(file)}:{store.lineno}, "
        f"and `{inner.name}()` reads it in every call. "
        f"{describe_call(ev, 'freeing').capitalize()} freed "
        f"the graph behind it in the first call, and {describe_call(ev, 'failing')} reached "
        f"that graph again.")
    hint = (f"If the weights behind it should keep learning through it, compute it inside "
            f"`{inner.name}()`; if it is meant to stay fixed, compute it with `.detach()`. "
            f"retain_graph=True would keep reusing a value computed before training started "
            f"and fail with the in-place error once the weights change.")
    said = claim(ev, CATEGORY, message, hint, suspect, (file, store.lineno),
                 first_choice or second)
    return replace(said, alternatives=(second,) if first_choice and second else ())


def _kept_on_object(ev: Evidence, suspect: Suspect) -> Claim | None:
    """An attribute set once before the loop (in `__init__`, a setup call, a hook's
    snapshot) and read by every step."""
    stored = [(f, st, e) for f, _, st, e in stores_of(ev, suspect)
              if (v := reading.value_span(st)) is not None and not patterns.creates(v)]
    if not stored:
        return None
    file, store, written = stored[-1]
    keyword = constructor_keyword(store, written)
    if keyword is not None:
        return _built_with(ev, suspect, file, store, written, keyword)
    attributes = {s.expression.rsplit(".", 1)[-1] for s in ev.suspects}
    names = [w for t in reading.targets(store)
             if (w := reading.text(t)).rsplit(".", 1)[-1] in attributes] or [written]
    detach = detach_stored(file, store, names, suspect.structure)
    recompute = recompute_where_read(file, store, written) if len(names) == 1 else None
    if recompute is None and suspect.cell:
        recompute = _rebuild_closure(ev, suspect)
    # Set up once on an object from weights an optimizer trains (an embedding table
    # propagated at the start of an epoch), it is meant to follow them: computed where it
    # is read. Detached, it would stop teaching those weights whatever else still reaches
    # them.
    first, second = (recompute, detach) if ev.upstream_trained else (detach, recompute)
    message = (
        f"`{written}` is computed once, at {places.user_path(file)}:{store.lineno}, before "
        f"the loop that trains, and every step uses it. "
        f"{describe_call(ev, 'freeing').capitalize()} "
        f"freed the graph behind it, and {describe_call(ev, 'failing')} reached that graph "
        f"again.")
    message = message[0].upper() + message[1:]
    hint = ("If it is meant to stay fixed (a target, a snapshot), compute it with `.detach()` "
            "(or under torch.no_grad()); if the weights behind it should keep learning "
            "through it, compute it in each step instead. retain_graph=True would keep "
            "reusing a value computed before training started and fail with the in-place "
            "error once the weights change.")
    said = claim(ev, CATEGORY, message, hint, suspect, (file, store.lineno), first or second,
                 expression=written if written.startswith("self.") else None)
    return replace(said, alternatives=(second,) if first and second else ())


def _rebuild_closure(ev: Evidence, suspect: Suspect) -> Remedy | None:
    """The closure made before the loop (`step = make_stepper(model)`), made again in each
    iteration: its cell is then computed afresh from the weights it should follow."""
    for holder, frame in ((h, f) for h in suspect.holders for f in ev.failing.frames):
        placement = places.place(frame, holder)
        if placement is not None and placement.loop is not None and \
                placement.stores_before_loop and not placement.stores_in_loop:
            return recompute_in_loop(ev, placement, placement.stores_before_loop[-1],
                                     replace(suspect, expression=holder))
    return None


def _built_with(ev: Evidence, suspect: Suspect, file: str, store: ast.stmt, written: str,
                keyword: ast.keyword) -> Claim | None:
    """`cfg = Config(alpha_bar=schedule())` before the loop, `cfg.alpha_bar` read by each
    step: detach the keyword's value, or set the attribute again at the top of the loop."""
    tree = reading.parse(file)
    scope = reading.enclosing_function(tree, store) if tree is not None else None
    site = ev.failing.site
    loops = reading.loops_around(scope, site.line) if scope is not None and site is not None \
        and site.file == file else []
    text = reading.segment(file, keyword.value)
    detach = Remedy("detach-on-store", f"build {written} without its graph", file,
                    keyword.value.lineno, (replace_node(file, keyword.value, detached(text)),))
    recompute = None
    if loops and not reading.inside_line(store.lineno, loops[-1]):
        first = loops[-1].body[0]
        recompute = Remedy("recompute-in-loop", f"compute {written} again in each step", file,
                           first.lineno, (Insert(file, first.lineno, f"{written} = {text}",
                                                 reading.indent_of(file, first.lineno)),))
    first_choice, second = (recompute, detach) if ev.upstream_trained else (detach, recompute)
    message = (
        f"`{written}` is computed once, at {places.user_path(file)}:{store.lineno} (the "
        f"`{keyword.arg}=` the object is built with), before the loop that trains, and every "
        f"step uses it. {describe_call(ev, 'freeing').capitalize()} freed the graph behind "
        f"it, and {describe_call(ev, 'failing')} reached that graph again.")
    hint = ("If it is meant to stay fixed, build the object with a detached value; if the "
            "weights behind it should keep learning through it, compute it again in each "
            "step. retain_graph=True would keep reusing a value computed before training "
            "started and fail with the in-place error once the weights change.")
    said = claim(ev, CATEGORY, message, hint, suspect, (file, store.lineno),
                 first_choice or second, expression=written)
    return replace(said, alternatives=(second,) if first_choice and second else ())


def _starved_by_detaching(ev: Evidence) -> bool:
    """Do some trainable weights behind the value reach the failing loss through it only?"""
    elsewhere = {id(t) for t in leaves(walk(ev.failing.roots, stop=set(ev.stale)))}
    return any(p.requires_grad and id(p) not in elsewhere and id(p) in ev.trained
               for p in ev.upstream)


# Loss functions whose second argument (or `target=`) is the value to match, not to train.
_TARGET_TAKERS = ("mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "kl_div",
                  "cross_entropy", "binary_cross_entropy", "binary_cross_entropy_with_logits",
                  "cosine_embedding_loss", "MSELoss", "L1Loss", "KLDivLoss")


def _fixed_reference(placement: places.Placement, store: ast.stmt, name: str) -> bool:
    """A snapshot taken before training that the loop compares against: the loop computes
    the same expression afresh (`old_logits = model(x, "old")` before, `model(x, "old")` in
    the loss), or the value is only ever a loss's target. Recomputing it in the loop would
    make the target move with the model."""
    loop = placement.loop
    value = reading.value_span(store)
    if loop is None or value is None:
        return False
    text = reading.text(value)
    inside = [n for stmt in loop.body for n in ast.walk(stmt)]
    if any(isinstance(n, ast.Call) and reading.text(n) == text for n in inside):
        return True
    uses = [n for n in inside if isinstance(n, ast.Name) and n.id == name]
    targets = set()
    for call in (n for n in inside if isinstance(n, ast.Call)):
        func = reading.text(call.func).rsplit(".", 1)[-1]
        if func in _TARGET_TAKERS or "loss" in func.lower():
            chosen = call.args[1:2] + [k.value for k in call.keywords if k.arg == "target"]
            targets |= {id(n) for a in chosen for n in ast.walk(a)}
    return bool(uses) and all(id(n) in targets for n in uses)


def _detach(file: str, store: ast.stmt, suspect: Suspect) -> Remedy | None:
    value = reading.value_span(store)
    if value is None:
        return None
    return Remedy(
        strategy="detach-on-store",
        description=f"compute {suspect.expression} once, detached from the graph",
        file=file,
        line=store.lineno,
        operations=(replace_node(file, value, detached(reading.segment(file, value),
                                                       suspect.structure)),),
    )
