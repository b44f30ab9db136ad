"""Node classification on a small citation-style graph with a GCN encoder that was first
pre-trained by link reconstruction. Fine-tuning freezes the encoder on purpose and trains a
new head alone; from epoch 3 the last GCN layer is unfrozen and added to the optimizer as a
new parameter group with a smaller learning rate."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(17)
N_NODES, N_FEATS, HIDDEN, N_CLASSES = 24, 8, 16, 3


def make_graph():
    labels = torch.arange(N_NODES) % N_CLASSES
    x = F.one_hot(labels, N_CLASSES).float() @ torch.randn(N_CLASSES, N_FEATS) + 0.5 * torch.randn(N_NODES, N_FEATS)
    same = labels[:, None] == labels[None, :]
    adj = (torch.rand(N_NODES, N_NODES) < torch.where(same, 0.35, 0.05)).float()
    adj = ((adj + adj.T) > 0).float().fill_diagonal_(1.0)
    deg = adj.sum(1)
    a_hat = adj / torch.sqrt(deg[:, None] * deg[None, :])
    return x, adj, a_hat, labels


class GCNEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(N_FEATS, HIDDEN), nn.Linear(HIDDEN, HIDDEN)])

    def forward(self, x, a_hat):
        h = x
        for i, layer in enumerate(self.layers):
            h = a_hat @ layer(h)
            if i < len(self.layers) - 1:
                h = F.relu(h)
        return h


def pretrain(encoder, x, adj, a_hat, steps=4):
    opt = torch.optim.Adam(encoder.parameters(), lr=1e-2)
    for step in range(steps):
        z = encoder(x, a_hat)
        loss = F.binary_cross_entropy_with_logits(z @ z.T, adj)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"pretrain {step} recon {loss.item():.4f}")


def finetune(encoder, x, a_hat, labels, epochs=6, unfreeze_at=3):
    train_mask = torch.arange(N_NODES) < 18
    encoder.requires_grad_(False)
    head = nn.Linear(HIDDEN, N_CLASSES)
    optimizer = torch.optim.Adam(head.parameters(), lr=2e-2)
    for epoch in range(epochs):
        if epoch == unfreeze_at:
            last = encoder.layers[-1]
            last.requires_grad_(True)
            optimizer.add_param_group({"params": last.parameters(), "lr": 2e-3})
            print(f"epoch {epoch}: unfroze encoder.layers[-1]")
        logits = head(encoder(x, a_hat))
        loss = F.cross_entropy(logits[train_mask], labels[train_mask])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            acc = (logits[~train_mask].argmax(1) == labels[~train_mask]).float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.4f} held-out acc {acc:.3f}")
    return head


if __name__ == "__main__":
    x, adj, a_hat, labels = make_graph()
    encoder = GCNEncoder()
    pretrain(encoder, x, adj, a_hat)
    first_layer_before = encoder.layers[0].weight.sum().item()
    head = finetune(encoder, x, a_hat, labels)
    print(f"first layer unchanged: {encoder.layers[0].weight.sum().item() == first_layer_before}")
    print(f"checksum {sum(p.sum().item() for p in encoder.parameters()) + sum(p.sum().item() for p in head.parameters()):.4f}")
