"""DeepSurv-style risk model for time-to-readmission on a small clinical table
(age, lab values, comorbidity flags)."""
import torch
import torch.nn as nn

from losses import cox_partial_likelihood, guard_non_finite

N_FEATURES = 10


def cohort(n, gen):
    x = torch.randn(n, N_FEATURES, generator=gen)
    true_risk = 0.8 * x[:, 0] - 0.5 * x[:, 3] + 0.3 * x[:, 7]
    time = torch.distributions.Exponential(true_risk.exp()).sample()
    event = (torch.rand(n, generator=gen) < 0.7).float()
    return x, time, event


def train(model, epochs=3, batches_per_epoch=2, lr=1e-2):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=1e-4)
    gen = torch.Generator().manual_seed(0)
    for epoch in range(epochs):
        total = 0.0
        for _ in range(batches_per_epoch):
            x, time, event = cohort(64, gen)
            risk = model(x).squeeze(-1)
            loss = guard_non_finite(cox_partial_likelihood(risk, time, event))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch} neg partial log-lik {total / batches_per_epoch:.4f}")
    return model


if __name__ == "__main__":
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(N_FEATURES, 32), nn.SELU(), nn.Dropout(0.1),
                        nn.Linear(32, 16), nn.SELU(), nn.Linear(16, 1, bias=False))
    train(net)
    with torch.no_grad():
        print(f"weight checksum {sum(p.abs().sum() for p in net.parameters()).item():.4f}")
