"""Closed-loop next-frame prediction on a synthetic "moving bar" video. A residual conv net
predicts frame t+1 from frame t and is rolled out autoregressively over each clip, with
gradients flowing through the fed-back predictions inside the clip. Between clips, the
coroutine feeder receives the model's last frame (as a value, without its graph) and
starts the next clip from it, and tracks how far the rollout drifted from the truth."""
import torch
import torch.nn as nn
import torch.nn.functional as F

SIZE, CLIP, N_FRAMES, BATCH, EPOCHS = 12, 3, 13, 4, 2


class ResidualFramePredictor(nn.Module):
    def __init__(self, width=8):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
        )
        self.delta = nn.Conv2d(width, 1, 3, padding=1)

    def forward(self, frame):
        return torch.sigmoid(4 * (frame - 0.5) + self.delta(self.body(frame)))

    def rollout(self, context, steps):
        frames, frame = [], context
        for _ in range(steps):
            frame = self(frame)
            frames.append(frame)
        return torch.stack(frames, 1)


def moving_bars(batch, n_frames, gen):
    video = torch.zeros(batch, n_frames, 1, SIZE, SIZE)
    x0 = torch.randint(0, SIZE, (batch,), generator=gen)
    speed = torch.randint(1, 3, (batch,), generator=gen)
    for t in range(n_frames):
        video[torch.arange(batch), t, 0, :, (x0 + speed * t) % SIZE] = 1.0
    return video


def clip_feeder(video, clip_len, drift_log):
    context = video[:, 0]
    for start in range(0, video.size(1) - clip_len, clip_len):
        target = video[:, start + 1:start + 1 + clip_len]
        last = yield context, target
        drift_log.append(F.l1_loss(last, target[:, -1]).item())
        context = last


def train_epoch(model, optimizer, video):
    drift = []
    feeder = clip_feeder(video, CLIP, drift)
    context, target = next(feeder)
    losses = []
    while True:
        pred = model.rollout(context, CLIP)
        loss = F.binary_cross_entropy(pred, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        try:
            context, target = feeder.send(pred[:, -1].detach())
        except StopIteration:
            return losses, drift


if __name__ == "__main__":
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(3)
    model = ResidualFramePredictor()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(EPOCHS):
        losses, drift = train_epoch(model, optimizer, moving_bars(BATCH, N_FRAMES, gen))
        print(f"epoch {epoch} clip bce " + " ".join(f"{l:.4f}" for l in losses)
              + " | drift " + " ".join(f"{d:.3f}" for d in drift))
    print(f"parameter checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
