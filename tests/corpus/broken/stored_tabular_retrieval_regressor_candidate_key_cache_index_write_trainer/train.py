"""Retrieval-augmented regression on a building-energy table (TabR-style): every row is
encoded to a key, and a prediction attends over the keys of the other training rows and
their known targets. Encoding all candidates at every step is too slow, so the trainer
keeps a key cache for the whole table and refreshes the rows of each batch after its
step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_ROWS, N_FEATURES, KEY_DIM, BATCH = 48, 7, 12, 12


class RetrievalRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(N_FEATURES, 32), nn.ReLU(), nn.Linear(32, KEY_DIM))
        self.value = nn.Linear(1, KEY_DIM)
        self.log_temp = nn.Parameter(torch.zeros(()))
        self.head = nn.Sequential(nn.Linear(2 * KEY_DIM, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, query, cand_keys, cand_targets, exclude):
        dist = (query[:, None, :] - cand_keys[None, :, :]).pow(2).sum(dim=2)
        scores = (-dist * self.log_temp.exp()).masked_fill(exclude, float("-inf"))
        weights = F.softmax(scores, dim=1)
        context = weights @ self.value(cand_targets[:, None])
        return self.head(torch.cat([query, context], dim=1)).squeeze(1)


def energy_table(gen):
    x = torch.randn(N_ROWS, N_FEATURES, generator=gen)
    y = 1.5 * x[:, 0] - 0.8 * x[:, 1] * x[:, 2] + 0.5 * torch.tanh(x[:, 3]) \
        + 0.1 * torch.randn(N_ROWS, generator=gen)
    return x, y


class Trainer:
    def __init__(self, model, x, y):
        self.model, self.x, self.y = model, x, y
        self.optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
        with torch.no_grad():
            self.cache = model.encoder(x)

    def step(self, idx):
        query = self.model.encoder(self.x[idx])
        exclude = torch.zeros(len(idx), N_ROWS, dtype=torch.bool)
        exclude[torch.arange(len(idx)), idx] = True
        pred = self.model(query, self.cache, self.y, exclude)
        loss = F.mse_loss(pred, self.y[idx])
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.cache[idx] = query
        return loss.item()

    def fit(self, epochs, gen):
        for epoch in range(epochs):
            order = torch.randperm(N_ROWS, generator=gen)
            losses = [self.step(order[i:i + BATCH]) for i in range(0, N_ROWS, BATCH)]
            print(f"epoch {epoch} mse {sum(losses) / len(losses):.4f}")


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(2)
    x, y = energy_table(gen)
    Trainer(RetrievalRegressor(), x, y).fit(epochs=2, gen=gen)


if __name__ == "__main__":
    main()
