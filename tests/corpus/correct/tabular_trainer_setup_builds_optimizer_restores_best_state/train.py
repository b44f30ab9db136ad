"""House-price regression on a mixed table. The Trainer only knows the encoded input width
after setup() has seen the data, so it builds the network *and then* its optimizer there.
When a validation epoch gets worse it rolls the weights back to the best epoch (deep-copied
state_dict, loaded in place) and halves the learning rate."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, hidden=32, lr=3e-2):
        self.hidden, self.lr = hidden, lr
        self.model = None
        self.optimizer = None
        self.best_state, self.best_val = None, float("inf")

    def setup(self, features):
        self.mean, self.std = features.mean(0), features.std(0) + 1e-6
        self.model = nn.Sequential(nn.Linear(features.shape[1], self.hidden), nn.SiLU(),
                                   nn.Linear(self.hidden, self.hidden), nn.SiLU(),
                                   nn.Linear(self.hidden, 1))
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=self.lr)

    def _batches(self, x, y, batch_size):
        for start in range(0, len(x), batch_size):
            yield (x[start:start + batch_size] - self.mean) / self.std, y[start:start + batch_size]

    @torch.no_grad()
    def validate(self, x, y):
        self.model.eval()
        val = F.mse_loss(self.model((x - self.mean) / self.std).squeeze(1), y).item()
        self.model.train()
        return val

    def fit(self, x, y, x_val, y_val, epochs=5, batch_size=32):
        for epoch in range(epochs):
            for xb, yb in self._batches(x, y, batch_size):
                loss = F.mse_loss(self.model(xb).squeeze(1), yb)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            val = self.validate(x_val, y_val)
            if val < self.best_val:
                self.best_val, self.best_state = val, copy.deepcopy(self.model.state_dict())
            else:
                self.model.load_state_dict(self.best_state)
                for group in self.optimizer.param_groups:
                    group["lr"] *= 0.5
            print(f"epoch {epoch} train {loss.item():.4f} val {val:.4f} best {self.best_val:.4f}")


def encode(n, gen):
    area = torch.rand(n, 1, generator=gen) * 3
    rooms = torch.randint(1, 6, (n,), generator=gen)
    district = torch.randint(0, 4, (n,), generator=gen)
    x = torch.cat([area, rooms.float().unsqueeze(1), F.one_hot(rooms - 1, 5).float(),
                   F.one_hot(district, 4).float()], dim=1)
    y = 1.5 * area.squeeze(1) + 0.2 * rooms + torch.tensor([0.0, 0.5, 1.0, -0.5])[district]
    return x, y + 0.1 * torch.randn(n, generator=gen)


torch.manual_seed(0)
gen = torch.Generator().manual_seed(7)
x, y = encode(96, gen)
x_val, y_val = encode(32, gen)
trainer = Trainer()
trainer.setup(x)
trainer.fit(x, y, x_val, y_val)
checksum = sum(p.detach().double().sum().item() for p in trainer.model.parameters())
print(f"parameter checksum {checksum:.6f}")
