"""Semi-supervised node classification on a small citation-like graph, with an auxiliary
link-reconstruction loss (GAE style) on the same GCN embeddings. The model returns a dict of
loss terms; a backward closure built once per run backwards every term and logs how much
gradient each term puts on the encoder."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_NODES, N_FEAT, HID, N_CLASSES = 40, 12, 16, 3


def make_graph():
    labels = torch.randint(0, N_CLASSES, (N_NODES,))
    same = (labels[:, None] == labels[None, :]).float()
    adj = torch.bernoulli(0.05 + 0.3 * same).triu(1)
    adj = adj + adj.t()
    a_hat = adj + torch.eye(N_NODES)
    d = a_hat.sum(1).rsqrt()
    x = torch.randn(N_NODES, N_FEAT) + F.one_hot(labels, N_FEAT).float()
    return d[:, None] * a_hat * d[None, :], adj, x, labels


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Linear(N_FEAT, HID)
        self.conv2 = nn.Linear(HID, HID)
        self.classify = nn.Linear(HID, N_CLASSES)

    def encode(self, a_hat, x):
        h = F.relu(a_hat @ self.conv1(x))
        return a_hat @ self.conv2(F.dropout(h, 0.2, self.training))


def loss_terms(model, z, adj, labels, train_mask):
    logits = model.classify(z)
    pos = adj.nonzero()
    neg = torch.randint(0, N_NODES, pos.shape)
    pos_score = (z[pos[:, 0]] * z[pos[:, 1]]).sum(-1)
    neg_score = (z[neg[:, 0]] * z[neg[:, 1]]).sum(-1)
    link = F.binary_cross_entropy_with_logits(
        torch.cat([pos_score, neg_score]),
        torch.cat([torch.ones_like(pos_score), torch.zeros_like(neg_score)]))
    return {"node_ce": F.cross_entropy(logits[train_mask], labels[train_mask]),
            "link_bce": 0.5 * link}


def make_backward(encoder_params, history):
    def backward_terms(terms):
        for name, term in terms.items():
            grads = torch.autograd.grad(term, encoder_params, retain_graph=True)
            added = sum(g.norm() ** 2 for g in grads)
            history.setdefault(name, []).append(added.sqrt().item())
        sum(terms.values()).backward()
    return backward_terms


def main(epochs=6):
    torch.manual_seed(0)
    a_hat, adj, x, labels = make_graph()
    train_mask = torch.rand(N_NODES) < 0.4
    model = GCN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=5e-4)
    history = {}
    backward_terms = make_backward([model.conv1.weight, model.conv2.weight], history)
    for epoch in range(epochs):
        model.train()
        optimizer.zero_grad()
        z = model.encode(a_hat, x)
        terms = loss_terms(model, z, adj, labels, train_mask)
        backward_terms(terms)
        optimizer.step()
        logs = " ".join(f"{k} {v.item():.4f} (|g| {history[k][-1]:.3f})" for k, v in terms.items())
        print(f"epoch {epoch}: {logs}")
    return history


if __name__ == "__main__":
    main()
