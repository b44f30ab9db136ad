"""Hourly electricity-load forecaster trained on one long stream (truncated BPTT).

A step closure keeps the GRU hidden state between windows; it is detached
at every window boundary, so each backward only spans the current window.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LoadGRU(nn.Module):
    def __init__(self, hidden=10):
        super().__init__()
        self.gru = nn.GRU(2, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x, h):
        out, h = self.gru(x, h)
        return self.head(out).squeeze(-1), h


def make_step(model, optimizer, hidden=10):
    h = torch.zeros(1, 1, hidden)

    def step(x, y):
        nonlocal h
        pred, h_new = model(x, h)
        loss = F.mse_loss(pred, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        h = h_new.detach()
        return loss.item()

    def reset():
        nonlocal h
        h = torch.zeros_like(h)

    return step, reset


def load_stream(hours=120, seed=6):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(hours, dtype=torch.float32)
    daily = torch.sin(2 * torch.pi * t / 24)
    temp = 0.5 * torch.cos(2 * torch.pi * t / 24 + 0.7) + 0.1 * torch.randn(hours, generator=g)
    load = 0.8 * daily + 0.3 * temp + 0.05 * torch.randn(hours, generator=g)
    x = torch.stack([daily, temp], dim=-1).unsqueeze(0)
    return x[:, :-1], load[1:].unsqueeze(0)


def main():
    torch.manual_seed(0)
    model = LoadGRU()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    step, reset = make_step(model, optimizer)
    x, y = load_stream()
    window = 24
    for epoch in range(2):
        reset()
        losses = [step(x[:, s:s + window], y[:, s:s + window]) for s in range(0, x.shape[1] - window + 1, window)]
        print(f"epoch {epoch} " + " ".join(f"{l:.4f}" for l in losses))
    checksum = sum(p.detach().double().sum().item() for p in model.parameters())
    print(f"param checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
