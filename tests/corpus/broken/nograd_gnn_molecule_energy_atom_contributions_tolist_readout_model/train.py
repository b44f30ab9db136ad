"""Fit AtomEnergyNet to reference energies of small random molecules (a QM9-like toy set),
a few mini-batches of graphs per epoch."""
import torch
import torch.nn.functional as F

from model import AtomEnergyNet

torch.manual_seed(0)
ATOM_REF = torch.tensor([-0.5, -37.8, -54.6, -75.0, -99.7])


def molecule(gen):
    n = int(torch.randint(3, 9, (1,), generator=gen))
    z = torch.randint(0, 5, (n,), generator=gen)
    pos = torch.randn(n, 3, generator=gen) * 1.2
    d = torch.cdist(pos, pos)
    src, dst = torch.nonzero((d < 2.0) & (d > 0), as_tuple=True)
    energy = ATOM_REF[z].sum() + 0.3 * torch.exp(-d[src, dst]).sum()
    return z, src, dst, d[src, dst], energy


def collate(mols):
    zs, srcs, dsts, dists, batch, ys, offset = [], [], [], [], [], [], 0
    for g, (z, src, dst, dist, y) in enumerate(mols):
        zs.append(z)
        srcs.append(src + offset)
        dsts.append(dst + offset)
        dists.append(dist)
        batch.append(torch.full((len(z),), g))
        ys.append(y)
        offset += len(z)
    edge_index = torch.stack([torch.cat(srcs), torch.cat(dsts)])
    return torch.cat(zs), edge_index, torch.cat(dists), torch.cat(batch), torch.stack(ys)


gen = torch.Generator().manual_seed(4)
dataset = [molecule(gen) for _ in range(24)]
model = AtomEnergyNet()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)

for epoch in range(3):
    for start in range(0, len(dataset), 8):
        z, edge_index, dist, batch, y = collate(dataset[start:start + 8])
        pred = model(z, edge_index, dist, batch, num_graphs=len(y))
        loss = F.mse_loss(pred / 10, y / 10)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} mse {loss.item():.4f}")
