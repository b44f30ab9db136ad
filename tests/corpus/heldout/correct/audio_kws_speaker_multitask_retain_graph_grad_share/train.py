"""Keyword spotting + speaker identification sharing one convolutional encoder. To monitor
task interference, each step backwards the keyword loss first (keeping the graph), records
the gradient it put on the shared encoder, then backwards the speaker loss through the same
graph and compares the two gradient directions before the single optimizer step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_MELS, N_KEYWORDS, N_SPEAKERS, FRAMES = 10, 4, 3, 20


class SharedEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(N_MELS, 24, 5, padding=2), nn.ReLU(),
            nn.Conv1d(24, 24, 3, padding=1), nn.ReLU())

    def forward(self, mel):
        return self.conv(mel).mean(dim=-1)


class MultiTaskKWS(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = SharedEncoder()
        self.keyword_head = nn.Linear(24, N_KEYWORDS)
        self.speaker_head = nn.Linear(24, N_SPEAKERS)


def make_batch(batch=16):
    kw = torch.randint(0, N_KEYWORDS, (batch,))
    spk = torch.randint(0, N_SPEAKERS, (batch,))
    mel = 0.3 * torch.randn(batch, N_MELS, FRAMES)
    t = torch.arange(FRAMES, dtype=torch.float32)
    for i in range(batch):
        mel[i, 2 * kw[i]] += torch.sin(0.5 * t)
        mel[i, :, :] += 0.4 * (spk[i] - 1)
    return mel, kw, spk


def shared_grad(model):
    return torch.cat([p.grad.flatten() for p in model.encoder.parameters()])


def main(steps=6):
    torch.manual_seed(0)
    model = MultiTaskKWS()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for step in range(steps):
        mel, kw, spk = make_batch()
        emb = model.encoder(mel)
        kw_loss = F.cross_entropy(model.keyword_head(emb), kw)
        spk_loss = 0.5 * F.cross_entropy(model.speaker_head(emb), spk)
        optimizer.zero_grad()
        kw_loss.backward(retain_graph=True)
        g_kw = shared_grad(model).clone()
        spk_loss.backward()
        g_spk = shared_grad(model) - g_kw
        cosine = F.cosine_similarity(g_kw, g_spk, dim=0).item()
        optimizer.step()
        print(f"step {step}: kw {kw_loss.item():.4f} spk {spk_loss.item():.4f} grad cos {cosine:+.3f}")
    checksum = sum(p.double().sum().item() for p in model.parameters())
    print(f"checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
