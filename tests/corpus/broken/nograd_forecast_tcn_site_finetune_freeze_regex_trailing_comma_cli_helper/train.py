"""Adapt a load forecaster pretrained on the utility's main substation to a new site: restore
the pretrained TCN, keep its early layers fixed (--freeze) and fine-tune the rest on a few
weeks of the new site's hourly load."""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from finetune import freeze_by_regex, trainable_summary

LOOKBACK, HORIZON, N_COVARIATES = 48, 12, 3


class CausalBlock(nn.Module):
    def __init__(self, channels, dilation):
        super().__init__()
        self.pad = 2 * dilation
        self.conv = nn.Conv1d(channels, channels, kernel_size=3, dilation=dilation)
        self.norm = nn.GroupNorm(1, channels)

    def forward(self, x):
        h = self.conv(F.pad(x, (self.pad, 0)))
        return x + F.gelu(self.norm(h))


class TCNForecaster(nn.Module):
    def __init__(self, channels=16):
        super().__init__()
        self.embed = nn.Conv1d(1 + N_COVARIATES, channels, kernel_size=1)
        self.blocks = nn.ModuleList([CausalBlock(channels, d) for d in (1, 2, 4)])
        self.head = nn.Linear(channels, HORIZON)

    def forward(self, load, covariates):
        x = self.embed(torch.cat([load.unsqueeze(1), covariates], dim=1))
        for block in self.blocks:
            x = block(x)
        return self.head(x[:, :, -1])


def site_windows(n, gen):
    t = torch.arange(LOOKBACK + HORIZON, dtype=torch.float32)
    phase = torch.rand(n, 1, generator=gen) * 24
    daily = torch.sin(2 * math.pi * (t + phase) / 24)
    temp = 0.5 * torch.randn(n, 1, generator=gen) + 0.2 * daily
    load = 1.0 + 0.6 * daily + 0.3 * temp + 0.05 * torch.randn(n, LOOKBACK + HORIZON, generator=gen)
    hour = torch.stack([torch.sin(2 * math.pi * (t + phase) / 24),
                        torch.cos(2 * math.pi * (t + phase) / 24)], dim=1)
    covariates = torch.cat([hour, temp.expand(-1, LOOKBACK + HORIZON).unsqueeze(1)], dim=1)
    return load[:, :LOOKBACK], covariates[:, :, :LOOKBACK], load[:, LOOKBACK:]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--freeze", default="")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--lr", type=float, default=3e-3)
    args = parser.parse_args()

    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(5)
    pretrained = TCNForecaster().state_dict()
    model = TCNForecaster()
    model.load_state_dict(pretrained)
    if args.freeze:
        frozen = freeze_by_regex(model, args.freeze)
        print(f"froze {len(frozen)} tensors, {trainable_summary(model)}")

    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    load, covariates, future = site_windows(64, gen)
    for epoch in range(args.epochs):
        for start in range(0, 64, 32):
            pred = model(load[start:start + 32], covariates[start:start + 32])
            loss = F.smooth_l1_loss(pred, future[start:start + 32], beta=0.1)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} huber {loss.item():.4f}")


if __name__ == "__main__":
    main()
