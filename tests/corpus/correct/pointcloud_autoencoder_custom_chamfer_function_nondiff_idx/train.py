"""Point-cloud autoencoder (PointNet encoder, MLP decoder) trained with a Chamfer loss built
on a custom autograd.Function: the nearest-neighbour search returns squared distances and
indices, the indices are marked non-differentiable and the backward is written by hand (and
checked with gradcheck before training)."""
import torch
import torch.nn as nn

N_POINTS, LATENT = 32, 16


class NearestSquaredDistance(torch.autograd.Function):
    """For each query point: squared distance to its nearest reference point, and its index."""

    @staticmethod
    def forward(ctx, query, ref):
        dist, idx = torch.cdist(query, ref).pow(2).min(dim=2)
        ctx.save_for_backward(query, ref, idx)
        ctx.mark_non_differentiable(idx)
        return dist, idx

    @staticmethod
    def backward(ctx, grad_dist, _grad_idx):
        query, ref, idx = ctx.saved_tensors
        index = idx.unsqueeze(-1).expand(-1, -1, query.shape[-1])
        diff = 2 * (query - ref.gather(1, index)) * grad_dist.unsqueeze(-1)
        grad_query = diff if ctx.needs_input_grad[0] else None
        grad_ref = None
        if ctx.needs_input_grad[1]:
            grad_ref = torch.zeros_like(ref).scatter_add_(1, index, -diff)
        return grad_query, grad_ref


def chamfer(pred, target):
    d_pred, _ = NearestSquaredDistance.apply(pred, target)
    d_target, _ = NearestSquaredDistance.apply(target, pred)
    d_pred.mul_(0.5)      # the Function saved its inputs, not this output
    d_target.mul_(0.5)
    return d_pred.mean() + d_target.mean()


def ellipsoids(n, gen):
    v = torch.randn(n, N_POINTS, 3, generator=gen)
    v = v / v.norm(dim=-1, keepdim=True)
    axes = 0.5 + torch.rand(n, 1, 3, generator=gen)
    clouds = v * axes + 0.3 * torch.randn(n, 1, 3, generator=gen)
    clouds -= clouds.mean(dim=1, keepdim=True)   # centre each cloud (input data, no graph)
    return clouds


class PointAutoencoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.point_mlp = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 64), nn.ReLU())
        self.to_latent = nn.Linear(64, LATENT)
        self.decoder = nn.Sequential(nn.Linear(LATENT, 64), nn.ReLU(), nn.Linear(64, N_POINTS * 3))

    def forward(self, clouds):
        code = self.to_latent(self.point_mlp(clouds).max(dim=1).values)
        return self.decoder(code).view(-1, N_POINTS, 3)


def train(steps=6):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(2)
    q = torch.randn(2, 5, 3, dtype=torch.double, requires_grad=True)
    r = torch.randn(2, 6, 3, dtype=torch.double, requires_grad=True)
    ok = torch.autograd.gradcheck(lambda a, b: NearestSquaredDistance.apply(a, b)[0], (q, r))
    print(f"gradcheck {ok}")
    model = PointAutoencoder()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    for step in range(steps):
        clouds = ellipsoids(8, gen)
        loss = chamfer(model(clouds), clouds)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} chamfer {loss.item():.5f}")
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
    return model


if __name__ == "__main__":
    train()
