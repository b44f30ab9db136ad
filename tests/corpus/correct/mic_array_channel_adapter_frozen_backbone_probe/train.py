"""Sound-event classification on a 6-microphone array with a backbone pretrained on stereo
audio. A trainable 1x1 channel adapter maps the 6 array channels to the 2 channels the
backbone expects, the backbone stays frozen (requires_grad off, eval mode, not in the
optimizer) and a linear probe reads its pooled features. Pooled features are kept, detached,
for a nearest-centroid check at the end."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_MICS, LENGTH, N_EVENTS, BATCH, STEPS = 6, 256, 3, 24, 8
EVENT_FREQS = [0.05, 0.12, 0.2]


def stereo_backbone():
    torch.manual_seed(7)  # stands in for loading the pretrained stereo checkpoint
    net = nn.Sequential(
        nn.Conv1d(2, 16, 9, stride=2, padding=4), nn.BatchNorm1d(16), nn.ReLU(),
        nn.Conv1d(16, 32, 9, stride=2, padding=4), nn.BatchNorm1d(32), nn.ReLU())
    torch.manual_seed(0)
    return net


def array_clips(n):
    events = torch.randint(0, N_EVENTS, (n,))
    t = torch.arange(LENGTH, dtype=torch.float32)
    freq = torch.tensor(EVENT_FREQS)[events][:, None, None]
    delay = torch.arange(N_MICS, dtype=torch.float32)[None, :, None] * torch.rand(n, 1, 1)
    clip = torch.sin(2 * math.pi * freq * (t - delay))
    return clip + 0.5 * torch.randn(n, N_MICS, LENGTH), events


class ArrayClassifier(nn.Module):
    def __init__(self, backbone):
        super().__init__()
        self.adapter = nn.Conv1d(N_MICS, 2, 1)
        self.backbone = backbone
        self.probe = nn.Linear(32, N_EVENTS)

    def features(self, clips):
        return self.backbone(self.adapter(clips)).mean(dim=-1)

    def forward(self, clips):
        feats = self.features(clips)
        return self.probe(feats), feats


model = ArrayClassifier(stereo_backbone())
model.backbone.requires_grad_(False)
model.backbone.eval()
optimizer = torch.optim.Adam(
    list(model.adapter.parameters()) + list(model.probe.parameters()), lr=1e-2)

kept_feats, kept_labels, losses = [], [], []
for step in range(STEPS):
    clips, events = array_clips(BATCH)
    logits, feats = model(clips)
    loss = F.cross_entropy(logits, events)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    kept_feats.append(feats.detach())
    kept_labels.append(events)
    losses.append(loss.item())
    acc = (logits.argmax(-1) == events).float().mean().item()
    print(f"step {step} loss {loss.item():.6f} acc {acc:.4f}")

feats, labels = torch.cat(kept_feats), torch.cat(kept_labels)
centroids = torch.stack([feats[labels == k].mean(0) for k in range(N_EVENTS)])
nearest = torch.cdist(feats, centroids).argmin(dim=1)
print(f"nearest-centroid acc on kept features {(nearest == labels).float().mean().item():.4f}")
print(f"trainable checksum {sum(p.sum().item() for p in optimizer.param_groups[0]['params']):.6f}")
print(f"backbone checksum {sum(p.sum().item() for p in model.backbone.parameters()):.6f}")
