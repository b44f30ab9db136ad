"""Full-batch node classification on a synthetic two-community graph, printing the edges the
explainer considers most important after each epoch."""
import torch
import torch.nn.functional as F

from explain import edge_scores, format_edges, homophily
from layers import NodeClassifier

N_NODES, D_IN, HIDDEN, N_CLASSES = 24, 8, 16, 2


def community_graph():
    labels = torch.arange(N_NODES) % N_CLASSES
    same = labels[:, None] == labels[None, :]
    adj = torch.bernoulli(torch.where(same, torch.tensor(0.35), torch.tensor(0.05))).triu(1)
    adj = adj + adj.t() + torch.eye(N_NODES)
    deg = adj.sum(dim=1)
    adj = adj / torch.sqrt(deg[:, None] * deg[None, :])
    x = torch.randn(N_NODES, D_IN) + 0.8 * labels[:, None].float()
    return adj, x, labels


def train(epochs=5):
    torch.manual_seed(0)
    adj, x, labels = community_graph()
    train_mask = torch.rand(N_NODES) < 0.6
    model = NodeClassifier(D_IN, HIDDEN, N_CLASSES)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=5e-4)
    print(f"graph homophily {homophily(adj, labels):.3f}")
    for epoch in range(epochs):
        logits = model(adj, x)
        loss = F.cross_entropy(logits[train_mask], labels[train_mask])
        top_edges = edge_scores(model.last_agg)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (logits.argmax(1)[~train_mask] == labels[~train_mask]).float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.4f} val acc {acc:.3f} top edges {format_edges(top_edges, labels)}")


if __name__ == "__main__":
    train()
