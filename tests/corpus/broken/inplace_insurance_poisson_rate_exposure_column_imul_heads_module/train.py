"""Joint claim-frequency / claim-severity model for motor insurance policies."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from heads import FrequencySeverityHead, apply_exposure


def synthetic_portfolio(n, n_features, gen):
    x = torch.randn(n, n_features, generator=gen)
    exposure = torch.rand(n, generator=gen) * 0.9 + 0.1
    true_freq = torch.exp(0.3 * x[:, 0] - 1.5)
    counts = torch.poisson(true_freq * exposure, generator=gen)
    log_severity = 1.0 + 0.2 * x[:, 1] + 0.1 * torch.randn(n, generator=gen)
    return x, exposure, counts, log_severity


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=1e-2)
    args = parser.parse_args()

    torch.manual_seed(5)
    gen = torch.Generator().manual_seed(5)
    x, exposure, counts, log_sev = synthetic_portfolio(96, 7, gen)

    trunk = nn.Sequential(nn.Linear(7, 24), nn.ReLU())
    head = FrequencySeverityHead(24)
    opt = torch.optim.SGD(list(trunk.parameters()) + list(head.parameters()), lr=args.lr)

    for epoch in range(args.epochs):
        for start in range(0, len(x), args.batch_size):
            sl = slice(start, start + args.batch_size)
            rates = head(trunk(x[sl]))
            rates = apply_exposure(rates, exposure[sl])
            freq_loss = F.poisson_nll_loss(rates[:, 0], counts[sl], log_input=False)
            sev_loss = F.mse_loss(torch.log(rates[:, 1]), log_sev[sl])
            loss = freq_loss + sev_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            print(f"epoch {epoch} batch {start // args.batch_size}: loss={loss.item():.4f}")


if __name__ == "__main__":
    main()
