"""Fine-tuning a pretrained GraphSAGE-style encoder for node classification on a citation-like
graph. The pretrained encoder is deep-copied into the classifier so that the original stays
untouched for the link-prediction service that also uses it."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

N_NODES, N_FEAT, HID, N_CLASSES, EPOCHS = 40, 8, 16, 3, 6


class SAGELayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.self_lin, self.neigh_lin = nn.Linear(d_in, d_out), nn.Linear(d_in, d_out, bias=False)

    def forward(self, adj_mean, h):
        return self.self_lin(h) + self.neigh_lin(adj_mean @ h)


class SAGEEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([SAGELayer(N_FEAT, HID), SAGELayer(HID, HID)])

    def forward(self, adj_mean, x):
        h = x
        for layer in self.layers:
            h = F.relu(layer(adj_mean, h))
        return h


class NodeClassifier(nn.Module):
    def __init__(self, encoder):
        super().__init__()
        self.encoder, self.head = encoder, nn.Linear(HID, N_CLASSES)

    def forward(self, adj_mean, x):
        return self.head(self.encoder(adj_mean, x))


def citation_graph():
    labels = torch.randint(0, N_CLASSES, (N_NODES,))
    same = (labels[:, None] == labels[None, :]).float()
    adj = torch.bernoulli(0.05 + 0.25 * same).triu(1)
    adj = adj + adj.t()
    adj_mean = adj / adj.sum(1, keepdim=True).clamp_min(1)
    x = torch.randn(N_NODES, N_FEAT) + 0.8 * F.one_hot(labels, N_FEAT).float()
    return adj_mean, x, labels


def main():
    torch.manual_seed(0)
    adj_mean, x, labels = citation_graph()
    encoder = SAGEEncoder()
    encoder.load_state_dict({k: v * 1.1 for k, v in SAGEEncoder().state_dict().items()})
    model = NodeClassifier(copy.deepcopy(encoder))
    optimizer = torch.optim.Adam([
        {"params": model.encoder.parameters(), "lr": 1e-3},
        {"params": model.head.parameters(), "lr": 1e-2},
    ])
    train_mask = torch.arange(N_NODES) % 4 != 0
    for epoch in range(EPOCHS):
        logits = model(adj_mean, x)
        loss = F.cross_entropy(logits[train_mask], labels[train_mask])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        val_acc = (logits.argmax(1) == labels)[~train_mask].float().mean()
        print(f"epoch {epoch} loss {loss.item():.4f} val_acc {val_acc.item():.3f}")
    return model


if __name__ == "__main__":
    main()
