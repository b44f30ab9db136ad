"""SCARF-style contrastive pretraining on tabular rows with an online probe.

The linear probe reads feats.detach(): it must not shape the representation.
Its loss is added to the contrastive loss and everything sits in one
optimizer; the encoder and projector still learn from the contrastive term,
and the probe from its own cross-entropy.  .detach() is not in-place, so only
the probe's input is cut.

Modelled on https://github.com/vturrisi/solo-learn/issues/135
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ScarfModel(nn.Module):
    def __init__(self, n_features=12, dim=24, n_classes=3):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(n_features, dim), nn.ReLU(),
                                     nn.Linear(dim, dim), nn.ReLU())
        self.projector = nn.Linear(dim, dim)
        self.probe = nn.Linear(dim, n_classes)

    def forward(self, x):
        feats = self.encoder(x)
        return feats, self.projector(feats), self.probe(feats.detach())


def corrupt(x, table, rate=0.4):
    """Replace a random subset of cells with values from random other rows."""
    mask = torch.rand_like(x) < rate
    donors = table[torch.randint(0, table.shape[0], (x.shape[0],))]
    return torch.where(mask, donors, x)


def info_nce(a, b, temperature=0.2):
    a, b = F.normalize(a, dim=1), F.normalize(b, dim=1)
    logits = a @ b.t() / temperature
    return F.cross_entropy(logits, torch.arange(a.shape[0]))


def main():
    torch.manual_seed(15)
    table = torch.randn(64, 12)
    labels = (table[:, 0] > 0.5).long() + (table[:, 1] > 0.5).long()
    model = ScarfModel()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
    for epoch in range(2):
        for i in range(0, 64, 16):
            x, y = table[i:i + 16], labels[i:i + 16]
            _, z_anchor, probe_logits = model(x)
            _, z_view, _ = model(corrupt(x, table))
            ssl = info_nce(z_anchor, z_view)
            probe = F.cross_entropy(probe_logits, y)
            loss = ssl + probe
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        acc = (probe_logits.argmax(1) == y).float().mean().item()
        print(f"epoch {epoch} info-nce {ssl.item():.4f} probe ce {probe.item():.4f} acc {acc:.3f}")
    checksum = sum(p.detach().abs().sum().item() for p in model.parameters())
    print(f"param checksum {checksum:.5f}")


if __name__ == "__main__":
    main()
