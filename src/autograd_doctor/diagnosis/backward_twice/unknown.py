"""Unknown: the failure was recognised but none of the known causes could be shown.

The report then says what was seen: the kinds of graph nodes that had been freed, the
names (if any) that held them, and the backward call that freed them, so the reader can
place the cause by hand. Please report such a case: it is how new causes get added.
"""

from __future__ import annotations

from autograd_doctor.diagnosis.backward_twice.evidence import Evidence, claim, describe_call
from autograd_doctor.diagnosis.finding import Claim
from autograd_doctor.graph.walk import node_name

CATEGORY = "unknown"
CULPRIT = None
CULPRIT_LINE = None
FALLBACK = True
FIX = None  # nothing known to change

# The anchor lives in a function's mutable default argument: no frame, record or object the
# first run looks at holds it under a name, so no cause can be placed (a replay can: it saw
# the statement that stored it).
BROKEN = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
encoder, model = nn.Linear(4, 4), nn.Linear(4, 1)
opt = torch.optim.SGD([*encoder.parameters(), *model.parameters()], lr=0.1)


def target(cache={}):
    if "anchor" not in cache:
        cache["anchor"] = encoder(torch.ones(1, 4))
    return cache["anchor"].sum(1)


for step in range(3):
    loss = (model(torch.randn(8, 4)) - target()).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

FIXED = BROKEN.replace("    if \"anchor\" not in cache:\n        cache", "    cache")


def match(ev: Evidence) -> Claim | None:
    if not ev.entries and ev.freeing is None:
        return None  # nothing seen at all: the report says "undiagnosed"
    kinds = sorted({node_name(n) for n in ev.entries})
    names = [s.expression for s in ev.suspects]
    seen = f"the freed part of the graph is entered through {', '.join(kinds) or 'no node'}"
    if names:
        seen += f", held by {', '.join(f'`{n}`' for n in names)}"
    why = (
        f"{describe_call(ev, 'failing').capitalize()} reached part of a graph that "
        f"{describe_call(ev, 'freeing')} had already freed; {seen}. No known cause fits "
        f"what was seen."
    )
    hint = ("retain_graph=True is rarely the right fix: find the tensor that outlives its "
            "step and `.detach()` it, or compute it again where it is used.")
    suspect = ev.primary or (ev.suspects[0] if ev.suspects else None)
    return claim(ev, CATEGORY, why, hint, suspect, None, None, nodes=kinds)
