"""Churn prediction on synthetic customer records: numeric features plus an embedded plan
type, an imbalanced target and pos_weight. For monitoring, the mean predicted churn
probability is taken from the logits the loss node kept instead of a second sigmoid."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CUSTOMERS, N_NUMERIC, N_PLANS = 256, 6, 4


def make_data():
    numeric = torch.randn(N_CUSTOMERS, N_NUMERIC)
    plan = torch.randint(0, N_PLANS, (N_CUSTOMERS,))
    risk = 1.5 * numeric[:, 0] - numeric[:, 2] + 0.8 * (plan == 3).float() - 1.5
    churn = (torch.rand(N_CUSTOMERS) < torch.sigmoid(risk)).float()
    return numeric, plan, churn


class ChurnModel(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.plan_emb = nn.Embedding(N_PLANS, 4)
        self.mlp = nn.Sequential(
            nn.Linear(N_NUMERIC + 4, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, numeric, plan):
        return self.mlp(torch.cat([numeric, self.plan_emb(plan)], dim=1)).squeeze(1)


def main(epochs=5):
    torch.manual_seed(0)
    numeric, plan, churn = make_data()
    pos_weight = (1 - churn).sum() / churn.sum().clamp(min=1)
    model = ChurnModel()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    history = []
    for epoch in range(epochs):
        logits = model(numeric, plan)
        loss = F.binary_cross_entropy_with_logits(logits, churn, pos_weight=pos_weight)
        optimizer.zero_grad()
        loss.backward()
        mean_prob = loss.grad_fn._saved_self.sigmoid().mean().item()
        optimizer.step()
        history.append((loss.item(), mean_prob))
        print(f"epoch {epoch} loss {loss.item():.4f} mean p(churn) {mean_prob:.3f}")
    return history


if __name__ == "__main__":
    main()
