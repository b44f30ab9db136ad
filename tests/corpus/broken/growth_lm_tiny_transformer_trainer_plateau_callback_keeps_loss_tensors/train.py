"""Tiny causal transformer language model on a synthetic token stream (a few repeating
"phrases" with noise), trained by a small Trainer with callbacks."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import PlateauDetector, ProgressPrinter

VOCAB, DIM, CTX, BATCH = 24, 32, 12, 8


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, DIM)
        self.pos = nn.Parameter(0.02 * torch.randn(CTX, DIM))
        self.block = nn.TransformerEncoderLayer(DIM, nhead=4, dim_feedforward=64, dropout=0.0,
                                                batch_first=True)
        self.norm = nn.LayerNorm(DIM)
        self.head = nn.Linear(DIM, VOCAB)
        self.register_buffer("causal", nn.Transformer.generate_square_subsequent_mask(CTX))

    def forward(self, tokens):
        t = tokens.shape[1]
        x = self.tok(tokens) + self.pos[:t]
        x = self.block(x, src_mask=self.causal[:t, :t], is_causal=True)
        return self.head(self.norm(x))


def make_stream(length, gen):
    phrases = [torch.tensor(p) for p in ([3, 8, 1, 15, 7], [11, 2, 2, 19], [5, 21, 9, 4, 13, 6])]
    pieces, total = [], 0
    while total < length:
        piece = phrases[int(torch.randint(0, 3, (1,), generator=gen))].clone()
        noise = torch.rand(piece.shape, generator=gen) < 0.1
        piece[noise] = torch.randint(0, VOCAB, (int(noise.sum()),), generator=gen)
        pieces.append(piece)
        total += len(piece)
    return torch.cat(pieces)[:length]


class Trainer:
    def __init__(self, model, optimizer, callbacks=()):
        self.model, self.optimizer, self.callbacks = model, optimizer, list(callbacks)

    def lr(self):
        return self.optimizer.param_groups[0]["lr"]

    def batch(self, stream, gen):
        starts = torch.randint(0, len(stream) - CTX - 1, (BATCH,), generator=gen)
        return torch.stack([stream[s:s + CTX + 1] for s in starts.tolist()])

    def fit(self, stream, steps, gen):
        for cb in self.callbacks:
            cb.on_fit_start(self)
        for step in range(steps):
            tokens = self.batch(stream, gen)
            logits = self.model(tokens[:, :-1])
            loss = F.cross_entropy(logits.reshape(-1, VOCAB), tokens[:, 1:].reshape(-1))
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            for cb in self.callbacks:
                cb.on_batch_end(self, step, loss)


if __name__ == "__main__":
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    stream = make_stream(400, gen)
    model = TinyLM()
    trainer = Trainer(model, torch.optim.AdamW(model.parameters(), lr=3e-3),
                      callbacks=[ProgressPrinter(), PlateauDetector()])
    trainer.fit(stream, steps=8, gen=gen)
