"""Streaming contrastive predictive coding: frames arrive one at a time, their latents are
collected, and every few frames the encoder and predictor are updated with InfoNCE."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class StreamingCPC:
    def __init__(self, in_dim, latent_dim=8, update_every=3, temperature=0.5, lr=1e-2):
        self.encoder = nn.Sequential(nn.Linear(in_dim, 16), nn.GELU(), nn.Linear(16, latent_dim))
        self.predictor = nn.Linear(latent_dim, latent_dim)
        params = list(self.encoder.parameters()) + list(self.predictor.parameters())
        self.optimizer = torch.optim.Adam(params, lr=lr)
        self.update_every, self.temperature = update_every, temperature
        self.pending = {}

    def info_nce(self, context, future):
        pred = F.normalize(self.predictor(context), dim=-1)
        logits = pred @ F.normalize(future, dim=-1).t() / self.temperature
        return F.cross_entropy(logits, torch.arange(pred.size(0)))

    def update(self):
        steps = sorted(self.pending)
        losses = [self.info_nce(self.pending[a], self.pending[b]) for a, b in zip(steps, steps[1:])]
        loss = torch.stack(losses).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.pending.clear()
        return loss.item()

    def observe(self, t, frame):
        self.pending[t] = self.encoder(frame)
        if (t + 1) % self.update_every == 0:
            return self.update()
        return None
