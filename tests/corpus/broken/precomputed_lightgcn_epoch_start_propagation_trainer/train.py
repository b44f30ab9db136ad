"""LightGCN on a synthetic user-item click graph, BPR loss over sampled triples. The trainer
propagates the embeddings over the normalised interaction graph at the start of each epoch
and the mini-batches index into the propagated table."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS, N_ITEMS, DIM, N_LAYERS = 20, 30, 16, 2


class LightGCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(N_USERS + N_ITEMS, DIM)
        nn.init.normal_(self.embedding.weight, std=0.1)

    def propagate(self, adj_norm):
        e = self.embedding.weight
        layers = [e]
        for _ in range(N_LAYERS):
            e = torch.sparse.mm(adj_norm, e)
            layers.append(e)
        return torch.stack(layers).mean(0)


def build_graph(clicks):
    users, items = clicks.nonzero(as_tuple=True)
    rows = torch.cat([users, items + N_USERS])
    cols = torch.cat([items + N_USERS, users])
    deg = torch.bincount(rows, minlength=N_USERS + N_ITEMS).float().clamp(min=1)
    vals = deg[rows].rsqrt() * deg[cols].rsqrt()
    n = N_USERS + N_ITEMS
    return torch.sparse_coo_tensor(torch.stack([rows, cols]), vals, (n, n),
                                   check_invariants=True).coalesce()


class LightGCNTrainer:
    def __init__(self, model, clicks, batch_size=32, reg=1e-4):
        self.model = model
        self.clicks = clicks
        self.adj = build_graph(clicks)
        self.pairs = clicks.nonzero()
        self.batch_size, self.reg = batch_size, reg
        self.optimizer = torch.optim.Adam(model.parameters(), lr=0.01)

    def on_epoch_start(self):
        self.final_emb = self.model.propagate(self.adj)

    def sample_batches(self):
        order = torch.randperm(len(self.pairs))
        for idx in order.split(self.batch_size)[:3]:
            users, pos = self.pairs[idx, 0], self.pairs[idx, 1]
            neg = torch.randint(0, N_ITEMS, (len(idx),))
            yield users, pos, neg

    def training_step(self, users, pos, neg):
        u = self.final_emb[users]
        i_pos = self.final_emb[N_USERS + pos]
        i_neg = self.final_emb[N_USERS + neg]
        bpr = -F.logsigmoid((u * i_pos).sum(-1) - (u * i_neg).sum(-1)).mean()
        ego = self.model.embedding(torch.cat([users, N_USERS + pos, N_USERS + neg]))
        loss = bpr + self.reg * ego.pow(2).sum() / len(users)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, epochs):
        for epoch in range(epochs):
            self.on_epoch_start()
            losses = [self.training_step(*batch) for batch in self.sample_batches()]
            print(f"epoch {epoch} bpr loss {sum(losses) / len(losses):.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    taste = torch.randn(N_USERS, 4) @ torch.randn(4, N_ITEMS)
    clicks = (taste > 1.0).float()
    trainer = LightGCNTrainer(LightGCN(), clicks)
    trainer.fit(epochs=2)
