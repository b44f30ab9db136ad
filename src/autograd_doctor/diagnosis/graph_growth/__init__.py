"""The graph grows with every step, and nothing fails: a tensor whose new value is built on
its previous one keeps every step's graph attached (a carried state whose graph no backward
frees, a running total kept as a tensor, a graph kept alive with retain_graph=True), or a
list gains one tensor with history per step. Each step gets slower or memory climbs until the
process runs out of it.
"""

ERROR = "graph-growth"
TITLE = "the graph grows with every step"
PATTERN = None  # no error: the growth watch sees it during training
