"""What the no-grad-fn causes share: the finding, and the words for where the cut is."""

from __future__ import annotations

from autograd_doctor.diagnosis import places
from autograd_doctor.diagnosis.cut import Cut
from autograd_doctor.diagnosis.remedy import Diagnosis, Remedy
from autograd_doctor.findings import Finding

LEAF_TRAP = (
    "Setting requires_grad=True on the loss (or backwarding a `.clone().detach()` copy) "
    "would make the error go away and the model stop learning."
)


def cut_finding(cut: Cut, message: str, remedy: Remedy | None, cut_file: str,
                cut_line: int) -> Diagnosis:
    return Diagnosis(
        Finding(
            error="no-grad-fn",
            category=cut.category,
            message=message,
            culprit=places.culprit(cut.name, "attribute" if "." in cut.name else "local",
                                   cut.file, cut.stmt.lineno),
            failing_backward=places.frame_location(cut.failing.site),
            freeing_backward=None,
            details={"cut": places.location(cut_file, cut_line).to_dict()},
        ),
        remedy,
    )


def where(file: str, line: int) -> str:
    return f"{places.user_path(file)}:{line}"
