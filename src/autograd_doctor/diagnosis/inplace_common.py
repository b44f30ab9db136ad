"""What the in-place causes share: the finding's frame and the writer's location."""

from __future__ import annotations

from autograd_doctor.diagnosis import places
from autograd_doctor.diagnosis.remedy import Diagnosis, Remedy
from autograd_doctor.diagnosis.versions import Inplace
from autograd_doctor.findings import Finding

RETAIN_GRAPH = (
    "This often follows adding retain_graph=True to get past 'backward through the graph a "
    "second time': the kept graph still holds the values the forward used, and an in-place "
    "write since then makes them wrong."
)


def describe_saved(ev: Inplace) -> str:
    what = f"`{ev.name}`" if ev.name else "a tensor"
    shape_of = tuple(ev.tensor.shape) if ev.tensor is not None else ev.shape
    shape = f" (shape {list(shape_of)})" if shape_of is not None else ""
    return f"{what}{shape}"


def inplace_finding(ev: Inplace, category: str, message: str, expression: str, kind: str,
                    writer: tuple[str, int] | None, remedy: Remedy | None) -> Diagnosis:
    file, line = writer if writer else (None, None)
    details: dict[str, object] = {}
    if writer:
        details["writer"] = places.location(*writer).to_dict()
    if ev.node is not None:
        details["saved_by"] = type(ev.node).__name__
    return Diagnosis(
        Finding(
            error="inplace-modified",
            category=category,
            message=message,
            culprit=places.culprit(expression, kind, file, line),
            failing_backward=places.frame_location(ev.failing.site),
            freeing_backward=None,
            details=details,
        ),
        remedy,
    )
