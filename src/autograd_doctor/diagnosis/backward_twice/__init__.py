"""Backward through a graph that was already freed: "Trying to backward through the graph a
second time". A backward call (or `torch.autograd.grad`) without retain_graph frees the saved
tensors of every node it goes through; a later call that reaches one of those nodes fails.
The causes differ in how the later call got there: a tensor carried into the next iteration,
a second loss over the same forward, a tensor computed before the loop, a value kept in
storage, a running total, or the same loss backwarded again.
"""

ERROR = "backward-twice"
TITLE = "backward through a graph that was already freed"
PATTERN = "Trying to backward through the graph a second time"

RETAIN_GRAPH_CARRIED = (
    "retain_graph=True would only hide this: every step would then backpropagate through "
    "all earlier steps (time and memory grow without bound), and once optimizer.step() "
    "has changed the weights the old graph saved, it turns into the in-place "
    "modification error."
)
