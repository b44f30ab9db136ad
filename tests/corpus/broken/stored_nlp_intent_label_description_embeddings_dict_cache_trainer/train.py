"""Zero-shot-ready intent classifier: utterances and intent descriptions share one encoder.

Each intent is described in words ("set an alarm for a time"), and an utterance is scored
against the encoded descriptions, so new intents can be added later by description only.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

INTENTS = {
    "set_alarm": "set alarm wake me time morning",
    "play_music": "play song music artist album",
    "weather": "weather rain forecast today temperature",
    "book_taxi": "book taxi ride car pickup",
}
VOCAB = sorted({w for d in INTENTS.values() for w in d.split()} | {"please", "the", "a", "me", "at", "for", "some", "will", "it", "get"})
WORD_ID = {w: i for i, w in enumerate(VOCAB)}


def encode_words(text):
    return torch.tensor([WORD_ID[w] for w in text.split() if w in WORD_ID])


class TextEncoder(nn.Module):
    def __init__(self, dim=24):
        super().__init__()
        self.bag = nn.EmbeddingBag(len(VOCAB), dim, mode="mean")
        self.proj = nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Linear(dim, dim))

    def forward(self, token_lists):
        flat = torch.cat(token_lists)
        offsets = torch.tensor([0] + [len(t) for t in token_lists[:-1]]).cumsum(0)
        return F.normalize(self.proj(self.bag(flat, offsets)), dim=-1)


def utterance_batch(batch, generator):
    names = list(INTENTS)
    fillers = ["please", "the", "a", "me", "at", "for", "some", "will", "it", "get"]
    labels = torch.randint(0, len(names), (batch,), generator=generator)
    texts = []
    for y in labels.tolist():
        words = INTENTS[names[y]].split()
        keep = torch.randperm(len(words), generator=generator)[:3].tolist()
        extra = torch.randint(0, len(fillers), (2,), generator=generator).tolist()
        texts.append(" ".join([words[k] for k in keep] + [fillers[e] for e in extra]))
    return texts, labels


class IntentTrainer:
    def __init__(self):
        self.encoder = TextEncoder()
        self.log_scale = nn.Parameter(torch.tensor(2.0))
        self.optimizer = torch.optim.Adam(list(self.encoder.parameters()) + [self.log_scale], lr=1e-2)
        self.label_cache = {}

    def label_matrix(self):
        for name, description in INTENTS.items():
            if name not in self.label_cache:
                self.label_cache[name] = self.encoder([encode_words(description)])[0]
        return torch.stack([self.label_cache[name] for name in INTENTS])

    def step(self, texts, labels):
        utter = self.encoder([encode_words(t) for t in texts])
        logits = self.log_scale.exp() * utter @ self.label_matrix().t()
        loss = F.cross_entropy(logits, labels)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item(), (logits.argmax(1) == labels).float().mean().item()


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(4)
    trainer = IntentTrainer()
    for step in range(6):
        texts, labels = utterance_batch(12, gen)
        loss, acc = trainer.step(texts, labels)
        print(f"step {step} loss {loss:.4f} acc {acc:.2f}")


if __name__ == "__main__":
    main()
