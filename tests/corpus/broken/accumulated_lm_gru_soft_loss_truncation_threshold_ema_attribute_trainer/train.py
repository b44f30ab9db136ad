"""Character-level GRU language model trained with soft loss truncation: sequences whose
loss is far above the typical loss (likely noisy or corrupted text) are down-weighted.
"Typical" is an exponential moving average of the batch loss kept by the trainer."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Config:
    vocab: int = 12
    emb: int = 16
    hidden: int = 32
    seq_len: int = 20
    batch: int = 16
    steps: int = 6
    lr: float = 3e-3
    ema_beta: float = 0.9
    temperature: float = 0.5
    noise_rate: float = 0.25


class CharGRU(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab, cfg.emb)
        self.rnn = nn.GRU(cfg.emb, cfg.hidden, batch_first=True)
        self.head = nn.Linear(cfg.hidden, cfg.vocab)

    def forward(self, tokens):
        out, _ = self.rnn(self.embed(tokens))
        return self.head(out)


def sample_corpus(cfg, gen):
    """Sequences from a sparse Markov chain; a fraction is replaced by uniform noise."""
    transition = torch.softmax(3.0 * torch.randn(cfg.vocab, cfg.vocab, generator=gen), dim=1)
    seqs = torch.empty(cfg.batch, cfg.seq_len + 1, dtype=torch.long)
    seqs[:, 0] = torch.randint(0, cfg.vocab, (cfg.batch,), generator=gen)
    for t in range(cfg.seq_len):
        seqs[:, t + 1] = torch.multinomial(transition[seqs[:, t]], 1, generator=gen).squeeze(1)
    noisy = torch.rand(cfg.batch, generator=gen) < cfg.noise_rate
    seqs[noisy] = torch.randint(0, cfg.vocab, (int(noisy.sum()), cfg.seq_len + 1), generator=gen)
    return seqs


class TruncationTrainer:
    def __init__(self, model, cfg):
        self.model = model
        self.cfg = cfg
        self.optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
        self.loss_ema = None

    def sequence_nll(self, seqs):
        logits = self.model(seqs[:, :-1])
        nll = F.cross_entropy(logits.transpose(1, 2), seqs[:, 1:], reduction="none")
        return nll.mean(dim=1)

    def step(self, seqs):
        seq_nll = self.sequence_nll(seqs)
        batch_mean = seq_nll.mean()
        beta = self.cfg.ema_beta
        self.loss_ema = batch_mean if self.loss_ema is None else beta * self.loss_ema + (1 - beta) * batch_mean
        weights = torch.sigmoid((self.loss_ema - seq_nll) / self.cfg.temperature)
        loss = (weights * seq_nll).sum() / weights.sum()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item(), weights.min().item()

    def fit(self, gen):
        for step in range(self.cfg.steps):
            loss, min_w = self.step(sample_corpus(self.cfg, gen))
            print(f"step {step} truncated nll {loss:.4f} typical {self.loss_ema.item():.4f} "
                  f"min weight {min_w:.3f}")


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    cfg = Config()
    model = CharGRU(cfg)
    TruncationTrainer(model, cfg).fit(gen)
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")


if __name__ == "__main__":
    main()
