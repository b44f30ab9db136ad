"""Credit-default classifier on synthetic applications: numeric columns plus two
categorical columns (employment type, region) through embeddings. The first batch of each
epoch is also explained with input-gradient saliency."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from saliency import feature_saliency

NUMERIC = ["income", "debt_ratio", "age", "utilisation", "late_payments"]


class CreditNet(nn.Module):
    def __init__(self, n_numeric, n_employment=4, n_region=6):
        super().__init__()
        self.employment = nn.Embedding(n_employment, 3)
        self.region = nn.Embedding(n_region, 3)
        self.mlp = nn.Sequential(
            nn.Linear(n_numeric + 6, 32), nn.ReLU(), nn.LayerNorm(32), nn.Linear(32, 1))

    def forward(self, numeric, categorical):
        cats = torch.cat([self.employment(categorical[:, 0]), self.region(categorical[:, 1])], dim=1)
        return self.mlp(torch.cat([numeric, cats], dim=1)).squeeze(1)


def make_data(n, gen):
    numeric = torch.randn(n, len(NUMERIC), generator=gen)
    categorical = torch.stack([torch.randint(0, 4, (n,), generator=gen),
                               torch.randint(0, 6, (n,), generator=gen)], dim=1)
    score = 1.2 * numeric[:, 1] + 0.8 * numeric[:, 4] - 0.6 * numeric[:, 0] + 0.3 * (categorical[:, 0] == 2)
    return numeric, categorical, (score > 0).float()


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    numeric, categorical, default = make_data(96, gen)
    mean, std = numeric.mean(0), numeric.std(0)
    numeric = (numeric - mean) / std

    model = CreditNet(len(NUMERIC))
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3, weight_decay=1e-5)
    pos_weight = (1 - default.mean()) / default.mean()

    for epoch in range(2):
        for b in range(0, 96, 32):
            x_num, x_cat, y = numeric[b:b + 32], categorical[b:b + 32], default[b:b + 32]
            explain = b == 0
            if explain:
                x_num = x_num.clone().requires_grad_(True)
            logits = model(x_num, x_cat)
            loss = F.binary_cross_entropy_with_logits(logits, y, pos_weight=pos_weight)
            if explain:
                print(f"epoch {epoch} saliency {feature_saliency(loss, x_num, NUMERIC)}")
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} last-batch loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
