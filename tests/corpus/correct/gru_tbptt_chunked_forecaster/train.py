"""Electricity-load style forecaster trained with truncated BPTT.

One long multivariate series is processed in chunks of K steps by an unrolled GRUCell.
The hidden state lives in a small dict across chunks and is detached at every chunk
boundary, right after the optimizer step, so the next chunk starts from its value but
backpropagates only through its own K steps.
"""
import math

import torch
import torch.nn as nn

torch.manual_seed(4)
K, HIDDEN, N_CHUNKS = 8, 24, 6


class Forecaster(nn.Module):
    def __init__(self, n_features=3):
        super().__init__()
        self.cell = nn.GRUCell(n_features, HIDDEN)
        self.readout = nn.Sequential(nn.Linear(HIDDEN, 16), nn.Tanh(), nn.Linear(16, 1))

    def step(self, x_t, h):
        h = self.cell(x_t, h)
        return self.readout(h).squeeze(-1), h


def make_series(length, batch=5):
    t = torch.arange(length, dtype=torch.float32)
    phase = torch.rand(batch, 1) * 2 * math.pi
    load = torch.sin(2 * math.pi * t / 24 + phase) + 0.3 * torch.sin(2 * math.pi * t / 7)
    temp = torch.cos(2 * math.pi * t / 24 + phase)
    noise = 0.05 * torch.randn(batch, length)
    features = torch.stack([load + noise, temp, (t % 24 / 24).expand(batch, -1)], dim=-1)
    return features, load


def train():
    features, load = make_series(K * N_CHUNKS + 1)
    model = Forecaster()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    state = {"h": torch.zeros(features.shape[0], HIDDEN)}
    for chunk in range(N_CHUNKS):
        loss = 0.0
        for t in range(chunk * K, (chunk + 1) * K):
            pred, state["h"] = model.step(features[:, t], state["h"])
            loss = loss + nn.functional.mse_loss(pred, load[:, t + 1])
        loss = loss / K
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        state["h"] = state["h"].detach()
        print(f"chunk {chunk} loss {loss.item():.6f} |h| {state['h'].norm().item():.6f}")
    return model


if __name__ == "__main__":
    trained = train()
    print(f"checksum {sum(p.sum().item() for p in trained.parameters()):.6f}")
