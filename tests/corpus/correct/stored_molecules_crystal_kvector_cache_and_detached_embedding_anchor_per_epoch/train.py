"""Fine-tune a crystal energy model on MD frames that share one cell.

Two things are kept between steps and look risky, but neither carries a graph:
- the k-vector cache is built from the cell only (no learned input), and
- the species-embedding anchor for the proximal penalty is refreshed once per epoch with
  .detach().clone(), so it is a constant for every step of that epoch.
The learned smearing width is applied to the cached geometry on every call.
"""
import math

import torch
import torch.nn as nn

torch.manual_seed(15)
A = 4.2
CELL = A * torch.eye(3)


class CrystalEnergy(nn.Module):
    def __init__(self, n_species=2, dim=8, n_k=3):
        super().__init__()
        self.species_emb = nn.Embedding(n_species, dim)
        self.pair_mlp = nn.Sequential(nn.Linear(dim + 1, 16), nn.SiLU(), nn.Linear(16, 1))
        self.charge_head = nn.Linear(dim, 1)
        self.log_sigma = nn.Parameter(torch.tensor(-0.5))
        self.n_k = n_k
        self._kvec_cache = {}

    def kvectors(self, cell):
        key = tuple(round(v, 6) for v in cell.flatten().tolist())
        if key not in self._kvec_cache:
            idx = torch.arange(1, self.n_k + 1, dtype=torch.float32)
            grid = torch.stack(torch.meshgrid(idx, idx, idx, indexing="ij"), -1).reshape(-1, 3)
            kvecs = 2 * math.pi * grid @ torch.linalg.inv(cell).T
            self._kvec_cache[key] = (kvecs, (kvecs ** 2).sum(-1))
        return self._kvec_cache[key]

    def forward(self, pos, species, cell):
        emb = self.species_emb(species)
        i, j = torch.triu_indices(pos.shape[0], pos.shape[0], offset=1)
        frac = (pos[i] - pos[j]) @ torch.linalg.inv(cell)
        r = ((frac - torch.round(frac)) @ cell).norm(dim=-1, keepdim=True)
        pair = self.pair_mlp(torch.cat([emb[i] + emb[j], r], dim=-1)).sum()
        q = torch.tanh(self.charge_head(emb)).squeeze(-1)
        q = q - q.mean()
        kvecs, k2 = self.kvectors(cell)
        damping = torch.exp(-0.5 * self.log_sigma.exp() ** 2 * k2) / k2
        phase = pos @ kvecs.T
        s2 = (q[:, None] * torch.cos(phase)).sum(0) ** 2 + (q[:, None] * torch.sin(phase)).sum(0) ** 2
        return pair + 4 * math.pi * (damping * s2).sum() / torch.det(cell).abs()


def md_frames(n):
    base = torch.tensor([[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5],
                         [0.5, 0, 0], [0, 0.5, 0], [0, 0, 0.5], [0.5, 0.5, 0.5]]) * A
    species = torch.tensor([0, 0, 0, 0, 1, 1, 1, 1])
    out = []
    for _ in range(n):
        pos = base + 0.08 * torch.randn_like(base)
        out.append((pos, species, -8.0 + 2.5 * ((pos - base) ** 2).sum()))
    return out


model = CrystalEnergy()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
frames = md_frames(4)
for epoch in range(2):
    anchor = model.species_emb.weight.detach().clone()
    for k, (pos, species, energy) in enumerate(frames):
        pred = model(pos, species, CELL)
        prox = ((model.species_emb.weight - anchor) ** 2).sum()
        loss = (pred - energy) ** 2 + 0.1 * prox
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch} frame {k} pred {pred.item():+.4f} ref {energy.item():+.4f}")

print(f"sigma {model.log_sigma.exp().item():.6f}")
print(f"checksum {sum(p.abs().sum().item() for p in model.parameters()):.6f}")
