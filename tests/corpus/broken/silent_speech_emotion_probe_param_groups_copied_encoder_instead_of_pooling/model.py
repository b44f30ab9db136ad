"""Speech emotion recognition on top of a pretrained acoustic encoder: conv + GRU frames,
attentive statistics pooling over time, and a linear emotion classifier."""
import torch
import torch.nn as nn


class FrameEncoder(nn.Module):
    def __init__(self, n_mels=20, channels=32, hidden=32):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(n_mels, channels, 5, padding=2), nn.GELU())
        self.gru = nn.GRU(channels, hidden, batch_first=True)
        self.out_dim = hidden

    def forward(self, mel):                     # (N, n_mels, T) -> (N, T, hidden)
        h, _ = self.gru(self.conv(mel).transpose(1, 2))
        return h


class AttentiveStatsPool(nn.Module):
    def __init__(self, dim, att_dim=16):
        super().__init__()
        self.att = nn.Sequential(nn.Linear(dim, att_dim), nn.Tanh(), nn.Linear(att_dim, 1))

    def forward(self, h):
        w = torch.softmax(self.att(h), dim=1)
        mean = (w * h).sum(1)
        std = ((w * (h - mean[:, None]) ** 2).sum(1) + 1e-5).sqrt()
        return torch.cat([mean, std], dim=-1)


class EmotionModel(nn.Module):
    def __init__(self, n_emotions=4):
        super().__init__()
        self.encoder = FrameEncoder()
        self.pool = AttentiveStatsPool(self.encoder.out_dim)
        self.classifier = nn.Linear(2 * self.encoder.out_dim, n_emotions)

    def classify(self, frames):
        return self.classifier(self.pool(frames))

    def forward(self, mel):
        return self.classify(self.encoder(mel))


def load_pretrained_encoder(encoder, seed=123):
    """Stand-in for loading the self-supervised checkpoint of the frame encoder."""
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in encoder.parameters():
            p.copy_(0.2 * torch.randn(p.shape, generator=gen))
