"""Binary lesion segmentation with a two-level U-Net on synthetic 24x24 scans, moved onto
the team's Runtime wrapper (gradient accumulation over 2 micro-batches)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from runtime import Runtime


def block(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU())


class TinyUNet(nn.Module):
    def __init__(self, width=8):
        super().__init__()
        self.enc1 = block(1, width)
        self.enc2 = block(width, 2 * width)
        self.up = nn.ConvTranspose2d(2 * width, width, 2, stride=2)
        self.dec1 = block(2 * width, width)
        self.head = nn.Conv2d(width, 1, 1)

    def forward(self, x):
        s1 = self.enc1(x)
        bottom = self.enc2(F.max_pool2d(s1, 2))
        d1 = self.dec1(torch.cat([self.up(bottom), s1], dim=1))
        return self.head(d1)


def dice_bce(logits, masks, eps=1.0):
    probs = torch.sigmoid(logits)
    inter = (probs * masks).sum(dim=(1, 2, 3))
    dice = 1 - (2 * inter + eps) / (probs.sum(dim=(1, 2, 3)) + masks.sum(dim=(1, 2, 3)) + eps)
    return F.binary_cross_entropy_with_logits(logits, masks) + dice.mean()


def synthetic_scans(n, gen):
    yy, xx = torch.meshgrid(torch.arange(24.0), torch.arange(24.0), indexing="ij")
    centers = torch.randint(6, 18, (n, 2), generator=gen).float()
    dist = (yy - centers[:, 0, None, None]) ** 2 + (xx - centers[:, 1, None, None]) ** 2
    masks = (dist < 16).float().unsqueeze(1)
    scans = masks * 1.5 + 0.5 * torch.randn(n, 1, 24, 24, generator=gen)
    return scans, masks


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    scans, masks = synthetic_scans(24, gen)

    runtime = Runtime(grad_accum_steps=2, max_grad_norm=1.0)
    model = TinyUNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    model, optimizer = runtime.prepare(model, optimizer)

    model.train()
    for i in range(6):
        x, y = scans[i * 4:(i + 1) * 4], masks[i * 4:(i + 1) * 4]
        logits = model(x)
        loss = dice_bce(logits, y)
        loss.backward()
        runtime.backward(loss)
        stepped = runtime.step(model, optimizer)
        print(f"micro-step {i} loss {loss.item():.4f} {'update' if stepped else 'accumulate'}")


if __name__ == "__main__":
    main()
