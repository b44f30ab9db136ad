"""What the graph-growth causes share: the finding with the growth figures."""

from __future__ import annotations

from autograd_doctor.diagnosis import places
from autograd_doctor.diagnosis.growth import Growth
from autograd_doctor.diagnosis.remedy import Diagnosis, Remedy
from autograd_doctor.findings import Finding


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


def growth_finding(g: Growth, category: str, message: str, culprit_at: tuple[str, int] | None,
                   remedy: Remedy | None) -> Diagnosis:
    file, line = culprit_at if culprit_at else (None, None)
    kind = ("container-element" if g.kind == "list" else
            "attribute" if "." in g.expression else "local")
    details: dict[str, object] = {"nodes": {"first": g.sizes_first, "now": g.size_now},
                                  "bytes_held": g.bytes_held, "step": g.record.number}
    if g.lengths:
        details["lengths"] = g.lengths
    return Diagnosis(
        Finding(
            error="graph-growth",
            category=category,
            message=message,
            culprit=places.culprit(g.expression, kind, file, line),
            failing_backward=places.frame_location(g.record.site) if g.in_backward else None,
            freeing_backward=None,
            details=details,
        ),
        remedy,
    )
