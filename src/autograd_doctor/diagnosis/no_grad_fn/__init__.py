"""The loss has no graph: "element 0 of tensors does not require grad and does not have a
grad_fn". Somewhere between the model and the loss, the computation left autograd: under
`torch.no_grad()`, through `.detach()` or `.data`, through Python numbers or NumPy and back,
through an op that has no gradient, or every parameter was frozen. The causes differ in where
and how the graph was cut.
"""

ERROR = "no-grad-fn"
TITLE = "the loss has no graph: the model was cut off before it"
PATTERN = "does not require grad and does not have a grad_fn"

LEAF_TRAP = (
    "Setting requires_grad=True on the loss (or backwarding a `.clone().detach()` copy) "
    "would make the error go away and the model stop learning."
)
