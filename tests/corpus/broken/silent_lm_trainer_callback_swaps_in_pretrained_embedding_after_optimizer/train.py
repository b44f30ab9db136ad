"""Word-level GRU language model on a toy template corpus, trained by a small Trainer with
callbacks. A callback initialises the input embeddings from distributional vectors (PPMI + SVD
over the corpus, standing in for exported word2vec vectors) when training starts."""
import itertools
import math
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

SUBJECTS = ["the cat", "the dog", "a bird", "my friend"]
VERBS = ["sat on", "looked at", "ran to", "slept near"]
OBJECTS = ["the mat", "the door", "a tree", "the river"]
sentences = [f"{s} {v} {o}".split() for s, v, o in itertools.product(SUBJECTS, VERBS, OBJECTS)]
vocab = ["<pad>", "<bos>", "<eos>"] + sorted({w for s in sentences for w in s})
stoi = {w: i for i, w in enumerate(vocab)}
EMB_DIM = 12


def distributional_vectors(sents, dim=EMB_DIM, window=2):
    counts = torch.zeros(len(vocab), len(vocab))
    for s in sents:
        ids = [stoi[w] for w in s]
        for i, a in enumerate(ids):
            for b in ids[max(0, i - window):i] + ids[i + 1:i + 1 + window]:
                counts[a, b] += 1
    total = counts.sum()
    pmi = torch.log((counts * total + 1e-8) / (counts.sum(1, keepdim=True) * counts.sum(0) + 1e-8))
    u, s, _ = torch.linalg.svd(pmi.clamp(min=0))
    return u[:, :dim] * s[:dim].sqrt() / 4


class GRULanguageModel(nn.Module):
    def __init__(self, vocab_size, dim=EMB_DIM, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.gru = nn.GRU(dim, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab_size)

    def forward(self, tokens):
        out, _ = self.gru(self.embed(tokens))
        return self.head(out)


class Callback:
    def on_train_start(self, trainer):
        pass

    def on_epoch_end(self, trainer, epoch, logs):
        pass


class PretrainedEmbeddings(Callback):
    def __init__(self, vectors):
        self.vectors = vectors

    def on_train_start(self, trainer):
        trainer.model.embed = nn.Embedding.from_pretrained(self.vectors, freeze=False, padding_idx=0)


class PerplexityLogger(Callback):
    def on_epoch_end(self, trainer, epoch, logs):
        print(f"epoch {epoch} loss {logs['loss']:.4f} ppl {math.exp(logs['loss']):.2f}")


class Trainer:
    def __init__(self, model, callbacks, lr=5e-3, weight_decay=0.01):
        self.model, self.callbacks = model, callbacks
        self.optimizer = self.configure_optimizers(lr, weight_decay)

    def configure_optimizers(self, lr, weight_decay):
        decay = [p for n, p in self.model.named_parameters() if p.ndim >= 2 and "embed" not in n]
        no_decay = [p for n, p in self.model.named_parameters() if p.ndim < 2 or "embed" in n]
        return torch.optim.AdamW([{"params": decay, "weight_decay": weight_decay},
                                  {"params": no_decay, "weight_decay": 0.0}], lr=lr)

    def fit(self, batches, epochs):
        for cb in self.callbacks:
            cb.on_train_start(self)
        for epoch in range(epochs):
            for tokens in batches:
                logits = self.model(tokens[:, :-1])
                loss = F.cross_entropy(logits.reshape(-1, len(vocab)), tokens[:, 1:].reshape(-1),
                                       ignore_index=0)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch, {"loss": loss.item()})


def make_batches(batch_size=16, seed=0):
    rows = [[stoi["<bos>"]] + [stoi[w] for w in s] + [stoi["<eos>"]] for s in sentences]
    random.Random(seed).shuffle(rows)
    return [torch.tensor(rows[i:i + batch_size]) for i in range(0, len(rows), batch_size)]


torch.manual_seed(0)
model = GRULanguageModel(len(vocab))
trainer = Trainer(model, [PretrainedEmbeddings(distributional_vectors(sentences)), PerplexityLogger()])
trainer.fit(make_batches(), epochs=2)
