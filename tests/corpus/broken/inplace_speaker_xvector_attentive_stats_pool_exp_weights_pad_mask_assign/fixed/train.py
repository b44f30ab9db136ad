"""Speaker identification with a TDNN x-vector and attentive statistics pooling over padded utterances."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_MELS, N_SPEAKERS = 20, 5


class AttentiveStatsPool(nn.Module):
    def __init__(self, channels, bottleneck=16):
        super().__init__()
        self.score = nn.Sequential(nn.Conv1d(channels, bottleneck, 1), nn.Tanh(),
                                   nn.Conv1d(bottleneck, 1, 1))

    def forward(self, x, pad_mask):
        # x: (B, C, T), pad_mask: (B, 1, T) True where the frame is padding
        logits = self.score(x)
        w = torch.exp(logits - logits.amax(dim=-1, keepdim=True))
        w = w.masked_fill(pad_mask, 0.0)
        w = w / w.sum(dim=-1, keepdim=True)
        mean = (w * x).sum(dim=-1)
        var = (w * x * x).sum(dim=-1) - mean * mean
        return torch.cat([mean, var.clamp(min=1e-5).sqrt()], dim=1)


class XVector(nn.Module):
    def __init__(self):
        super().__init__()
        self.tdnn = nn.Sequential(
            nn.Conv1d(N_MELS, 32, 5, padding=2), nn.ReLU(), nn.BatchNorm1d(32),
            nn.Conv1d(32, 32, 3, padding=2, dilation=2), nn.ReLU(), nn.BatchNorm1d(32),
        )
        self.pool = AttentiveStatsPool(32)
        self.embed = nn.Linear(64, 24)
        self.classifier = nn.Linear(24, N_SPEAKERS)

    def forward(self, feats, lengths):
        h = self.tdnn(feats)
        frames = torch.arange(h.shape[-1])
        pad_mask = (frames[None, :] >= lengths[:, None]).unsqueeze(1)
        return self.classifier(F.relu(self.embed(self.pool(h, pad_mask))))


def padded_batch(gen, batch=12, max_len=40):
    speakers = torch.randint(0, N_SPEAKERS, (batch,), generator=gen)
    lengths = torch.randint(20, max_len + 1, (batch,), generator=gen)
    timbre = torch.linspace(-1, 1, N_MELS)
    feats = torch.randn(batch, N_MELS, max_len, generator=gen) * 0.5
    feats = feats + (speakers.float()[:, None, None] - 2) * timbre[None, :, None]
    feats = feats * (torch.arange(max_len)[None, None, :] < lengths[:, None, None])
    return feats, lengths, speakers


def main():
    torch.manual_seed(13)
    gen = torch.Generator().manual_seed(13)
    model = XVector()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for step in range(6):
        feats, lengths, speakers = padded_batch(gen)
        loss = F.cross_entropy(model(feats, lengths), speakers)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: ce={loss.item():.4f}")


if __name__ == "__main__":
    main()
