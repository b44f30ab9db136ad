"""Multi-task GNN on a synthetic co-purchase graph: a shared 2-layer GCN encoder with a node
classification head (category prediction) and a dot-product link decoder (edge
reconstruction with negative sampling), trained jointly by GraphTrainer."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_NODES, N_FEATS, N_CLASSES, HIDDEN = 36, 10, 3, 24


class MultiTaskGCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Linear(N_FEATS, HIDDEN)
        self.conv2 = nn.Linear(HIDDEN, HIDDEN)
        self.classifier = nn.Linear(HIDDEN, N_CLASSES)

    def forward(self, x, a_hat):
        h = F.relu(a_hat @ self.conv1(x))
        z = a_hat @ self.conv2(h)
        return z, self.classifier(z)


class GraphTrainer:
    def __init__(self, model, a_hat, edges, link_weight=0.5):
        self.model, self.a_hat, self.edges = model, a_hat, edges
        self.link_weight = link_weight
        self.optimizer = torch.optim.Adam(model.parameters(), lr=0.01)

    def link_loss(self, z):
        neg = torch.randint(0, N_NODES, self.edges.shape)
        pos_score = (z[self.edges[0]] * z[self.edges[1]]).sum(1)
        neg_score = (z[neg[0]] * z[neg[1]]).sum(1)
        scores = torch.cat([pos_score, neg_score])
        targets = torch.cat([torch.ones_like(pos_score), torch.zeros_like(neg_score)])
        return F.binary_cross_entropy_with_logits(scores, targets)

    def step(self, x, labels, mask):
        z, logits = self.model(x, self.a_hat)
        node_loss = F.cross_entropy(logits[mask], labels[mask])
        edge_loss = self.link_loss(z)
        total = torch.tensor(node_loss.item() + self.link_weight * edge_loss.item(), requires_grad=True)
        self.optimizer.zero_grad()
        total.backward()
        self.optimizer.step()
        acc = (logits[mask].argmax(1) == labels[mask]).float().mean().item()
        return node_loss.item(), edge_loss.item(), acc

    def fit(self, x, labels, mask, epochs):
        for epoch in range(epochs):
            node, edge, acc = self.step(x, labels, mask)
            print(f"epoch {epoch}: node ce {node:.4f} link bce {edge:.4f} train acc {acc:.3f}")


def copurchase_graph():
    labels = torch.arange(N_NODES) % N_CLASSES
    same = labels[:, None] == labels[None, :]
    adj = torch.triu((torch.rand(N_NODES, N_NODES) < torch.where(same, 0.3, 0.03)).float(), 1)
    edges = adj.nonzero().t()
    adj = adj + adj.t() + torch.eye(N_NODES)
    d = adj.sum(1).rsqrt()
    feats = F.one_hot(labels, N_FEATS).float() + 0.7 * torch.randn(N_NODES, N_FEATS)
    return feats, d[:, None] * adj * d[None, :], edges, labels


torch.manual_seed(0)
feats, a_hat, edges, labels = copurchase_graph()
trainer = GraphTrainer(MultiTaskGCN(), a_hat, edges)
trainer.fit(feats, labels, torch.rand(N_NODES) < 0.5, epochs=6)
