"""Keyword spotting on MFCC frames with a small 1-D CNN. Convolutions get a He-style
initialisation drawn by hand unless a checkpoint is resumed."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N_MFCC, N_FRAMES, N_KEYWORDS = 13, 40, 5
RESUME_FROM = None


class KeywordCNN(nn.Module):
    def __init__(self, channels=24):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv1d(N_MFCC, channels, 5, padding=2), nn.BatchNorm1d(channels), nn.ReLU(),
            nn.Conv1d(channels, channels, 3, padding=2, dilation=2), nn.BatchNorm1d(channels),
            nn.ReLU())
        self.classifier = nn.Linear(channels, N_KEYWORDS)

    def forward(self, mfcc):
        return self.classifier(self.encoder(mfcc).mean(dim=2))


def reinit_convs(model):
    for layer in model.encoder:
        if isinstance(layer, nn.Conv1d):
            fan_in = layer.in_channels * layer.kernel_size[0]
            layer.weight = nn.Parameter(torch.randn_like(layer.weight) * math.sqrt(2.0 / fan_in))
            nn.init.zeros_(layer.bias)


def utterances(n=64):
    keyword = torch.randint(0, N_KEYWORDS, (n,))
    mfcc = torch.randn(n, N_MFCC, N_FRAMES)
    mfcc[:, :N_KEYWORDS] += 2.0 * F.one_hot(keyword, N_KEYWORDS).float()[:, :, None]
    return mfcc, keyword


torch.manual_seed(0)
model = KeywordCNN()
if RESUME_FROM is None:
    reinit_convs(model)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-2)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=3, gamma=0.5)
if RESUME_FROM is not None:
    state = torch.load(RESUME_FROM)
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])

mfcc, keyword = utterances()
for step in range(6):
    model.train()
    logits = model(mfcc)
    loss = F.cross_entropy(logits, keyword)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    scheduler.step()
    acc = (logits.argmax(1) == keyword).float().mean().item()
    print(f"step {step} loss {loss.item():.4f} acc {acc:.3f}")
