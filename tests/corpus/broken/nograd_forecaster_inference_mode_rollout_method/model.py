"""Autoregressive load forecaster: an LSTM encoder over the history and a one-step head.
rollout() feeds each prediction back in to produce a multi-step forecast; the serving
code calls it directly."""
import torch
import torch.nn as nn


class Forecaster(nn.Module):
    def __init__(self, n_features=1, hidden=24):
        super().__init__()
        self.encoder = nn.LSTM(n_features, hidden, batch_first=True)
        self.head = nn.Linear(hidden, n_features)

    def forward(self, history):
        out, _ = self.encoder(history)
        return self.head(out[:, -1])

    @torch.inference_mode()
    def rollout(self, history, horizon):
        preds = []
        window = history
        for _ in range(horizon):
            nxt = self(window)
            preds.append(nxt)
            window = torch.cat([window[:, 1:], nxt[:, None]], dim=1)
        return torch.stack(preds, dim=1)
