"""Debugging helpers shared by the team's training scripts."""


def log_saved(t, name="act"):
    """Report how saturated a tanh activation is, from the output autograd saved for it."""
    saved = t.grad_fn._saved_result
    frac = (saved.abs() > 0.95).float().mean().item()
    print(f"  {name}: {frac:.0%} saturated")
