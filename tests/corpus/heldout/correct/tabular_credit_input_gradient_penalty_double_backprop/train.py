"""Credit-default scorer on standardised numeric features, regularised to be locally smooth
in its inputs (double backpropagation): the penalty is the squared norm of d(logit)/d(input),
so the training loss itself contains a first derivative and backward takes a second one."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_FEATURES, PENALTY = 8, 0.1


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(N_FEATURES, 32), nn.Softplus(), nn.Linear(32, 16), nn.Softplus(), nn.Linear(16, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def make_applicants(n=64):
    x = torch.randn(n, N_FEATURES)
    w = torch.tensor([1.5, -2.0, 0.5, 0.0, 0.0, 1.0, -0.5, 0.0])
    logits = x @ w + 0.5 * x[:, 0] * x[:, 1]
    return x, (torch.rand(n) < torch.sigmoid(logits)).float()


def smoothness_penalty(model, x):
    x = x.clone().requires_grad_(True)
    logit = model(x)
    (grad_x,) = torch.autograd.grad(logit.sum(), x, create_graph=True)
    return logit, grad_x.pow(2).sum(dim=1).mean()


def train(model, data, epochs=3, batch_size=16):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    x_all, y_all = data
    for epoch in range(epochs):
        for start in range(0, len(y_all), batch_size):
            x, y = x_all[start:start + batch_size], y_all[start:start + batch_size]
            logit, penalty = smoothness_penalty(model, x)
            bce = F.binary_cross_entropy_with_logits(logit, y)
            loss = bce + PENALTY * penalty
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        acc = ((model(x_all) > 0).float() == y_all).float().mean().item()
        print(f"epoch {epoch}: bce {bce.item():.4f} grad-penalty {penalty.item():.4f} acc {acc:.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Scorer()
    train(model, make_applicants())
    checksum = sum(p.double().sum().item() for p in model.parameters())
    print(f"checksum {checksum:.6f}")
