"""Few-shot keyword spotting on top of a frozen, pretrained speech encoder: the encoder
runs under torch.no_grad() in eval mode, the classifier head is initialised from class
prototypes (an in-place copy into its weight) and is the only module in the optimizer.
Per-keyword accuracies are gathered as Python floats for the report."""
import torch
import torch.nn as nn
import torch.nn.functional as F

KEYWORDS = ["yes", "no", "up", "down", "stop", "go"]
N_MELS, N_FRAMES, D_EMB = 20, 30, 32


class SpeechEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(N_MELS, 48, 5, padding=2), nn.BatchNorm1d(48), nn.ReLU(),
            nn.Conv1d(48, D_EMB, 5, padding=2), nn.BatchNorm1d(D_EMB), nn.ReLU())
        self.gru = nn.GRU(D_EMB, D_EMB, batch_first=True)

    def forward(self, mel):  # (B, N_MELS, T)
        h, _ = self.gru(self.conv(mel).transpose(1, 2))
        return h.mean(1)


def keyword_clips(n_per_class, g):
    signatures = torch.randn(len(KEYWORDS), N_MELS, 1, generator=torch.Generator().manual_seed(7))
    envelope = torch.hann_window(N_FRAMES)
    labels = torch.arange(len(KEYWORDS)).repeat_interleave(n_per_class)
    noise = torch.randn(len(labels), N_MELS, N_FRAMES, generator=g)
    mel = signatures[labels] * envelope + 0.3 * noise
    return mel, labels


def train(epochs=6):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    encoder = SpeechEncoder()  # stands in for weights loaded from a pretraining checkpoint
    encoder.eval().requires_grad_(False)
    before = [p.clone() for p in encoder.parameters()]

    head = nn.Sequential(nn.Linear(D_EMB, D_EMB), nn.ReLU(), nn.Linear(D_EMB, len(KEYWORDS)))
    support_x, support_y = keyword_clips(5, g)
    with torch.no_grad():
        support_emb = encoder(support_x)
        prototypes = torch.stack([head[1](head[0](support_emb))[support_y == k].mean(0)
                                  for k in range(len(KEYWORDS))])
        head[2].weight.copy_(4.0 * F.normalize(prototypes, dim=1))
        head[2].bias.zero_()

    optimizer = torch.optim.Adam(head.parameters(), lr=2e-2)
    for epoch in range(epochs):
        perm = torch.randperm(len(support_y), generator=g)
        for idx in perm.split(10):
            with torch.no_grad():
                emb = encoder(support_x[idx])
            loss = F.cross_entropy(head(emb), support_y[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")

    query_x, query_y = keyword_clips(8, g)
    with torch.no_grad():
        pred = head(encoder(query_x)).argmax(1)
    per_kw = torch.tensor([(pred[query_y == k] == k).float().mean().item()
                           for k in range(len(KEYWORDS))])
    print("per-keyword accuracy", {kw: round(a, 3) for kw, a in zip(KEYWORDS, per_kw.tolist())})
    unchanged = all(torch.equal(a, b) for a, b in zip(before, encoder.parameters()))
    print(f"encoder unchanged {unchanged}")
    print(f"head checksum {sum(p.double().sum().item() for p in head.parameters()):.6f}")


if __name__ == "__main__":
    train()
