from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

CORPUS = ("the quick brown fox jumps over the lazy dog. "
          "pack my box with five dozen liquor jugs. ") * 4


@dataclass
class LMConfig:
    vocab_size: int = 64
    dim: int = 24
    seq_len: int = 16
    batch: int = 8
    lr: float = 3e-3
    steps: int = 6


class CharGRU(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab_size, cfg.dim)
        self.gru = nn.GRU(cfg.dim, cfg.dim, batch_first=True)
        self.head = nn.Linear(cfg.dim, cfg.vocab_size)

    def forward(self, ids):
        h, _ = self.gru(self.embed(ids))
        return self.head(h)


def build_model(cfg):
    return CharGRU(cfg)


def get_batch(data, cfg):
    starts = torch.randint(0, data.numel() - cfg.seq_len - 1, (cfg.batch,))
    x = torch.stack([data[s:s + cfg.seq_len] for s in starts.tolist()])
    y = torch.stack([data[s + 1:s + cfg.seq_len + 1] for s in starts.tolist()])
    return x, y


def main():
    torch.manual_seed(10)
    cfg = LMConfig()
    model = build_model(cfg)

    vocab = sorted(set(CORPUS))
    stoi = {ch: i for i, ch in enumerate(vocab)}
    data = torch.tensor([stoi[ch] for ch in CORPUS])
    if len(vocab) != cfg.vocab_size:
        cfg.vocab_size = len(vocab)
        model = build_model(cfg)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)

    for step in range(cfg.steps):
        x, y = get_batch(data, cfg)
        logits = model(x)
        loss = F.cross_entropy(logits.reshape(-1, cfg.vocab_size), y.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f} ppl {loss.exp().item():.2f}")


if __name__ == "__main__":
    main()
