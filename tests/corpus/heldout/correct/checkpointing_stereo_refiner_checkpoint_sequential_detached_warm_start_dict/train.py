"""Iterative disparity refinement for a stereo video (RAFT-Stereo flavour) on synthetic
shifted textures. The feature encoder runs through checkpoint_sequential (with in-place
ReLUs inside), every refinement iteration runs under checkpoint, and consecutive frame
pairs are warm-started from the previous pair's final disparity kept in a state dict."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

H, W, BATCH, ITERS, FRAMES = 10, 16, 4, 3, 6


class StereoRefiner(nn.Module):
    def __init__(self, dim=12):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(1, dim, 3, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(dim, dim, 3, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(dim, dim, 3, padding=1),
        )
        self.update = nn.Sequential(
            nn.Conv2d(2 * dim + 1, 24, 3, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(24, 1, 3, padding=1),
        )

    def step(self, fl, fr, disp):
        return disp + 0.5 * torch.tanh(self.update(torch.cat([fl, fr, disp], dim=1)))

    def forward(self, left, right, disp):
        fl = checkpoint_sequential(self.encoder, 2, left, use_reentrant=False)
        fr = checkpoint_sequential(self.encoder, 2, right, use_reentrant=False)
        preds = []
        for _ in range(ITERS):
            disp = checkpoint(self.step, fl, fr, disp, use_reentrant=False)
            preds.append(disp)
        return preds


def frame_pair(gen, shift):
    left = torch.randn(BATCH, 1, H, W, generator=gen)
    right = torch.roll(left, shifts=-shift, dims=3)
    return left, right, torch.full((BATCH, 1, H, W), float(shift))


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(6)
    model = StereoRefiner()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    state = {"disp": torch.zeros(BATCH, 1, H, W)}
    for frame in range(FRAMES):
        left, right, gt = frame_pair(gen, shift=2)
        preds = model(left, right, state["disp"])
        loss = sum(0.8 ** (ITERS - 1 - i) * F.smooth_l1_loss(p, gt) for i, p in enumerate(preds))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        state["disp"] = preds[-1].detach()
        print(f"frame {frame}  loss {loss.item():.4f}  epe {(preds[-1] - gt).abs().mean().item():.4f}")
    print(f"parameter checksum {sum(p.double().sum().item() for p in model.parameters()):.6f}")


if __name__ == "__main__":
    main()
