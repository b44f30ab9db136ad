"""Multi-task listing model (price regression + 'sells within 30 days' classification) over a
shared trunk, balanced with learned uncertainty weights. Each step the Trainer measures every
task's gradient norm on the shared trunk with torch.autograd.grad (keeping the graph), then
backwards the weighted total once."""
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
        self.log_vars = nn.Parameter(torch.zeros(2))

    def forward(self, x):
        feats = self.trunk(x)
        return self.price_head(feats).squeeze(-1), self.sale_head(feats).squeeze(-1)


class Trainer:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.trunk_params = list(model.trunk.parameters())
        self.history = []

    def weighted_terms(self, losses):
        s = self.model.log_vars
        return [0.5 * torch.exp(-s[i]) * loss + 0.5 * s[i] for i, loss in enumerate(losses)]

    def task_grad_norm(self, term):
        grads = torch.autograd.grad(term, self.trunk_params, retain_graph=True)
        return torch.norm(torch.stack([g.norm() for g in grads])).item()

    def training_step(self, x, price, quick_sale):
        price_pred, sale_logits = self.model(x)
        losses = [F.mse_loss(price_pred, price),
                  F.binary_cross_entropy_with_logits(sale_logits, quick_sale)]
        terms = self.weighted_terms(losses)
        norms = [self.task_grad_norm(t) for t in terms]
        self.optimizer.zero_grad()
        (terms[0] + terms[1]).backward()
        self.optimizer.step()
        self.history.append(([l.item() for l in losses], norms))
        return self.history[-1]


def make_listings(n):
    X = torch.randn(n, N_FEATURES)
    price = X[:, :3].sum(1) + 0.1 * torch.randn(n)
    quick_sale = ((X[:, 3] - X[:, 0]) > 0).float()
    return X, price, quick_sale


if __name__ == "__main__":
    torch.manual_seed(0)
    X, price, quick_sale = make_listings(256)
    trainer = Trainer(ListingNet())
    for step in range(6):
        idx = torch.randint(0, len(X), (32,))
        (price_loss, sale_loss), (g_price, g_sale) = trainer.training_step(
            X[idx], price[idx], quick_sale[idx])
        print(f"step {step}: price {price_loss:.4f} sale {sale_loss:.4f} "
              f"trunk grad norms {g_price:.4f}/{g_sale:.4f}")
    sigmas = trainer.model.log_vars.detach().mul(0.5).exp().tolist()
    checksum = sum(p.detach().sum() for p in trainer.model.parameters()).item()
    print(f"sigmas {sigmas[0]:.4f}/{sigmas[1]:.4f} checksum {checksum:.6f}")
