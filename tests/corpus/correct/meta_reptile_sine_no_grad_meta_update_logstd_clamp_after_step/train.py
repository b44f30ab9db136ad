"""Reptile on heteroscedastic sine regression. For each task a copy of the meta-model is
fine-tuned with its own SGD optimizer; the learned log-std head is clamped in place after
every inner step, and the meta-model moves towards the adapted weights with an in-place
update under torch.no_grad()."""
import copy
import math

import torch
import torch.nn as nn

INNER_STEPS, META_ITERS, META_LR, INNER_LR = 4, 6, 0.3, 0.02


class SineNet(nn.Module):
    def __init__(self, hidden=40):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(1, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.mean = nn.Linear(hidden, 1)
        self.log_std = nn.Linear(hidden, 1)

    def forward(self, x):
        h = self.body(x)
        return self.mean(h), self.log_std(h)


def gaussian_nll(mean, log_std, y):
    return (log_std + 0.5 * ((y - mean) / log_std.exp()) ** 2 + 0.5 * math.log(2 * math.pi)).mean()


def sample_task(gen):
    amp = 0.5 + 4.5 * torch.rand(1, generator=gen).item()
    phase = math.pi * torch.rand(1, generator=gen).item()

    def draw(n):
        x = torch.rand(n, 1, generator=gen) * 10 - 5
        y = amp * torch.sin(x + phase) + 0.1 * torch.randn(n, 1, generator=gen)
        return x, y

    return draw


def adapt(meta_model, draw):
    fast = copy.deepcopy(meta_model)
    inner_opt = torch.optim.SGD(fast.parameters(), lr=INNER_LR)
    for _ in range(INNER_STEPS):
        x, y = draw(10)
        loss = gaussian_nll(*fast(x), y)
        inner_opt.zero_grad()
        loss.backward()
        inner_opt.step()
        with torch.no_grad():
            fast.log_std.bias.clamp_(-3.0, 2.0)
    return fast, loss.item()


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    meta_model = SineNet()
    for it in range(META_ITERS):
        draw = sample_task(gen)
        fast, inner_loss = adapt(meta_model, draw)
        with torch.no_grad():
            for p_meta, p_fast in zip(meta_model.parameters(), fast.parameters()):
                p_meta.add_(p_fast - p_meta, alpha=META_LR)
        x_val, y_val = draw(20)
        with torch.no_grad():
            val = gaussian_nll(*fast(x_val), y_val).item()
        print(f"meta iter {it} inner nll {inner_loss:.4f} adapted val nll {val:.4f}")
    checksum = sum(p.double().sum().item() for p in meta_model.parameters())
    print(f"meta param checksum {checksum:.6f}")
    return meta_model


if __name__ == "__main__":
    main()
