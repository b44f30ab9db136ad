"""Keyword spotter with a learnable automatic-gain-control front end: a per-frame gain is
predicted from the log-mel frame, and a running loudness estimate of the gained features is
pulled towards a target level so the classifier sees a stable input scale."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_MELS, FRAMES, N_WORDS, TARGET_LEVEL = 20, 16, 6, 1.0


class LearnableAGC(nn.Module):
    def __init__(self):
        super().__init__()
        self.gain = nn.Linear(N_MELS, 1)

    def forward(self, mels):
        return mels * 2.0 * torch.sigmoid(self.gain(mels))


class KeywordNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.agc = LearnableAGC()
        self.conv = nn.Sequential(nn.Conv1d(N_MELS, 32, 3, padding=1), nn.ReLU())
        self.fc = nn.Linear(32, N_WORDS)

    def forward(self, mels):
        gained = self.agc(mels)
        feats = self.conv(gained.transpose(1, 2)).amax(dim=-1)
        return self.fc(feats), gained


def keyword_batch(batch=8):
    words = torch.randint(0, N_WORDS, (batch,))
    level = torch.empty(batch, 1, 1).uniform_(0.2, 3.0)
    mels = torch.randn(batch, FRAMES, N_MELS).abs()
    mels[torch.arange(batch), :, words] += 2.0
    return mels * level, words


def train(steps=10, loudness_weight=0.5, momentum=0.9):
    torch.manual_seed(0)
    model = KeywordNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    loudness = torch.tensor(TARGET_LEVEL)
    for step in range(steps):
        mels, words = keyword_batch()
        logits, gained = model(mels)
        loudness = momentum * loudness + (1 - momentum) * gained.pow(2).mean().sqrt()
        ce = F.cross_entropy(logits, words)
        loss = ce + loudness_weight * (loudness - TARGET_LEVEL) ** 2
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loudness = loudness.detach()
        print(f"step {step} ce {ce.item():.4f} loudness {loudness.item():.4f}")
    return model


if __name__ == "__main__":
    train()
