"""Autoregressive motion decoder trained on long clips cut into segments. Each decoding step
is wrapped in torch.utils.checkpoint to keep activation memory flat over long rollouts."""
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

POSE_DIM, HIDDEN, SEG_LEN, N_SEGMENTS, BATCH = 6, 32, 4, 5, 3


class MotionDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(POSE_DIM, HIDDEN)
        self.head = nn.Sequential(nn.Linear(HIDDEN, HIDDEN), nn.Tanh(), nn.Linear(HIDDEN, POSE_DIM))

    def step(self, prev_frame, h):
        h = self.cell(prev_frame, h)
        return self.head(h) + prev_frame, h

    def rollout(self, prev_frame, h, n_steps):
        frames = []
        for _ in range(n_steps):
            prev_frame, h = checkpoint(self.step, prev_frame, h, use_reentrant=False)
            frames.append(prev_frame)
        return torch.stack(frames, 1), prev_frame, h


def make_clip(n_frames):
    t = torch.linspace(0, 6.28, n_frames).view(1, -1, 1)
    phase = torch.rand(BATCH, 1, POSE_DIM) * 3.14
    return torch.sin(t + phase)


def main():
    torch.manual_seed(0)
    model = MotionDecoder()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    clip = make_clip(SEG_LEN * N_SEGMENTS + 1)
    prev_frame = clip[:, 0]
    h = torch.zeros(BATCH, HIDDEN)
    for seg in range(N_SEGMENTS):
        target = clip[:, 1 + seg * SEG_LEN: 1 + (seg + 1) * SEG_LEN]
        h = h.detach()
        prev_frame = prev_frame.detach()
        frames, prev_frame, h = model.rollout(prev_frame, h, SEG_LEN)
        loss = nn.functional.mse_loss(frames, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"segment {seg}: mse {loss.item():.5f}")


if __name__ == "__main__":
    main()
