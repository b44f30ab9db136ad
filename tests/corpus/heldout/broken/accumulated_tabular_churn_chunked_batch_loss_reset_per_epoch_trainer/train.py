"""Customer-churn model on mixed tabular data (categorical embeddings + numeric features).
Batches are processed in smaller chunks to bound activation memory and the chunk losses are
summed into one batch loss before the backward pass."""
import torch
import torch.nn as nn
import torch.nn.functional as F

CARDINALITIES = {"plan": 4, "region": 6, "device": 3}
N_NUMERIC, EMB_DIM = 5, 4


class ChurnModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embeddings = nn.ModuleDict({k: nn.Embedding(n, EMB_DIM) for k, n in CARDINALITIES.items()})
        self.numeric_norm = nn.BatchNorm1d(N_NUMERIC)
        width = EMB_DIM * len(CARDINALITIES) + N_NUMERIC
        self.mlp = nn.Sequential(nn.Linear(width, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 1))

    def forward(self, categorical, numeric):
        embs = [self.embeddings[k](categorical[:, i]) for i, k in enumerate(CARDINALITIES)]
        return self.mlp(torch.cat(embs + [self.numeric_norm(numeric)], dim=1)).squeeze(1)


class ChunkedTrainer:
    def __init__(self, model, chunk_size=8, lr=1e-2):
        self.model = model
        self.chunk_size = chunk_size
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
        self.pos_weight = torch.tensor(2.0)

    def start_epoch(self):
        self.model.train()
        self.batch_loss = 0.0
        self.seen = 0

    def train_batch(self, categorical, numeric, churned):
        n = churned.numel()
        for start in range(0, n, self.chunk_size):
            sl = slice(start, start + self.chunk_size)
            logits = self.model(categorical[sl], numeric[sl])
            chunk_loss = F.binary_cross_entropy_with_logits(
                logits, churned[sl], pos_weight=self.pos_weight, reduction="sum")
            self.batch_loss = self.batch_loss + chunk_loss / n
        self.optimizer.zero_grad()
        self.batch_loss.backward()
        self.optimizer.step()
        self.seen += n
        return self.batch_loss.item()

    def fit(self, batches, epochs):
        for epoch in range(epochs):
            self.start_epoch()
            losses = [self.train_batch(*batch) for batch in batches]
            print(f"epoch {epoch}: rows {self.seen} mean batch loss {sum(losses) / len(losses):.4f}")


def make_batches(n_batches=3, batch_size=24):
    batches = []
    for _ in range(n_batches):
        categorical = torch.stack([torch.randint(0, n, (batch_size,)) for n in CARDINALITIES.values()], dim=1)
        numeric = torch.randn(batch_size, N_NUMERIC)
        risk = 1.2 * (categorical[:, 0] == 0).float() + numeric[:, 0] - 0.5 * numeric[:, 1]
        churned = (risk + 0.3 * torch.randn(batch_size) > 0.8).float()
        batches.append((categorical, numeric, churned))
    return batches


if __name__ == "__main__":
    torch.manual_seed(0)
    ChunkedTrainer(ChurnModel()).fit(make_batches(), epochs=2)
