"""Parameters that never receive a gradient, and nothing fails: backward runs, the optimizer
steps, and the model (or part of it) does not learn. Seen by watching, before each of the
first optimizer steps, which parameters handed to the optimizer hold a gradient. The causes
differ in why nothing arrives: backward on a detached copy of the loss, an optimizer over
another model, a graph cut between the model and the loss.
"""

ERROR = "silent-no-grad"
TITLE = "parameters that never receive a gradient"
PATTERN = None  # no error: the gradient watch sees it during training
