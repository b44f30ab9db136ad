"""Three-layer mean-aggregation GCN with PairNorm on a synthetic 3-community graph.
Labels are known for a quarter of the nodes; the rest are used for evaluation."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from graph_ops import pair_norm, stochastic_block_model

FEATS, HIDDEN, CLASSES = 12, 32, 3


class MeanConv(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim, bias=False)
        self.bias = nn.Parameter(torch.zeros(out_dim))

    def forward(self, x, adj, deg):
        out = adj @ self.lin(x)
        out.div_(deg)
        return out + self.bias


class PairNormGCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.convs = nn.ModuleList([MeanConv(FEATS, HIDDEN), MeanConv(HIDDEN, HIDDEN),
                                    MeanConv(HIDDEN, CLASSES)])

    def forward(self, x, adj):
        deg = adj.sum(dim=1, keepdim=True)
        for conv in self.convs[:-1]:
            x = torch.relu(conv(x, adj, deg))
            x = pair_norm(x, scale=1.0)
        return self.convs[-1](x, adj, deg)


def main(epochs=5):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(11)
    adj, labels = stochastic_block_model([20, 20, 20], 0.25, 0.02, gen)
    centres = torch.randn(CLASSES, FEATS, generator=gen)
    feats = centres[labels] + 1.5 * torch.randn(len(labels), FEATS, generator=gen)
    train_mask = torch.rand(len(labels), generator=gen) < 0.25

    model = PairNormGCN()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    for epoch in range(epochs):
        model.train()
        logits = model(feats, adj)
        loss = F.cross_entropy(logits[train_mask], labels[train_mask])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (logits.argmax(1) == labels)[~train_mask].float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.4f} held-out acc {acc:.3f}")
    return acc


if __name__ == "__main__":
    main()
