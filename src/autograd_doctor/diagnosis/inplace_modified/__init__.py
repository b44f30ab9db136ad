"""A tensor saved for backward was modified in place: "one of the variables needed for
gradient computation has been modified by an inplace operation". An op saved a tensor (its
input, its output, a weight) for the backward pass; something wrote into that tensor before
backward read it back. The causes differ in the writer: an optimizer step, an in-place op in
the user's code, an activation built to work in place, or a graph kept alive with
retain_graph=True across optimizer steps.
"""

ERROR = "inplace-modified"
TITLE = "a tensor saved for backward was modified in place"
PATTERN = "modified by an inplace operation"

RETAIN_GRAPH = (
    "This often follows adding retain_graph=True to get past 'backward through the graph a "
    "second time': the kept graph still holds the values the forward used, and an in-place "
    "write since then makes them wrong."
)
