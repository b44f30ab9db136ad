"""Deep & Cross Network for click-through-rate prediction on synthetic ad impressions:
4 sparse fields (ad id, advertiser, site, device) and 3 dense features."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import CrossNetwork, FieldEmbedding, mlp

CARDINALITIES = [30, 8, 12, 3]
EMB_DIM, N_DENSE, BATCH, STEPS = 6, 3, 64, 6
INPUT_DIM = EMB_DIM * len(CARDINALITIES) + N_DENSE


class DCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = FieldEmbedding(CARDINALITIES, EMB_DIM)
        self.cross = CrossNetwork(INPUT_DIM, n_layers=2)
        self.deep = mlp([INPUT_DIM, 32, 16])
        self.out = nn.Linear(INPUT_DIM + 16, 1)

    def forward(self, sparse, dense):
        x0 = torch.cat([self.embed(sparse), dense], dim=1)
        deep = self.deep(x0)
        cross = self.cross(x0)
        return self.out(torch.cat([cross, deep], dim=1)).squeeze(1)


def impressions(generator):
    sparse = torch.stack([torch.randint(0, c, (BATCH,), generator=generator)
                          for c in CARDINALITIES], dim=1)
    dense = torch.randn(BATCH, N_DENSE, generator=generator)
    logit = 0.8 * (sparse[:, 0] % 3 == 0).float() - 0.5 * dense[:, 0] + 0.3 * (sparse[:, 3] == 1)
    clicks = torch.bernoulli(torch.sigmoid(logit - 1.0), generator=generator)
    return sparse, dense, clicks


def train():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(7)
    model = DCN()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    for step in range(STEPS):
        sparse, dense, clicks = impressions(gen)
        logits = model(sparse, dense)
        loss = F.binary_cross_entropy_with_logits(logits, clicks)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        ctr = torch.sigmoid(logits).mean().item()
        print(f"step {step} logloss {loss.item():.4f} predicted ctr {ctr:.3f} "
              f"observed ctr {clicks.mean().item():.3f}")


if __name__ == "__main__":
    train()
