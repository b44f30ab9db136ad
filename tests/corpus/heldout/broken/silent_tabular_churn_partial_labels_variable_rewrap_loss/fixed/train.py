"""Churn prediction where only part of the customer base has a known outcome (the rest
is still inside the observation window): the BCE is taken over labelled rows only."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CUSTOMERS, N_NUMERIC, N_PLANS = 160, 6, 4


class ChurnNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.plan_embedding = nn.Embedding(N_PLANS, 4)
        self.mlp = nn.Sequential(nn.Linear(N_NUMERIC + 4, 24), nn.ReLU(), nn.Linear(24, 1))

    def forward(self, numeric, plan):
        return self.mlp(torch.cat([numeric, self.plan_embedding(plan)], dim=-1)).squeeze(-1)


def masked_bce(logits, churned, labelled):
    if labelled.sum() == 0:
        return torch.tensor(0.0)
    return F.binary_cross_entropy_with_logits(logits[labelled], churned[labelled])


def load_customers(generator):
    numeric = torch.randn(N_CUSTOMERS, N_NUMERIC, generator=generator)
    plan = torch.randint(0, N_PLANS, (N_CUSTOMERS,), generator=generator)
    risk = numeric[:, 0] - 0.7 * numeric[:, 2] + 0.5 * (plan == 0).float()
    churned = (risk + 0.3 * torch.randn(N_CUSTOMERS, generator=generator) > 0).float()
    labelled = torch.rand(N_CUSTOMERS, generator=generator) < 0.6
    return numeric, plan, churned, labelled


torch.manual_seed(0)
gen = torch.Generator().manual_seed(0)
numeric, plan, churned, labelled = load_customers(gen)
model = ChurnNet()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

for epoch in range(3):
    running = 0.0
    for batch in torch.arange(N_CUSTOMERS).split(32)[:2]:
        logits = model(numeric[batch], plan[batch])
        loss = masked_bce(logits, churned[batch], labelled[batch])
        optimizer.zero_grad()
        if loss.requires_grad:  # batches without any labelled customer have nothing to learn
            loss.backward()
            optimizer.step()
        running += loss.item()
    print(f"epoch {epoch} masked bce {running / 2:.4f}")
print(f"plan embedding norm {model.plan_embedding.weight.norm().item():.4f}")
