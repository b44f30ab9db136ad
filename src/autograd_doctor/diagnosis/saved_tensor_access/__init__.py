"""Saved tensors read after their graph was freed: the same message as "backward through
the graph a second time" ("... or directly access saved tensors after they have already been
freed"), raised not by a backward call but by reading `grad_fn._saved_*` or a custom
Function's `ctx.saved_tensors` after backward had used and freed them.
"""

ERROR = "saved-tensor-access"
TITLE = "saved tensors read after their graph was freed"
PATTERN = "Trying to backward through the graph a second time"
OUTSIDE_BACKWARD = True  # raised by an attribute read, not by a backward call
