"""Multi-task model for property listings: a shared MLP trunk feeds a price regressor and a
'sells within 30 days' classifier; the two losses are balanced with learned homoscedastic
uncertainty weights (Kendall et al.). The run logs how much of the trunk gradient comes from
the price task alone."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_FEATURES, HIDDEN = 10, 32


class ListingNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(N_FEATURES, HIDDEN), nn.ReLU(),
                                   nn.Linear(HIDDEN, HIDDEN), nn.ReLU())
        self.price_head = nn.Linear(HIDDEN, 1)
        self.sale_head = nn.Linear(HIDDEN, 1)


class UncertaintyWeights(nn.Module):
    """L_i -> 0.5 * exp(-s_i) * L_i + 0.5 * s_i, with s_i = log sigma_i^2 learned."""

    def __init__(self, n_tasks):
        super().__init__()
        self.log_vars = nn.Parameter(torch.zeros(n_tasks))

    def forward(self, losses):
        return [0.5 * torch.exp(-self.log_vars[i]) * loss + 0.5 * self.log_vars[i]
                for i, loss in enumerate(losses)]


def make_listings(n):
    X = torch.randn(n, N_FEATURES)
    price = X[:, :3].sum(1) + 0.1 * torch.randn(n)
    quick_sale = ((X[:, 3] - X[:, 0]) > 0).float()
    return X, price, quick_sale


def trunk_grad_norm(model):
    return torch.norm(torch.stack([p.grad.norm() for p in model.trunk.parameters()])).item()


def main(steps=5, batch=32):
    torch.manual_seed(0)
    X, price, quick_sale = make_listings(256)
    model, weighting = ListingNet(), UncertaintyWeights(2)
    optimizer = torch.optim.Adam([*model.parameters(), *weighting.parameters()], lr=1e-2)
    for step in range(steps):
        idx = torch.randint(0, len(X), (batch,))
        feats = model.trunk(X[idx])
        price_loss = F.mse_loss(model.price_head(feats).squeeze(-1), price[idx])
        sale_logits = model.sale_head(feats).squeeze(-1)
        sale_loss = F.binary_cross_entropy_with_logits(sale_logits, quick_sale[idx])
        price_term, sale_term = weighting([price_loss, sale_loss])
        optimizer.zero_grad()
        price_term.backward()
        price_share = trunk_grad_norm(model)
        sale_term.backward()
        price_share /= trunk_grad_norm(model)
        optimizer.step()
        sigmas = weighting.log_vars.detach().mul(0.5).exp().tolist()
        print(f"step {step}: price {price_loss.item():.4f} sale {sale_loss.item():.4f} "
              f"sigma {sigmas[0]:.3f}/{sigmas[1]:.3f} price share of trunk grad {price_share:.3f}")
    return model, weighting


if __name__ == "__main__":
    main()
