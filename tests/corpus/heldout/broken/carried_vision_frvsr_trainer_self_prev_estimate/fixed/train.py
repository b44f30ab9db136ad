"""Frame-recurrent video super-resolution (FRVSR-style, x2) on synthetic drifting blobs.

The network sees the current low-res frame together with its own previous high-res
estimate (space-to-depth), so each video is processed frame after frame. Training cuts a
video into short clips and backpropagates through the frames of a clip.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

SCALE, LR_SIZE, CLIP_LEN, CLIPS_PER_VIDEO, VIDEOS = 2, 8, 3, 3, 2


class FrameRecurrentSR(nn.Module):
    def __init__(self, width=24):
        super().__init__()
        in_ch = 1 + SCALE * SCALE
        self.body = nn.Sequential(
            nn.Conv2d(in_ch, width, 3, padding=1), nn.LeakyReLU(0.1),
            nn.Conv2d(width, width, 3, padding=1), nn.LeakyReLU(0.1),
            nn.Conv2d(width, SCALE * SCALE, 3, padding=1),
        )

    def forward(self, lr, prev_sr):
        x = torch.cat([lr, F.pixel_unshuffle(prev_sr, SCALE)], dim=1)
        residual = F.pixel_shuffle(self.body(x), SCALE)
        base = F.interpolate(lr, scale_factor=SCALE, mode="bilinear", align_corners=False)
        return base + residual


def render_video(n_frames, seed):
    g = torch.Generator().manual_seed(seed)
    size = LR_SIZE * SCALE
    ys, xs = torch.meshgrid(torch.arange(size).float(), torch.arange(size).float(), indexing="ij")
    cy, cx = torch.rand(2, generator=g) * size
    vy, vx = torch.randn(2, generator=g) * 0.7
    frames = []
    for t in range(n_frames):
        blob = torch.exp(-((ys - cy - vy * t) ** 2 + (xs - cx - vx * t) ** 2) / 8.0)
        frames.append(blob[None, None])
    hr = torch.cat(frames)                      # (T, 1, 16, 16)
    lr = F.avg_pool2d(hr, SCALE)                # (T, 1, 8, 8)
    return lr, hr


class VSRTrainer:
    def __init__(self, model, lr=2e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.prev_sr = None

    def start_video(self):
        self.prev_sr = torch.zeros(1, 1, LR_SIZE * SCALE, LR_SIZE * SCALE)

    def train_clip(self, lr_frames, hr_frames):
        self.prev_sr = self.prev_sr.detach()  # truncate BPTT at the clip boundary
        loss = 0.0
        for lr, hr in zip(lr_frames, hr_frames):
            sr = self.model(lr[None], self.prev_sr)
            self.prev_sr = sr
            loss = loss + F.mse_loss(sr, hr[None])
        loss = loss / len(lr_frames)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


def main():
    torch.manual_seed(0)
    trainer = VSRTrainer(FrameRecurrentSR())
    for video in range(VIDEOS):
        lr_video, hr_video = render_video(CLIP_LEN * CLIPS_PER_VIDEO, seed=video)
        trainer.start_video()
        for c in range(CLIPS_PER_VIDEO):
            span = slice(c * CLIP_LEN, (c + 1) * CLIP_LEN)
            mse = trainer.train_clip(lr_video[span], hr_video[span])
            print(f"video {video} clip {c}  mse {mse:.5f}  psnr {10 * math.log10(1 / mse):.2f} dB")


if __name__ == "__main__":
    main()
