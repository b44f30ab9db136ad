"""Real-estate listings: predict the log sale price and whether the home sells within
30 days from numeric features (area, rooms, age, distance) and a neighbourhood id."""
import torch
import torch.nn as nn

from objectives import ListingObjective

N_NUM, N_HOODS, BATCH = 4, 7, 24


class ListingNet(nn.Module):
    def __init__(self, hidden=24):
        super().__init__()
        self.hood = nn.Embedding(N_HOODS, 4)
        self.trunk = nn.Sequential(nn.Linear(N_NUM + 4, hidden), nn.ReLU(),
                                   nn.Linear(hidden, hidden), nn.ReLU())
        self.price_head = nn.Linear(hidden, 1)
        self.sold_head = nn.Linear(hidden, 1)

    def forward(self, num, hood):
        h = self.trunk(torch.cat([num, self.hood(hood)], dim=1))
        return {"log_price": self.price_head(h).squeeze(1), "sold": self.sold_head(h).squeeze(1)}


def make_listings(n, gen):
    num = torch.randn(n, N_NUM, generator=gen)
    hood = torch.randint(0, N_HOODS, (n,), generator=gen)
    hood_premium = torch.linspace(-0.5, 0.5, N_HOODS)
    log_price = 12 + 0.4 * num[:, 0] + 0.2 * num[:, 1] - 0.1 * num[:, 2] + hood_premium[hood]
    log_price = (log_price - 12) + 0.05 * torch.randn(n, generator=gen)
    sold_logit = -0.8 * num[:, 3] - 0.5 * hood_premium[hood] + 0.3 * num[:, 0]
    sold = (torch.rand(n, generator=gen) < torch.sigmoid(sold_logit)).float()
    return num, hood, {"log_price": log_price, "sold": sold}


torch.manual_seed(0)
gen = torch.Generator().manual_seed(0)
num, hood, targets = make_listings(72, gen)
model = ListingNet()
objective = ListingObjective()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)

for epoch in range(2):
    for start in range(0, len(hood), BATCH):
        sl = slice(start, start + BATCH)
        outputs = model(num[sl], hood[sl])
        loss, per_task = objective(outputs, {k: v[sl] for k, v in targets.items()})
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f} price mse {per_task[0].item():.4f} "
          f"sold bce {per_task[1].item():.4f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")
