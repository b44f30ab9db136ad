"""Super-resolution trainer that peeks at loss.grad_fn._saved_self for a PSNR log; the read
happens before loss.backward(), while the saved tensor is still alive."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ESPCN(nn.Module):
    def __init__(self, scale=2, ch=16):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, ch, 5, padding=2),
            nn.Tanh(),
            nn.Conv2d(ch, ch, 3, padding=1),
            nn.Tanh(),
            nn.Conv2d(ch, 3 * scale * scale, 3, padding=1),
        )
        self.shuffle = nn.PixelShuffle(scale)

    def forward(self, x):
        return self.shuffle(self.body(x))


class Trainer:
    def __init__(self):
        torch.manual_seed(0)
        self.model = ESPCN()
        self.opt = torch.optim.Adam(self.model.parameters(), lr=2e-3)
        self.gen = torch.Generator().manual_seed(31)
        self.psnr = []

    def step(self):
        hr = torch.rand(4, 3, 16, 16, generator=self.gen)
        lr = F.avg_pool2d(hr, 2)
        loss = F.mse_loss(self.model(lr), hr)
        sr = loss.grad_fn._saved_self.detach()
        mse = F.mse_loss(sr.clamp(0, 1), hr).item()
        self.psnr.append(10 * math.log10(1.0 / mse))
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    def run(self, steps=5):
        for i in range(steps):
            print(f"step {i} mse {self.step():.6f} psnr {self.psnr[-1]:.4f}")
        checksum = sum(p.detach().double().sum().item() for p in self.model.parameters())
        print(f"checksum {checksum:.6f}")


if __name__ == "__main__":
    Trainer().run()
