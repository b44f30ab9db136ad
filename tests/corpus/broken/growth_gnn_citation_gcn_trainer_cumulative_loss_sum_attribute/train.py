"""Semi-supervised node classification on a small synthetic citation graph
with a two-layer GCN, trained on mini-batches of labelled nodes."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_citation_graph(n_nodes=60, n_feats=12, n_classes=3, seed=0):
    g = torch.Generator().manual_seed(seed)
    labels = torch.randint(0, n_classes, (n_nodes,), generator=g)
    same = labels[:, None] == labels[None, :]
    probs = torch.where(same, torch.tensor(0.20), torch.tensor(0.02))
    adj = (torch.rand(n_nodes, n_nodes, generator=g) < probs).float()
    adj = torch.triu(adj, 1)
    adj = adj + adj.t() + torch.eye(n_nodes)
    deg_inv_sqrt = adj.sum(1).pow(-0.5)
    norm_adj = deg_inv_sqrt[:, None] * adj * deg_inv_sqrt[None, :]
    centers = torch.randn(n_classes, n_feats, generator=g)
    feats = centers[labels] + 0.8 * torch.randn(n_nodes, n_feats, generator=g)
    return norm_adj, feats, labels


class GCN(nn.Module):
    def __init__(self, n_feats, hidden, n_classes):
        super().__init__()
        self.lin1 = nn.Linear(n_feats, hidden)
        self.lin2 = nn.Linear(hidden, n_classes)

    def forward(self, adj, x):
        h = F.relu(adj @ self.lin1(x))
        return adj @ self.lin2(F.dropout(h, 0.2, self.training))


class NodeTrainer:
    def __init__(self, model, adj, feats, labels, lr=0.02, batch_size=8):
        self.model = model
        self.adj, self.feats, self.labels = adj, feats, labels
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=5e-4)
        self.batch_size = batch_size
        self.loss_sum = 0.0
        self.n_seen = 0

    def train_step(self, node_idx):
        self.model.train()
        logits = self.model(self.adj, self.feats)
        loss = F.cross_entropy(logits[node_idx], self.labels[node_idx])
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.loss_sum += loss * len(node_idx)
        self.n_seen += len(node_idx)
        return loss

    def running_loss(self):
        return self.loss_sum / max(self.n_seen, 1)

    def fit(self, train_idx, epochs):
        for epoch in range(epochs):
            perm = train_idx[torch.randperm(len(train_idx))]
            for start in range(0, len(perm), self.batch_size):
                self.train_step(perm[start:start + self.batch_size])
            print(f"epoch {epoch} running loss {self.running_loss():.4f}")

    @torch.no_grad()
    def accuracy(self, idx):
        self.model.eval()
        pred = self.model(self.adj, self.feats).argmax(1)
        return (pred[idx] == self.labels[idx]).float().mean().item()


if __name__ == "__main__":
    torch.manual_seed(0)
    adj, feats, labels = make_citation_graph()
    train_idx, test_idx = torch.arange(0, 32), torch.arange(32, 60)
    trainer = NodeTrainer(GCN(feats.shape[1], 16, 3), adj, feats, labels)
    trainer.fit(train_idx, epochs=3)
    print(f"test accuracy {trainer.accuracy(test_idx):.3f}")
