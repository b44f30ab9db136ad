"""Motor-insurance pricing: an MLP predicts the annual premium from policy features and
the region. The regional floor and cap are applied row by row before the loss, so that
the model is trained on the premium the customer is actually quoted."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
N_FEATURES, N_REGIONS = 6, 3
FLOORS = torch.tensor([200.0, 250.0, 300.0])
CAPS = torch.tensor([900.0, 1100.0, 1300.0])


def make_policies(n):
    x = torch.randn(n, N_FEATURES)
    region = torch.randint(0, N_REGIONS, (n,))
    premium = 500 + 120 * x[:, 0] - 80 * x[:, 1] + 60 * region + 30 * torch.randn(n)
    return x, region, premium


def apply_pricing_rules(raw, region):
    """Clip each raw premium into the [floor, cap] band of its region."""
    return torch.clamp(raw.squeeze(1), FLOORS[region], CAPS[region])


class PremiumModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.region_emb = nn.Embedding(N_REGIONS, 4)
        self.mlp = nn.Sequential(nn.Linear(N_FEATURES + 4, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x, region):
        return 500 + 100 * self.mlp(torch.cat([x, self.region_emb(region)], dim=1))


def train(model, loader, epochs):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(epochs):
        for x, region, target in loader:
            raw = model(x, region)
            quoted = apply_pricing_rules(raw, region)
            loss = F.smooth_l1_loss(quoted / 100, target / 100)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    x, region, premium = make_policies(96)
    loader = DataLoader(TensorDataset(x, region, premium), batch_size=32, shuffle=False)
    model = PremiumModel()
    train(model, loader, epochs=2)
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")
