"""Predicts whether a (synthetic) protein is soluble from its sequence with a one-layer
transformer reading a [CLS] summary token."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import ResidueEmbedding

torch.manual_seed(0)
AMINO = "ACDEFGHIKLMNPQRSTVWY"
CLS_ID, LENGTH, DIM = 20, 24, 16
HYDROPHOBIC = torch.tensor([AMINO.index(a) for a in "AILMFVW"])


class SolubilityNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = ResidueEmbedding(len(AMINO) + 1, DIM, LENGTH + 1)
        self.encoder = nn.TransformerEncoderLayer(DIM, nhead=2, dim_feedforward=32,
                                                  dropout=0.0, batch_first=True)
        self.head = nn.Linear(DIM, 1)

    def forward(self, seqs):
        cls = torch.full((seqs.shape[0], 1), CLS_ID, dtype=torch.long)
        h = self.encoder(self.embed(torch.cat([cls, seqs], dim=1)))
        return self.head(h[:, 0]).squeeze(1)


def make_proteins(n):
    seqs = torch.randint(0, len(AMINO), (n, LENGTH))
    hydrophobic_frac = torch.isin(seqs, HYDROPHOBIC).float().mean(1)
    soluble = (hydrophobic_frac < hydrophobic_frac.median()).float()
    return seqs, soluble


def main(epochs=3, batch=24):
    seqs, soluble = make_proteins(72)
    model = SolubilityNet()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for epoch in range(epochs):
        for start in range(0, len(seqs), batch):
            logits = model(seqs[start:start + batch])
            loss = F.binary_cross_entropy_with_logits(logits, soluble[start:start + batch])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} bce {loss.item():.4f}")


if __name__ == "__main__":
    main()
