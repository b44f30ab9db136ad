"""Intent + domain classifier scoring utterances against encoded intent descriptions.

Looks like several classic traps, none of which is one here:
- description embeddings are cached in a dict, but only within one step (cleared after it);
- a soft orthogonality penalty is only applied every few steps, computed fresh when it is;
- a queue of past utterance embeddings supplies extra negatives, stored detached;
- the intent and domain losses share the encoder and are summed into one backward.
"""
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

INTENTS = {
    "set_alarm": ("clock", "set alarm wake me time morning"),
    "timer": ("clock", "start timer minutes countdown time"),
    "play_music": ("media", "play song music artist album"),
    "podcast": ("media", "play podcast episode show listen"),
    "weather": ("info", "weather rain forecast today temperature"),
}
DOMAINS = sorted({d for d, _ in INTENTS.values()})
FILLERS = ["please", "the", "a", "me", "at", "for", "some", "now"]
VOCAB = sorted({w for _, t in INTENTS.values() for w in t.split()} | set(FILLERS))
WORD_ID = {w: i for i, w in enumerate(VOCAB)}


def ids(text):
    return torch.tensor([WORD_ID[w] for w in text.split()])


class Encoder(nn.Module):
    def __init__(self, dim=24):
        super().__init__()
        self.bag = nn.EmbeddingBag(len(VOCAB), dim, mode="mean")
        self.proj = nn.Linear(dim, dim)

    def forward(self, token_lists):
        flat = torch.cat(token_lists)
        offsets = torch.tensor([0] + [len(t) for t in token_lists[:-1]]).cumsum(0)
        return F.normalize(torch.tanh(self.proj(self.bag(flat, offsets))), dim=-1)


class Model(nn.Module):
    def __init__(self, dim=24):
        super().__init__()
        self.encoder = Encoder(dim)
        self.domain_head = nn.Linear(dim, len(DOMAINS))
        self.log_scale = nn.Parameter(torch.tensor(2.0))


def batch_of_utterances(batch, generator):
    names = list(INTENTS)
    y = torch.randint(0, len(names), (batch,), generator=generator)
    texts = []
    for k in y.tolist():
        words = INTENTS[names[k]][1].split()
        keep = torch.randperm(len(words), generator=generator)[:3].tolist()
        pad = torch.randint(0, len(FILLERS), (2,), generator=generator).tolist()
        texts.append(" ".join([words[i] for i in keep] + [FILLERS[i] for i in pad]))
    domains = torch.tensor([DOMAINS.index(INTENTS[names[k]][0]) for k in y.tolist()])
    return texts, y, domains


class Trainer:
    def __init__(self, ortho_every=3, queue_size=48):
        self.model = Model()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-2)
        self.description_cache = {}
        self.queue = deque(maxlen=queue_size)
        self.ortho_every = ortho_every
        self.meters = {"intent": 0.0, "domain": 0.0, "n": 0}

    def descriptions(self):
        for name, (_, text) in INTENTS.items():
            if name not in self.description_cache:
                self.description_cache[name] = self.model.encoder([ids(text)])[0]
        return torch.stack([self.description_cache[n] for n in INTENTS])

    def ortho_penalty(self, step):
        if step % self.ortho_every != 0:
            return torch.zeros(())
        w = self.model.encoder.proj.weight
        return 1e-2 * ((w @ w.t() - torch.eye(w.shape[0])) ** 2).sum()

    def step(self, step, texts, intents, domains):
        utter = self.model.encoder([ids(t) for t in texts])
        labels = self.descriptions()
        scale = self.model.log_scale.exp()
        logits = scale * utter @ labels.t()
        intent_loss = F.cross_entropy(logits, intents)
        if self.queue:
            negatives = torch.stack(list(self.queue))
            # spread utterances away from those of earlier batches (the queue holds constants)
            margin = (scale * utter @ negatives.t()).logsumexp(1).mean() * 0.05
            intent_loss = intent_loss + margin
        domain_loss = F.cross_entropy(self.model.domain_head(utter), domains)
        loss = intent_loss + 0.5 * domain_loss + self.ortho_penalty(step)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        # the cached description embeddings belong to this step's graph and weights
        self.description_cache.clear()
        self.queue.extend(utter.detach())
        self.meters["intent"] += intent_loss.item()
        self.meters["domain"] += domain_loss.item()
        self.meters["n"] += 1
        return loss.item()


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(12)
    trainer = Trainer()
    for step in range(7):
        texts, intents, domains = batch_of_utterances(10, gen)
        loss = trainer.step(step, texts, intents, domains)
        print(f"step {step} loss {loss:.4f} queue {len(trainer.queue)}")
    n = trainer.meters["n"]
    print(f"mean intent {trainer.meters['intent'] / n:.4f} mean domain {trainer.meters['domain'] / n:.4f}")
    checksum = sum(p.detach().double().sum().item() for p in trainer.model.parameters())
    print(f"parameter checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
