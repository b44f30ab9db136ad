"""POS tagger (BiGRU) trained with gradient accumulation and a loss normalised by the tokens seen."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(10)
VOCAB, N_TAGS, PAD = 40, 5, 0


class Tagger(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, dim, padding_idx=PAD)
        self.rnn = nn.GRU(dim, dim, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * dim, N_TAGS)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return self.out(h)


def toy_corpus(n_sentences):
    sents = []
    for _ in range(n_sentences):
        length = int(torch.randint(3, 8, ()))
        words = torch.randint(1, VOCAB, (length,))
        sents.append((words, words % N_TAGS))   # the tag is a function of the word id
    return sents


def micro_batches(sentences, size):
    for i in range(0, len(sentences), size):
        chunk = sentences[i:i + size]
        width = max(len(w) for w, _ in chunk)
        tokens = torch.full((len(chunk), width), PAD)
        tags = torch.zeros(len(chunk), width, dtype=torch.long)
        for r, (w, t) in enumerate(chunk):
            tokens[r, :len(w)], tags[r, :len(t)] = w, t
        yield tokens, tags, tokens != PAD


def train_epoch(model, opt, sentences, accum_steps=3):
    running_loss, running_tokens = 0.0, 0
    opt.zero_grad()
    for step, (tokens, tags, mask) in enumerate(micro_batches(sentences, 2), start=1):
        logits = model(tokens)
        nll = F.cross_entropy(logits[mask], tags[mask], reduction="sum")
        running_loss = running_loss + nll
        running_tokens += int(mask.sum())
        (running_loss / running_tokens).backward()
        if step % accum_steps == 0:
            opt.step()
            opt.zero_grad()
            print(f"  update after {step} micro-batches: nll/token {float(running_loss) / running_tokens:.4f}")
            running_loss, running_tokens = 0.0, 0


model = Tagger()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
corpus = toy_corpus(12)
for epoch in range(2):
    print(f"epoch {epoch}")
    train_epoch(model, opt, corpus)
