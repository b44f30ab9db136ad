"""Seq2seq forecaster for hourly traffic counts: a GRU encoder, a GRUCell decoder fed its own
previous prediction for the next 6 hours, and an auxiliary head that reconstructs the last
observed hour from the encoder state. The two losses are backwarded separately so that
their gradient norms can be logged: the first backward keeps the graph, the second frees it."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

LOOKBACK, HORIZON, HID, BATCH, STEPS = 24, 6, 24, 8, 5


def traffic_windows(n):
    start = torch.randint(0, 200, (n, 1)).float()
    t = start + torch.arange(LOOKBACK + HORIZON).float()
    series = 1 + torch.sin(2 * math.pi * t / 24) + 0.1 * torch.randn_like(t)
    return series[:, :LOOKBACK], series[:, LOOKBACK:]


class Seq2SeqForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.GRU(1, HID, batch_first=True)
        self.decoder = nn.GRUCell(1, HID)
        self.out = nn.Linear(HID, 1)
        self.recon = nn.Linear(HID, 1)

    def forward(self, history):
        _, h = self.encoder(history.unsqueeze(-1))
        h = h[0]
        recon = self.recon(h).squeeze(-1)
        prev, preds = history[:, -1:], []
        for _ in range(HORIZON):
            h = self.decoder(prev, h)
            prev = self.out(h)
            preds.append(prev)
        return torch.cat(preds, 1), recon


def grad_norm(model):
    return math.sqrt(sum(p.grad.pow(2).sum().item() for p in model.parameters() if p.grad is not None))


torch.manual_seed(0)
model = Seq2SeqForecaster()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(STEPS):
    history, future = traffic_windows(BATCH)
    preds, recon = model(history)
    forecast_loss = F.mse_loss(preds, future)
    recon_loss = F.mse_loss(recon, history[:, -1])
    optimizer.zero_grad()
    forecast_loss.backward(retain_graph=True)
    forecast_norm = grad_norm(model)
    (0.1 * recon_loss).backward()
    optimizer.step()
    print(f"step {step} forecast {forecast_loss.item():.4f} recon {recon_loss.item():.4f} "
          f"forecast_grad_norm {forecast_norm:.4f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")
