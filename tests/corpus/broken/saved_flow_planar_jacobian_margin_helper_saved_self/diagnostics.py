"""Cheap health checks for flow training, read off the graph the forward pass built."""


def jacobian_margin(flow):
    """Smallest |det J| of any planar layer over the last batch.

    LogBackward already holds |1 + psi.u| (the argument of the log), so there is no
    need to recompute the Jacobian: read it from the node.
    """
    margins = []
    for layer in flow.layers:
        det_abs = layer.last_log_det.grad_fn._saved_self
        margins.append(det_abs.min().item())
    return min(margins)


def format_margin(margin, warn_below=0.05):
    flag = "  <-- close to non-invertible" if margin < warn_below else ""
    return f"min |det J| {margin:.4f}{flag}"
