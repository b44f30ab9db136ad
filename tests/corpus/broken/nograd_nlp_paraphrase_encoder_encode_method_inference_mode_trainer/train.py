"""Fine-tune the bi-encoder on scored paraphrase pairs with a cosine-similarity regression
loss (the CosineSimilarityLoss recipe) inside a small Trainer class."""
import random

import torch
import torch.nn.functional as F

from encoder import SentenceEncoder

PAIRS = [
    ("the cat sat on the mat", "a cat was sitting on the mat", 0.9),
    ("stocks fell sharply today", "markets dropped a lot today", 0.8),
    ("the cat sat on the mat", "stocks fell sharply today", 0.0),
    ("she plays the violin", "she is a violinist", 0.85),
    ("rain is expected tomorrow", "tomorrow will be wet", 0.8),
    ("she plays the violin", "rain is expected tomorrow", 0.05),
    ("he repaired the old bike", "the old bicycle was fixed by him", 0.9),
    ("he repaired the old bike", "markets dropped a lot today", 0.0),
]


class Trainer:
    def __init__(self, model, lr=5e-3, batch_size=4):
        self.model = model
        self.batch_size = batch_size
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.history = []

    def train_step(self, batch):
        first = [a for a, _, _ in batch]
        second = [b for _, b, _ in batch]
        labels = torch.tensor([s for _, _, s in batch])
        emb = self.model.encode(first + second)
        u, v = emb[:len(batch)], emb[len(batch):]
        loss = F.mse_loss((u * v).sum(-1), labels)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, pairs, epochs):
        rng = random.Random(0)
        for epoch in range(epochs):
            self.model.train()
            order = pairs[:]
            rng.shuffle(order)
            losses = [self.train_step(order[i:i + self.batch_size])
                      for i in range(0, len(order), self.batch_size)]
            self.history.append(sum(losses) / len(losses))
            print(f"epoch {epoch} loss {self.history[-1]:.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SentenceEncoder()
    Trainer(model).fit(PAIRS, epochs=3)
    sims = model.encode(["the cat sat on the mat"]) @ model.encode(["a cat was sitting on the mat"]).T
    print(f"similarity {sims.item():.4f}")
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")
