"""Item-to-item recommendation with a two-layer mean-aggregation GNN over an item
co-purchase graph (PinSage-like). Hard negatives are mined once per epoch from the current
item embeddings; each batch is a set of (anchor, positive) co-purchase pairs."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_ITEMS, FEAT, HIDDEN, BATCH, MARGIN = 40, 10, 16, 8, 0.3


def co_purchase_graph():
    cluster = torch.arange(N_ITEMS) % 5
    same = (cluster[:, None] == cluster[None, :]).float()
    adj = (torch.rand(N_ITEMS, N_ITEMS) < 0.4).float() * same
    adj = ((adj + adj.t()) > 0).float().fill_diagonal_(1.0)
    feats = F.one_hot(cluster, 5).float() @ torch.randn(5, FEAT) + 0.3 * torch.randn(N_ITEMS, FEAT)
    pairs = adj.triu(diagonal=1).nonzero()
    return feats, adj / adj.sum(dim=1, keepdim=True), pairs


class MeanSAGE(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = nn.Linear(2 * FEAT, HIDDEN)
        self.layer2 = nn.Linear(2 * HIDDEN, HIDDEN)

    def forward(self, x, norm_adj):
        h = F.relu(self.layer1(torch.cat([x, norm_adj @ x], dim=1)))
        return F.normalize(self.layer2(torch.cat([h, norm_adj @ h], dim=1)), dim=1)


class RecTrainer:
    def __init__(self):
        self.feats, self.norm_adj, self.pairs = co_purchase_graph()
        self.model = MeanSAGE()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=5e-3)
        self.item_table = None
        self.hard_negatives = None

    def refresh_negatives(self):
        self.item_table = self.model(self.feats, self.norm_adj)
        sims = self.item_table @ self.item_table.t()
        sims = sims.masked_fill(self.norm_adj > 0, -2.0)
        self.hard_negatives = sims.argmax(dim=1)

    def train_step(self, batch_pairs):
        emb = self.model(self.feats, self.norm_adj)
        anchor, pos = emb[batch_pairs[:, 0]], emb[batch_pairs[:, 1]]
        neg = self.item_table[self.hard_negatives[batch_pairs[:, 0]]]
        loss = F.relu((anchor * neg).sum(1) - (anchor * pos).sum(1) + MARGIN).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, epochs=2, batches_per_epoch=3):
        for epoch in range(epochs):
            self.refresh_negatives()
            order = torch.randperm(self.pairs.size(0))[:batches_per_epoch * BATCH]
            losses = [self.train_step(self.pairs[idx]) for idx in order.split(BATCH)]
            print(f"epoch {epoch} mean triplet loss {sum(losses) / len(losses):.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    RecTrainer().fit()
