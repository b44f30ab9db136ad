"""Seq2seq load forecaster: a GRU encoder reads the recent window, a GRU cell decoder rolls
out the next hours autoregressively. An online bias term, kept on the model, is learnt from
the residuals of recent batches and added to every forecast."""
import torch
import torch.nn as nn


class LoadForecaster(nn.Module):
    def __init__(self, n_features=2, hidden=24, bias_momentum=0.8):
        super().__init__()
        self.encoder = nn.GRU(n_features, hidden, batch_first=True)
        self.decoder = nn.GRUCell(1, hidden)
        self.head = nn.Linear(hidden, 1)
        self.bias_momentum = bias_momentum
        self.bias = torch.zeros(1)

    def forward(self, window, seed, horizon):
        """window: (B, T, n_features); seed: (B, 1) first decoder input."""
        _, h = self.encoder(window)
        h = h[0]
        step_in, outputs = seed, []
        for _ in range(horizon):
            h = self.decoder(step_in, h)
            step_in = self.head(h)
            outputs.append(step_in)
        return torch.cat(outputs, dim=1) + self.bias

    def observe(self, forecast, target):
        """Track the mean residual so that the next forecasts are corrected for drift."""
        residual = (target - forecast).mean().detach()
        self.bias = self.bias_momentum * self.bias + (1 - self.bias_momentum) * residual
