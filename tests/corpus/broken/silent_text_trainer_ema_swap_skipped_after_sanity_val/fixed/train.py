"""Review-sentiment classifier (EmbeddingBag + MLP) with a Trainer that keeps an EMA copy
of the model and validates with the EMA weights by swapping the two modules. Like the
big frameworks, fit() first runs a couple of sanity validation batches."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, POS_WORDS, NEG_WORDS = 200, range(10, 30), range(30, 50)


class BagClassifier(nn.Module):
    def __init__(self, vocab=VOCAB, dim=24, n_classes=2):
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Dropout(0.1),
                                 nn.Linear(dim, n_classes))

    def forward(self, tokens, offsets):
        return self.mlp(self.embed(tokens, offsets))


def make_batches(n_batches, batch=16, gen=None):
    batches = []
    for _ in range(n_batches):
        labels = torch.randint(0, 2, (batch,), generator=gen)
        docs = []
        for y in labels.tolist():
            words = torch.randint(50, VOCAB, (int(torch.randint(5, 12, (1,), generator=gen)),),
                                  generator=gen)
            cue = POS_WORDS if y == 1 else NEG_WORDS
            words[:3] = torch.tensor(cue)[torch.randint(0, 20, (3,), generator=gen)]
            docs.append(words)
        offsets = torch.tensor([0] + [len(d) for d in docs[:-1]]).cumsum(0)
        batches.append((torch.cat(docs), offsets, labels))
    return batches


class Trainer:
    def __init__(self, model, lr=5e-3, ema_decay=0.9):
        self.model = model
        self.ema_model = copy.deepcopy(model)
        self.ema_decay = ema_decay
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)

    def _swap_ema(self):
        self.model, self.ema_model = self.ema_model, self.model

    @torch.no_grad()
    def _update_ema(self):
        for ema_p, p in zip(self.ema_model.parameters(), self.model.parameters()):
            ema_p.mul_(self.ema_decay).add_(p, alpha=1 - self.ema_decay)

    def validate(self, batches, max_batches=None):
        self._swap_ema()
        self.model.eval()
        correct = total = 0
        with torch.no_grad():
            for i, (tokens, offsets, labels) in enumerate(batches):
                if max_batches is not None and i == max_batches:
                    break
                correct += (self.model(tokens, offsets).argmax(1) == labels).sum().item()
                total += len(labels)
        self._swap_ema()
        self.model.train()
        return correct / total

    def fit(self, train_batches, val_batches, epochs=2):
        print(f"sanity val acc {self.validate(val_batches, max_batches=1):.3f}")
        for epoch in range(epochs):
            self.model.train()
            for tokens, offsets, labels in train_batches:
                loss = F.cross_entropy(self.model(tokens, offsets), labels)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                self._update_ema()
            print(f"epoch {epoch} loss {loss.item():.4f} "
                  f"ema val acc {self.validate(val_batches):.3f}")


gen = torch.Generator().manual_seed(3)
trainer = Trainer(BagClassifier())
trainer.fit(make_batches(4, gen=gen), make_batches(2, gen=gen))
