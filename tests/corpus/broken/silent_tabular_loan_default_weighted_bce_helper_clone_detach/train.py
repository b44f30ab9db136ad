"""Loan-default classifier on synthetic applicant records: categorical columns (region,
employment type, loan purpose) go through embeddings, numeric columns through a small MLP,
and a shared head predicts default. About 1 in 5 loans defaults, so the loss up-weights
the positive class (losses.py)."""
import torch
import torch.nn as nn

from losses import accuracy, class_weighted_bce

CARDINALITIES = {"region": 6, "employment": 4, "purpose": 5}
N_NUMERIC, EMB_DIM, BATCH = 5, 4, 32


class LoanDefaultNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.embeddings = nn.ModuleDict(
            {name: nn.Embedding(card, EMB_DIM) for name, card in CARDINALITIES.items()})
        self.numeric = nn.Sequential(nn.Linear(N_NUMERIC, 16), nn.ReLU())
        self.head = nn.Sequential(nn.Linear(16 + EMB_DIM * len(CARDINALITIES), 16), nn.ReLU(),
                                  nn.Linear(16, 1))

    def forward(self, cats, nums):
        embedded = [self.embeddings[name](cats[:, i]) for i, name in enumerate(CARDINALITIES)]
        return self.head(torch.cat([self.numeric(nums), *embedded], dim=1)).squeeze(1)


def make_applicants(n):
    cats = torch.stack([torch.randint(0, card, (n,)) for card in CARDINALITIES.values()], dim=1)
    nums = torch.randn(n, N_NUMERIC)
    risk = 1.2 * nums[:, 0] - 0.8 * nums[:, 1] + 0.6 * (cats[:, 1] == 3).float() - 1.6
    target = (torch.rand(n) < torch.sigmoid(risk)).float()
    return cats, nums, target


def train(model, optimizer, data, epochs, pos_weight):
    cats, nums, target = data
    for epoch in range(epochs):
        model.train()
        for start in range(0, len(target), BATCH):
            sl = slice(start, start + BATCH)
            logits = model(cats[sl], nums[sl])
            loss = class_weighted_bce(logits, target[sl], pos_weight)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            acc = accuracy(model(cats, nums), target)
        print(f"epoch {epoch} loss {loss.item():.4f} train acc {acc:.3f}")


def main():
    torch.manual_seed(0)
    data = make_applicants(96)
    pos_rate = data[2].mean().item()
    model = LoanDefaultNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    train(model, optimizer, data, epochs=2, pos_weight=(1 - pos_rate) / max(pos_rate, 1e-3))
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")


if __name__ == "__main__":
    main()
