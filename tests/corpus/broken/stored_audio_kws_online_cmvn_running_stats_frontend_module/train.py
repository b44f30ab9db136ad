"""Keyword spotting (12 keywords) on synthetic one-second clips at 1 kHz with a learnable
front end, online CMVN and a small depthwise-separable CNN."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from frontend import LearnableFilterbank, OnlineCMVN

N_KEYWORDS, N_FILTERS, CLIP, BATCH = 12, 20, 1000, 16


class KWSNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.frontend = LearnableFilterbank(N_FILTERS)
        self.cmvn = OnlineCMVN(N_FILTERS)
        self.dw = nn.Conv1d(N_FILTERS, N_FILTERS, 5, padding=2, groups=N_FILTERS)
        self.pw = nn.Conv1d(N_FILTERS, 48, 1)
        self.bn = nn.BatchNorm1d(48)
        self.classifier = nn.Linear(48, N_KEYWORDS)

    def forward(self, wave):
        feats = self.cmvn(self.frontend(wave))
        h = F.relu(self.bn(self.pw(self.dw(feats))))
        return self.classifier(h.mean(dim=2))


def synth_batch(gen):
    labels = torch.randint(0, N_KEYWORDS, (BATCH,), generator=gen)
    t = torch.arange(CLIP) / 1000.0
    freq = (40.0 + 25.0 * labels).unsqueeze(1)
    wave = torch.sin(2 * torch.pi * freq * t) * torch.hann_window(CLIP)
    return wave + 0.2 * torch.randn(BATCH, CLIP, generator=gen), labels


def train(steps=6):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = KWSNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for step in range(steps):
        wave, labels = synth_batch(gen)
        logits = model(wave)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (logits.argmax(1) == labels).float().mean().item()
        print(f"step {step} loss {loss.item():.4f} acc {acc:.3f} "
              f"cmvn-mean {model.cmvn.running_mean.mean().item():.4f}")


if __name__ == "__main__":
    train()
