"""LightGCN with BPR on a synthetic click graph. Propagation runs inside every training
step; at the end of each epoch the trainer propagates once more under torch.no_grad() to
build an evaluation table, kept on the trainer, that is used for recall@5 and to mine hard
negatives for the next epoch's batches."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS, N_ITEMS, DIM, N_LAYERS, K = 16, 24, 12, 2, 5


def sym_norm_adj(clicks):
    n = N_USERS + N_ITEMS
    adj = torch.zeros(n, n)
    adj[:N_USERS, N_USERS:] = clicks
    adj[N_USERS:, :N_USERS] = clicks.t()
    d = adj.sum(1).clamp(min=1).rsqrt()
    return d[:, None] * adj * d[None, :]


class LightGCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.user_emb = nn.Embedding(N_USERS, DIM)
        self.item_emb = nn.Embedding(N_ITEMS, DIM)
        nn.init.normal_(self.user_emb.weight, std=0.1)
        nn.init.normal_(self.item_emb.weight, std=0.1)

    def forward(self, adj):
        e = torch.cat([self.user_emb.weight, self.item_emb.weight])
        out = e / (N_LAYERS + 1)
        for _ in range(N_LAYERS):
            e = adj @ e
            out = out + e / (N_LAYERS + 1)
        return out[:N_USERS], out[N_USERS:]


class Trainer:
    def __init__(self, model, clicks, held_out):
        self.model, self.clicks, self.held_out = model, clicks, held_out
        self.adj = sym_norm_adj(clicks)
        self.pairs = clicks.nonzero()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
        self.eval_users = self.eval_items = None

    def negatives(self, users):
        if self.eval_users is None:
            return torch.randint(0, N_ITEMS, (len(users),))
        scores = self.eval_users[users] @ self.eval_items.t()
        scores = scores.masked_fill(self.clicks[users] > 0, float("-inf"))
        pick = torch.randint(0, 3, (len(users),))
        return scores.topk(3, dim=1).indices[torch.arange(len(users)), pick]

    def step(self, users, pos):
        neg = self.negatives(users)
        u_all, i_all = self.model(self.adj)
        u, p, n = u_all[users], i_all[pos], i_all[neg]
        loss = -F.logsigmoid((u * p).sum(-1) - (u * n).sum(-1)).mean()
        loss = loss + 1e-4 * (self.model.user_emb(users).pow(2).sum()
                              + self.model.item_emb(pos).pow(2).sum()) / len(users)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    @torch.no_grad()
    def evaluate(self):
        self.eval_users, self.eval_items = self.model(self.adj)
        scores = (self.eval_users @ self.eval_items.t()).masked_fill(self.clicks > 0, float("-inf"))
        top = scores.topk(K, dim=1).indices
        hits = self.held_out.gather(1, top).sum(1)
        return (hits / self.held_out.sum(1).clamp(min=1)).mean().item()

    def fit(self, epochs):
        for epoch in range(epochs):
            order = torch.randperm(len(self.pairs))
            losses = [self.step(*self.pairs[idx].t()) for idx in order.split(24)[:3]]
            recall = self.evaluate()
            print(f"epoch {epoch} loss {sum(losses) / len(losses):.4f} recall@{K} {recall:.4f}")


torch.manual_seed(7)
affinity = torch.randn(N_USERS, 3) @ torch.randn(3, N_ITEMS)
all_clicks = (affinity > 0.8).float()
mask = torch.rand(N_USERS, N_ITEMS) < 0.8
model = LightGCN()
trainer = Trainer(model, all_clicks * mask, all_clicks * ~mask)
trainer.fit(epochs=3)
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
