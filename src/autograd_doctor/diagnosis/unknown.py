"""Unknown: the failure was recognised but none of the known causes could be shown.

The report then says what was seen: the kinds of graph nodes that had been freed, the
names (if any) that held them, and the backward call that freed them, so the reader can
place the cause by hand. Please report such a case: it is how new causes get added.
"""

from __future__ import annotations

from autograd_doctor.diagnosis.common import describe_call, finding
from autograd_doctor.diagnosis.remedy import Diagnosis
from autograd_doctor.diagnosis.stale import Evidence
from autograd_doctor.graph.walk import node_name

ERROR = "backward-twice"
CATEGORY = "unknown"
FALLBACK = True


def match(ev: Evidence) -> Diagnosis | None:
    if not ev.entries and ev.freeing is None:
        return None  # nothing seen at all: the report says "undiagnosed"
    kinds = sorted({node_name(n) for n in ev.entries})
    names = [s.expression for s in ev.suspects]
    seen = f"the freed part of the graph is entered through {', '.join(kinds) or 'no node'}"
    if names:
        seen += f", held by {', '.join(f'`{n}`' for n in names)}"
    message = (
        f"{describe_call(ev, 'failing').capitalize()} reached part of a graph that "
        f"{describe_call(ev, 'freeing')} had already freed; {seen}. No known cause fits "
        f"what was seen. retain_graph=True is rarely the right fix: find the tensor that "
        f"outlives its step and `.detach()` it, or compute it again where it is used."
    )
    suspect = ev.suspects[0] if ev.suspects else None
    return finding(ev, CATEGORY, message, suspect, None, None, nodes=kinds)
