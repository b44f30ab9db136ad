"""CTR model with SENET field re-weighting (FiBiNET style): field embeddings are squeezed
to one number per field, an excitation MLP turns them into per-field weights, and the
re-weighted embeddings go to a small MLP tower. Trainer class keeps the loop state."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
FIELD_SIZES = [10, 8, 6, 12, 5]
DIM = 8


class SENetCTR(nn.Module):
    def __init__(self, field_sizes, dim, reduction=2):
        super().__init__()
        self.offsets = torch.tensor([0] + field_sizes[:-1]).cumsum(0)
        self.embed = nn.Embedding(sum(field_sizes), dim)
        n_fields = len(field_sizes)
        self.excitation = nn.Sequential(
            nn.Linear(n_fields, n_fields // reduction), nn.ReLU(inplace=True),
            nn.Linear(n_fields // reduction, n_fields), nn.Sigmoid(),
            nn.ReLU(),
        )
        self.tower = nn.Sequential(nn.Linear(n_fields * dim, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, fields):
        emb = self.embed(fields + self.offsets)
        weights = self.excitation(emb.mean(dim=-1))
        reweighted = emb * weights.unsqueeze(-1)
        return self.tower(reweighted.flatten(1)).squeeze(-1)


class Trainer:
    def __init__(self, model, lr=5e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.step = 0

    def train_step(self, fields, clicks):
        logits = self.model(fields)
        loss = F.binary_cross_entropy_with_logits(logits, clicks)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.step += 1
        return loss.item()

    def fit(self, batches, epochs=2):
        for epoch in range(epochs):
            losses = [self.train_step(f, c) for f, c in batches]
            print(f"epoch {epoch} mean loss {sum(losses) / len(losses):.4f}")


def click_log(n_batches=3, batch=32):
    batches = []
    for _ in range(n_batches):
        fields = torch.stack([torch.randint(0, s, (batch,)) for s in FIELD_SIZES], dim=1)
        clicks = ((fields[:, 0] % 3 == 0) | (fields[:, 3] > 8)).float()
        batches.append((fields, clicks))
    return batches


Trainer(SENetCTR(FIELD_SIZES, DIM)).fit(click_log())
