"""Closed-loop next-frame prediction on a synthetic "moving bar" video (a bright vertical bar
sweeping across a 12x12 frame). A small residual conv net predicts frame t+1 from frame t
and is rolled out autoregressively over short clips. To teach it to recover from its own
drift, each clip after the first is started from the model's last predicted frame instead
of the ground truth: the clip feeder is a coroutine that receives that frame through
send() and hands it back as the context of the next clip."""
import torch
import torch.nn as nn
import torch.nn.functional as F

SIZE, CLIP, N_FRAMES, BATCH = 12, 3, 19, 4


class ResidualFramePredictor(nn.Module):
    def __init__(self, width=8):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
        )
        self.delta = nn.Conv2d(width, 1, 3, padding=1)

    def forward(self, frame):
        return (frame + self.delta(self.body(frame))).clamp(0.0, 1.0)

    def rollout(self, context, steps):
        frames, frame = [], context
        for _ in range(steps):
            frame = self(frame)
            frames.append(frame)
        return torch.stack(frames, 1)


def moving_bars(batch, n_frames):
    video = torch.zeros(batch, n_frames, 1, SIZE, SIZE)
    x0 = torch.randint(0, SIZE, (batch,))
    speed = torch.randint(1, 3, (batch,))
    for t in range(n_frames):
        cols = (x0 + speed * t) % SIZE
        video[torch.arange(batch), t, 0, :, cols] = 1.0
    return video


def clip_feeder(video, clip_len):
    """Yields (context_frame, target_clip); the caller sends back the frame to start the
    next clip from (its own last prediction)."""
    context = video[:, 0]
    for start in range(0, video.size(1) - clip_len, clip_len):
        target = video[:, start + 1:start + 1 + clip_len]
        context = yield context, target


def train(model, optimizer, video):
    feeder = clip_feeder(video, CLIP)
    context, target = next(feeder)
    clip_idx = 0
    while True:
        pred = model.rollout(context, CLIP)
        loss = F.mse_loss(pred, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"clip {clip_idx} rollout mse {loss.item():.4f}")
        clip_idx += 1
        try:
            context, target = feeder.send(pred[:, -1])
        except StopIteration:
            return clip_idx


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ResidualFramePredictor()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    n = train(model, optimizer, moving_bars(BATCH, N_FRAMES))
    print(f"trained on {n} clips")
