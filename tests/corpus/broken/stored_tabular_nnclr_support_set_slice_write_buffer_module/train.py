"""Self-supervised pre-training of a tabular encoder (credit-application features) with
SCARF-style feature corruption as augmentation and the NNCLR objective."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from support import SupportSet

N_FEATS, EMB, BATCH, QUEUE, TAU = 12, 16, 8, 32, 0.2


class TabularEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(N_FEATS, 64), nn.ReLU(), nn.Linear(64, 32))
        self.projector = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, EMB))

    def forward(self, x):
        return F.normalize(self.projector(self.backbone(x)), dim=1)


def corrupt(x, table, rate, generator):
    """Replace a random subset of each row's features by values drawn from other rows."""
    mask = torch.rand(x.shape, generator=generator) < rate
    donors = table[torch.randint(0, table.size(0), (x.size(0),), generator=generator)]
    return torch.where(mask, donors, x)


def nnclr_loss(nn_z, z):
    logits = nn_z @ z.t() / TAU
    return F.cross_entropy(logits, torch.arange(z.size(0)))


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    table = torch.randn(64, N_FEATS, generator=gen)
    encoder, support = TabularEncoder(), SupportSet(QUEUE, EMB)
    optimizer = torch.optim.AdamW(encoder.parameters(), lr=1e-3)
    for step in range(6):
        rows = table[torch.randint(0, 64, (BATCH,), generator=gen)]
        z1 = encoder(corrupt(rows, table, 0.3, gen))
        z2 = encoder(corrupt(rows, table, 0.3, gen))
        loss = 0.5 * (nnclr_loss(support.nearest(z1), z2) + nnclr_loss(support.nearest(z2), z1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        support.enqueue(z1)
        print(f"step {step} nnclr loss {loss.item():.4f} queue ptr {support.ptr}")


if __name__ == "__main__":
    main()
