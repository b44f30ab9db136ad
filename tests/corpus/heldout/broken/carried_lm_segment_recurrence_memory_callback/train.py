"""Segment-level recurrent word LM (Transformer-XL style, one layer): every segment attends over
its own tokens plus the hidden states of the previous segment, which a callback keeps."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import LossLogger, SegmentMemory

VOCAB, D_MODEL, SEG_LEN = 40, 32, 6


class RecurrentSegmentLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, D_MODEL)
        self.attn = nn.MultiheadAttention(D_MODEL, num_heads=4, batch_first=True)
        self.norm = nn.LayerNorm(D_MODEL)
        self.ff = nn.Sequential(nn.Linear(D_MODEL, 64), nn.GELU(), nn.Linear(64, D_MODEL))
        self.head = nn.Linear(D_MODEL, VOCAB)

    def forward(self, tokens, memory=None):
        x = self.embed(tokens)
        context = x if memory is None else torch.cat([memory, x], dim=1)
        seg, mem = x.size(1), context.size(1) - x.size(1)
        future = torch.ones(seg, mem + seg, dtype=torch.bool).triu(mem + 1)
        attended, _ = self.attn(x, context, context, attn_mask=future)
        hidden = self.norm(x + attended)
        hidden = hidden + self.ff(hidden)
        return self.head(hidden), hidden


class Trainer:
    def __init__(self, model, optimizer, callbacks):
        self.model = model
        self.optimizer = optimizer
        self.callbacks = callbacks
        self.global_step = 0

    def emit(self, event, *args):
        for cb in self.callbacks:
            getattr(cb, event)(self, *args)

    def fit(self, corpus, epochs):
        n_segments = (corpus.size(1) - 1) // SEG_LEN
        for epoch in range(epochs):
            self.emit("on_epoch_begin", epoch)
            for i in range(n_segments):
                start = i * SEG_LEN
                inputs = corpus[:, start:start + SEG_LEN]
                targets = corpus[:, start + 1:start + SEG_LEN + 1]
                self.batch_kwargs = {}
                self.emit("on_batch_begin")
                logits, hidden = self.model(inputs, **self.batch_kwargs)
                loss = F.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1))
                self.optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
                self.optimizer.step()
                self.global_step += 1
                self.emit("on_batch_end", {"loss": loss, "hidden": hidden})
            self.emit("on_epoch_end", epoch)


def make_corpus(batch=4, length=25):
    motif = torch.randint(0, VOCAB, (7,))
    rows = []
    for _ in range(batch):
        offset = int(torch.randint(0, 7, (1,)))
        seq = motif.roll(offset).repeat(length // 7 + 1)[:length].clone()
        noise = torch.rand(length) < 0.1
        seq[noise] = torch.randint(0, VOCAB, (int(noise.sum()),))
        rows.append(seq)
    return torch.stack(rows)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = RecurrentSegmentLM()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    trainer = Trainer(model, optimizer, [SegmentMemory(mem_len=SEG_LEN), LossLogger()])
    trainer.fit(make_corpus(), epochs=2)
