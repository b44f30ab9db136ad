"""Next-frame video prediction on a stream of tiny synthetic videos (a bright dot bouncing in
an 8x8 box). A GRU-cell world model encodes each frame, advances its latent and decodes the
next frame. The long videos are cut into short clips; a Trainer with callback hooks trains
clip by clip and keeps the latent of the last frame in a RolloutState, so the next clip
starts from the context the model had built up."""
import math
from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F

SIZE, LATENT, CLIP_LEN, N_VIDEOS, N_FRAMES = 8, 32, 4, 4, 17


@dataclass
class RolloutState:
    latent: Optional[torch.Tensor] = None
    frames_seen: int = 0


class FramePredictor(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(SIZE * SIZE, LATENT), nn.Tanh())
        self.transition = nn.GRUCell(LATENT, LATENT)
        self.decoder = nn.Linear(LATENT, SIZE * SIZE)

    def forward(self, frames, latent):
        logits = []
        for t in range(frames.size(1)):
            latent = self.transition(self.encoder(frames[:, t]), latent)
            logits.append(self.decoder(latent))
        return torch.stack(logits, 1), latent


class PSNRLogger:
    def on_clip_end(self, trainer, clip_idx, loss, pred_logits, target):
        mse = F.mse_loss(torch.sigmoid(pred_logits), target).item()
        print(f"clip {clip_idx} frames {trainer.rollout.frames_seen} "
              f"bce {loss:.4f} psnr {10 * math.log10(1.0 / mse):.2f} dB")


class Trainer:
    def __init__(self, model, callbacks, lr=3e-3):
        self.model = model
        self.callbacks = callbacks
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.rollout = RolloutState()

    def training_step(self, clip):
        inputs, targets = clip[:, :-1], clip[:, 1:]
        logits, self.rollout.latent = self.model(inputs, self.rollout.latent)
        return F.binary_cross_entropy_with_logits(logits, targets), logits

    def fit(self, videos):
        self.rollout.latent = torch.zeros(videos.size(0), LATENT)
        n_clips = (videos.size(1) - 1) // CLIP_LEN
        for c in range(n_clips):
            clip = videos[:, c * CLIP_LEN:(c + 1) * CLIP_LEN + 1]
            loss, logits = self.training_step(clip)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.rollout.frames_seen += CLIP_LEN
            for cb in self.callbacks:
                cb.on_clip_end(self, c, loss.item(), logits.detach(), clip[:, 1:])


def bouncing_dot_videos(n_videos, n_frames):
    videos = torch.zeros(n_videos, n_frames, SIZE * SIZE)
    pos = torch.randint(0, SIZE, (n_videos, 2))
    vel = torch.randint(0, 2, (n_videos, 2)) * 2 - 1
    for t in range(n_frames):
        videos[torch.arange(n_videos), t, pos[:, 0] * SIZE + pos[:, 1]] = 1.0
        nxt = pos + vel
        bounce = (nxt < 0) | (nxt >= SIZE)
        vel = torch.where(bounce, -vel, vel)
        pos = pos + vel
    return videos


torch.manual_seed(0)
trainer = Trainer(FramePredictor(), [PSNRLogger()])
trainer.fit(bouncing_dot_videos(N_VIDEOS, N_FRAMES))
print(f"trained on {trainer.rollout.frames_seen} frames per video")
