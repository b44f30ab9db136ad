def hazard_summary(hazard):
    """Mean and max predicted monthly churn hazard, taken from the exp node so we do not recompute it."""
    rate = hazard.grad_fn._saved_result
    return rate.mean().item(), rate.max().item()


def concordance(hazard, months, churned):
    # fraction of comparable pairs where the earlier churner got the higher hazard
    h = hazard.detach().squeeze(1)
    earlier = (months[:, None] < months[None, :]) & churned[:, None].bool()
    agree = (h[:, None] > h[None, :]) & earlier
    return (agree.sum() / earlier.sum().clamp(min=1)).item()
