"""Feature-space augmentation for contrastive pre-training on tabular rows."""
import torch


def two_views(z, drop=0.2, noise=0.1):
    """Two stochastic views of a batch of projections, stacked as (2 * batch, dim):
    random feature dropout plus Gaussian jitter."""
    keep1 = (torch.rand_like(z) > drop).float()
    keep2 = (torch.rand_like(z) > drop).float()
    view1 = z * keep1 / (1 - drop) + noise * torch.randn_like(z)
    view2 = z * keep2 / (1 - drop) + noise * torch.randn_like(z)
    return torch.cat([view1, view2], dim=0)
