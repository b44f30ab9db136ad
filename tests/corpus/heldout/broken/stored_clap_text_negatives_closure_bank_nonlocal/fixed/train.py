"""Audio-caption contrastive training (CLAP-like) with tiny towers. Captions from earlier
batches are reused as extra negatives through a small closure-based memory."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_MELS, FRAMES, VOCAB, CAP_LEN, DIM, BATCH = 16, 20, 50, 6, 24, 8


def make_caption_memory(capacity):
    bank = None

    def remember(text_emb):
        nonlocal bank
        bank = text_emb if bank is None else torch.cat([text_emb, bank])[:capacity]

    def negatives():
        return bank

    return remember, negatives


class AudioTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(N_MELS, 32, kernel_size=3, padding=1)
        self.proj = nn.Linear(32, DIM)

    def forward(self, mel):
        return self.proj(F.gelu(self.conv(mel)).mean(dim=2))


class TextTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 32)
        self.gru = nn.GRU(32, 32, batch_first=True)
        self.proj = nn.Linear(32, DIM)

    def forward(self, tokens):
        _, h = self.gru(self.embed(tokens))
        return self.proj(h[-1])


def contrastive_loss(a, t, extra, temperature=0.1):
    candidates = t if extra is None else torch.cat([t, extra])
    logits = a @ candidates.t() / temperature
    return F.cross_entropy(logits, torch.arange(a.size(0)))


def main():
    torch.manual_seed(0)
    audio_tower, text_tower = AudioTower(), TextTower()
    params = list(audio_tower.parameters()) + list(text_tower.parameters())
    optimizer = torch.optim.AdamW(params, lr=1e-3, weight_decay=0.01)
    remember, negatives = make_caption_memory(capacity=32)

    for step in range(5):
        mel = torch.randn(BATCH, N_MELS, FRAMES)
        captions = torch.randint(0, VOCAB, (BATCH, CAP_LEN))
        a = F.normalize(audio_tower(mel), dim=1)
        t = F.normalize(text_tower(captions), dim=1)
        loss = contrastive_loss(a, t, negatives())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        remember(t.detach())
        bank = negatives()
        print(f"step {step} loss {loss.item():.4f} bank {bank.size(0)}")


if __name__ == "__main__":
    main()
