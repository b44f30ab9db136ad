"""Retail demand forecaster with a per-store context memory: the GRU summary of the last
window seen for a store is kept in a dict and given to the model the next time that store
comes round, so that it can condition on recent history beyond its lookback."""
import torch
import torch.nn as nn
import torch.nn.functional as F

LOOKBACK, HORIZON, HIDDEN, N_STORES = 14, 7, 24, 3


class MemoryForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(1, HIDDEN, batch_first=True)
        self.gate = nn.Linear(2 * HIDDEN, HIDDEN)
        self.head = nn.Linear(HIDDEN, HORIZON)

    def forward(self, history, memory):
        _, h = self.gru(history.unsqueeze(-1))
        summary = h[-1]
        if memory is None:
            memory = torch.zeros_like(summary[:1])
        ctx = memory.expand_as(summary)
        g = torch.sigmoid(self.gate(torch.cat([summary, ctx], dim=-1)))
        fused = g * summary + (1 - g) * ctx
        return self.head(fused), summary.mean(dim=0, keepdim=True)


def store_batches(n_weeks, batch=6):
    """Yields (store, history, target) mini-batches, round-robin over the stores."""
    t = torch.arange(LOOKBACK + HORIZON, dtype=torch.float32)
    for week in range(n_weeks):
        for store in range(N_STORES):
            base = 5.0 + 2.0 * store
            weekly = torch.sin(2 * 3.14159 * (t + week) / 7.0)
            series = base + weekly + 0.2 * torch.randn(batch, t.numel())
            yield store, series[:, :LOOKBACK], series[:, LOOKBACK:]


def main():
    torch.manual_seed(0)
    model = MemoryForecaster()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    memory = {}
    for step, (store, history, target) in enumerate(store_batches(n_weeks=2)):
        scale = history.mean(dim=1, keepdim=True)
        pred, summary = model(history / scale, memory.get(store))
        memory[store] = summary.detach()
        loss = F.l1_loss(pred * scale, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} store {store} mae {loss.item():.4f}")
    print("stores in memory", sorted(memory))
    return model


if __name__ == "__main__":
    main()
