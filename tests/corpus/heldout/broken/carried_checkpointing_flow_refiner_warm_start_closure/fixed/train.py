"""Small RAFT-style optical-flow refiner trained on synthetic translating textures.

Every refinement iteration runs under torch.utils.checkpoint (non-reentrant) to keep
activation memory flat in the number of iterations. Clips of one video come in order, so
each clip is warm-started from the flow estimated on the previous clip, the way RAFT
warm-starts at test time (make_warm_start keeps that estimate between clips).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
H = W = 12
BATCH, ITERS, CLIPS, GAMMA = 4, 4, 6, 0.8


class FeatureEncoder(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, dim, 3, padding=1), nn.GELU(),
                                 nn.Conv2d(dim, dim, 3, padding=1))

    def forward(self, img):
        return self.net(img)


class UpdateBlock(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.motion = nn.Conv2d(2 * dim + 2, 32, 3, padding=1)
        self.delta = nn.Conv2d(32, 2, 3, padding=1)

    def forward(self, f1, f2, flow):
        h = F.gelu(self.motion(torch.cat([f1, f2, flow], dim=1)))
        return flow + 0.5 * torch.tanh(self.delta(h))


class FlowRefiner(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = FeatureEncoder()
        self.update = UpdateBlock()

    def forward(self, img1, img2, flow_init):
        f1, f2 = self.encoder(img1), self.encoder(img2)
        flow, predictions = flow_init, []
        for _ in range(ITERS):
            flow = checkpoint(self.update, f1, f2, flow, use_reentrant=False)
            predictions.append(flow)
        return predictions


def make_warm_start():
    last_flow = None

    def get(batch):
        if last_flow is None:
            return torch.zeros(batch, 2, H, W)
        return last_flow

    def remember(flow):
        nonlocal last_flow
        last_flow = flow.detach()

    return get, remember


def sequence_loss(predictions, gt):
    n = len(predictions)
    return sum(GAMMA ** (n - i - 1) * (p - gt).abs().mean() for i, p in enumerate(predictions))


def make_clip(shifts):
    img1 = torch.randn(BATCH, 1, H, W)
    img2 = torch.stack([torch.roll(img1[b], shifts=(int(s[0]), int(s[1])), dims=(1, 2))
                        for b, s in enumerate(shifts)])
    gt = shifts.float()[:, [1, 0], None, None].expand(BATCH, 2, H, W)
    return img1, img2, gt


model = FlowRefiner()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
get_init, remember = make_warm_start()
video_shifts = torch.randint(-2, 3, (BATCH, 2))

for clip in range(CLIPS):
    img1, img2, gt = make_clip(video_shifts)
    predictions = model(img1, img2, get_init(BATCH))
    loss = sequence_loss(predictions, gt)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    remember(predictions[-1])
    epe = (predictions[-1] - gt).norm(dim=1).mean()
    print(f"clip {clip}  loss {loss.item():.4f}  epe {epe.item():.4f}")
