"""Two-tower retrieval model (user tower / item tower) trained with in-batch sampled
softmax on synthetic implicit feedback."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from metrics import TowerGradLogger

N_USERS, N_ITEMS, DIM = 50, 80, 16


class Tower(nn.Module):
    def __init__(self, n_ids, n_feats, dim):
        super().__init__()
        self.emb = nn.Embedding(n_ids, dim)
        self.mlp = nn.Sequential(nn.Linear(dim + n_feats, 32), nn.ReLU(), nn.Linear(32, dim))

    def forward(self, ids, feats):
        return F.normalize(self.mlp(torch.cat([self.emb(ids), feats], dim=1)), dim=1)


class RetrievalTrainer:
    def __init__(self, temperature=0.1, lr=1e-2):
        self.user_tower = Tower(N_USERS, 4, DIM)
        self.item_tower = Tower(N_ITEMS, 6, DIM)
        params = list(self.user_tower.parameters()) + list(self.item_tower.parameters())
        self.optimizer = torch.optim.Adam(params, lr=lr)
        self.temperature = temperature
        self.grad_logger = TowerGradLogger({"user": self.user_tower, "item": self.item_tower})

    def step(self, step, batch):
        users, user_feats, items, item_feats = batch
        u = self.user_tower(users, user_feats)
        v = self.item_tower(items, item_feats)
        logits = u @ v.t() / self.temperature
        loss = F.cross_entropy(logits, torch.arange(len(users)))
        self.optimizer.zero_grad()
        loss.backward()
        norms = self.grad_logger(step, loss)
        self.optimizer.step()
        return loss.item(), norms


def make_batches(n_batches, size, gen):
    for _ in range(n_batches):
        users = torch.randint(0, N_USERS, (size,), generator=gen)
        items = (users * 7 + torch.randint(0, 3, (size,), generator=gen)) % N_ITEMS
        yield (users, torch.randn(size, 4, generator=gen),
               items, torch.randn(size, 6, generator=gen))


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    trainer = RetrievalTrainer()
    for step, batch in enumerate(make_batches(6, 16, gen)):
        loss, norms = trainer.step(step, batch)
        extra = "" if norms is None else f" user_grad {norms['user']:.3f} item_grad {norms['item']:.3f}"
        print(f"step {step} loss {loss:.4f}{extra}")


if __name__ == "__main__":
    main()
