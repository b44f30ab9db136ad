"""Word-level LSTM language model with tied input/output embeddings, trained by a small
callback-driven trainer. The embedding rows are kept inside a max-norm ball by a callback."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import EmbeddingMaxNorm, GradClip, PerplexityLogger

torch.manual_seed(0)
VOCAB, DIM, SEQ, BATCH = 80, 24, 10, 8


class TiedLSTMLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.lstm = nn.LSTM(DIM, DIM, batch_first=True)
        self.out_bias = nn.Parameter(torch.zeros(VOCAB))

    def forward(self, tokens):
        h, _ = self.lstm(self.embed(tokens))
        return h @ self.embed.weight.t() + self.out_bias


class LMTrainer:
    def __init__(self, model, optimizer, callbacks):
        self.model, self.optimizer, self.callbacks = model, optimizer, callbacks

    def emit(self, hook, *args):
        for cb in self.callbacks:
            getattr(cb, hook)(self, *args)

    def fit(self, corpus, steps):
        for step in range(steps):
            self.emit("on_batch_start", step)
            starts = torch.randint(0, len(corpus) - SEQ - 1, (BATCH,))
            x = torch.stack([corpus[s:s + SEQ] for s in starts])
            y = torch.stack([corpus[s + 1:s + SEQ + 1] for s in starts])
            logits = self.model(x)
            loss = F.cross_entropy(logits.reshape(-1, VOCAB), y.reshape(-1))
            self.optimizer.zero_grad()
            self.emit("on_before_backward", loss)
            loss.backward()
            self.emit("on_before_optimizer_step")
            self.optimizer.step()
            self.emit("on_batch_end", step, loss.item())


def zipf_corpus(n_tokens):
    ranks = torch.arange(1, VOCAB + 1).float()
    return torch.multinomial(1 / ranks, n_tokens, replacement=True)


model = TiedLSTMLM()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
trainer = LMTrainer(model, optimizer, [EmbeddingMaxNorm(1.0), GradClip(0.5), PerplexityLogger()])
trainer.fit(zipf_corpus(2000), steps=6)
