"""Retrieval-augmented tabular classifier (TabR-like) for a credit-default table.

Each query row attends over the encoded training rows (the candidates); the attention mixes
the candidates' label embeddings into the query representation. Encoding all candidates for
every batch is the expensive part, so the Trainer caches the candidate keys and refreshes the
cache every REFRESH_EVERY batches.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_TRAIN, N_FEAT, DIM, BATCH, EPOCHS, REFRESH_EVERY = 64, 7, 24, 16, 2, 4


class RetrievalClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(N_FEAT, DIM), nn.ReLU(), nn.Linear(DIM, DIM))
        self.label_emb = nn.Embedding(2, DIM)
        self.head = nn.Sequential(nn.LayerNorm(DIM), nn.Linear(DIM, 2))

    def encode(self, x):
        return self.encoder(x)

    def forward(self, x, cand_keys, cand_labels):
        q = self.encode(x)
        sim = -torch.cdist(q, cand_keys) ** 2 / DIM ** 0.5        # (B, N)
        attn = sim.softmax(dim=1)
        context = attn @ self.label_emb(cand_labels)               # (B, D)
        return self.head(q + context)


class Trainer:
    def __init__(self, model, x_train, y_train):
        self.model, self.x_train, self.y_train = model, x_train, y_train
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
        self.cand_keys = None
        self.step = 0

    def refresh_candidates(self):
        with torch.no_grad():
            self.cand_keys = self.model.encode(self.x_train)

    def train_batch(self, idx):
        if self.step % REFRESH_EVERY == 0:
            self.refresh_candidates()
        keep = torch.ones(N_TRAIN, dtype=torch.bool)
        keep[idx] = False                                           # no row retrieves itself
        logits = self.model(self.x_train[idx], self.cand_keys[keep], self.y_train[keep])
        loss = F.cross_entropy(logits, self.y_train[idx])
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.step += 1
        return loss.item(), (logits.argmax(1) == self.y_train[idx]).float().mean().item()

    def fit(self, epochs):
        for epoch in range(epochs):
            perm = torch.randperm(N_TRAIN)
            stats = [self.train_batch(perm[s:s + BATCH]) for s in range(0, N_TRAIN, BATCH)]
            loss = sum(s[0] for s in stats) / len(stats)
            acc = sum(s[1] for s in stats) / len(stats)
            print(f"epoch {epoch} loss {loss:.4f} acc {acc:.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(N_TRAIN, N_FEAT)
    y = ((x[:, 0] + 0.5 * x[:, 1] * x[:, 2]) > 0).long()
    trainer = Trainer(RetrievalClassifier(), x, y)
    trainer.fit(EPOCHS)
