"""Two-task GCN on a synthetic graph: node classification and link reconstruction share the
graph convolutions. To see whether the tasks pull the shared layers in different directions,
each task's gradient on the shared convolutions is measured separately: the two losses are
backwarded one after the other over the same forward graph, and one optimizer step follows."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_NODES, D_IN, HIDDEN, N_CLASSES, LINK_WEIGHT = 30, 8, 16, 3, 0.5


class SharedGCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.convs = nn.ModuleList([nn.Linear(D_IN, HIDDEN), nn.Linear(HIDDEN, HIDDEN)])
        self.node_head = nn.Linear(HIDDEN, N_CLASSES)
        self.link_proj = nn.Linear(HIDDEN, HIDDEN)

    def forward(self, adj_norm, x):
        h = x
        for conv in self.convs:
            h = torch.relu(conv(adj_norm @ h))
        return h, self.node_head(h), self.link_proj(h)


def make_graph():
    labels = torch.arange(N_NODES) % N_CLASSES
    p = torch.where(labels[:, None] == labels[None, :], torch.tensor(0.3), torch.tensor(0.04))
    adj = torch.bernoulli(p).triu(1)
    adj = adj + adj.t()
    a_hat = adj + torch.eye(N_NODES)
    d = a_hat.sum(1).rsqrt()
    return adj, d[:, None] * a_hat * d[None, :], torch.randn(N_NODES, D_IN), labels


def shared_grad(model):
    return torch.cat([p.grad.flatten() for p in model.convs.parameters()]).clone()


def train(epochs=6):
    torch.manual_seed(0)
    adj, adj_norm, x, labels = make_graph()
    model = SharedGCN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(epochs):
        _, logits, z = model(adj_norm, x)
        node_loss = F.cross_entropy(logits, labels)
        link_logits = z @ z.t()
        link_loss = LINK_WEIGHT * F.binary_cross_entropy_with_logits(link_logits, adj)
        optimizer.zero_grad()
        node_loss.backward(retain_graph=True)  # the link loss still needs the shared graph
        g_node = shared_grad(model)
        link_loss.backward()  # accumulates on top of the node-task gradient
        g_link = shared_grad(model) - g_node
        cosine = F.cosine_similarity(g_node, g_link, dim=0).item()
        optimizer.step()
        print(f"epoch {epoch} node {node_loss.item():.4f} link {link_loss.item():.4f} "
              f"|g_node| {g_node.norm().item():.4f} |g_link| {g_link.norm().item():.4f} "
              f"cos {cosine:+.3f}")
    checksum = sum(p.detach().sum().item() for p in model.parameters())
    print(f"param checksum {checksum:.6f}")


if __name__ == "__main__":
    train()
