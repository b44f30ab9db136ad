import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ResBlock(nn.Module):
    def __init__(self, ch, res_scale=0.1):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU(), nn.Conv2d(ch, ch, 3, padding=1))
        self.res_scale = res_scale

    def forward(self, x):
        return x + self.res_scale * self.body(x)


class EDSRLite(nn.Module):
    def __init__(self, ch=16, n_blocks=2, scale=2):
        super().__init__()
        self.head = nn.Conv2d(3, ch, 3, padding=1)
        self.body = nn.Sequential(*[ResBlock(ch) for _ in range(n_blocks)])
        self.tail = nn.Sequential(nn.Conv2d(ch, 3 * scale * scale, 3, padding=1), nn.PixelShuffle(scale))

    def forward(self, lr):
        h = self.head(lr)
        return self.tail(h + self.body(h))


class PSNRMeter:
    """Logs PSNR of the super-resolved batch without keeping another reference to it."""

    def __init__(self):
        self.history = []

    def on_step_end(self, trainer, loss, hr):
        sr = loss.grad_fn._saved_self
        mse = F.mse_loss(sr.clamp(0, 1), hr).item()
        self.history.append(10 * math.log10(1.0 / max(mse, 1e-10)))


class Trainer:
    def __init__(self, model, callbacks, lr=1e-3):
        self.model, self.callbacks = model, callbacks
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.gen = torch.Generator().manual_seed(6)

    def batch(self, n=4, size=16):
        hr = torch.rand(n, 3, size, size, generator=self.gen)
        return F.avg_pool2d(hr, 2), hr

    def fit(self, steps):
        for step in range(steps):
            lr_img, hr_img = self.batch()
            sr = self.model(lr_img)
            loss = F.mse_loss(sr, hr_img)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            for cb in self.callbacks:
                cb.on_step_end(self, loss, hr_img)
            print(f"step {step} mse {loss.item():.5f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    meter = PSNRMeter()
    Trainer(EDSRLite(), [meter]).fit(steps=4)
    print("psnr", [round(p, 2) for p in meter.history])
