"""Gradient inspection utilities.

For a Linear layer z = a @ W.T + b, the gradient of one example's loss with respect to W is
the outer product dL/dz_i a_i^T, so its norm is ||dL/dz_i|| * ||a_i||: per-example gradient
norms come for free from the layer outputs' .grad and the inputs the layer saved."""


def capture_inputs(taps):
    """Call before backward: the inputs each tapped Linear saved, while they still exist."""
    return {name: z.grad_fn._saved_mat1.detach() for name, z in taps.items()}


def per_example_grad_norms(taps, inputs):
    """taps: {name: output of a Linear layer (batch, features) that had .retain_grad()};
    inputs: capture_inputs(taps) taken before backward. Call after backward.
    Returns {name: per-example norm of the weight gradient}."""
    norms = {}
    for name, z in taps.items():
        a = inputs[name]
        norms[name] = z.grad.norm(dim=1) * a.norm(dim=1)
    return norms


def flag_outliers(norms, k=2.0):
    """Indices of examples whose total gradient norm is more than k standard deviations
    above the batch mean (often mislabeled rows)."""
    total = sum(n ** 2 for n in norms.values()).sqrt()
    return (total > total.mean() + k * total.std()).nonzero().flatten().tolist()
