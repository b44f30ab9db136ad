"""Energy model for periodic ionic crystals: learned pair term plus a smeared reciprocal-space term."""
import math

import torch
import torch.nn as nn

N_RBF = 9
CUTOFF = 4.0


class PairEnergy(nn.Module):
    def __init__(self, species_emb, hidden=16):
        super().__init__()
        self.species_emb = species_emb
        self.mlp = nn.Sequential(nn.Linear(species_emb.embedding_dim + N_RBF, hidden), nn.SiLU(),
                                 nn.Linear(hidden, 1))
        self.register_buffer("centers", torch.linspace(0.5, CUTOFF, N_RBF))

    def forward(self, pos, species, cell):
        i, j = torch.triu_indices(pos.shape[0], pos.shape[0], offset=1)
        frac = (pos[i] - pos[j]) @ torch.linalg.inv(cell)
        r = ((frac - torch.round(frac)) @ cell).norm(dim=-1)
        rbf = torch.exp(-4.0 * (r[:, None] - self.centers) ** 2)
        pair = self.species_emb(species[i]) + self.species_emb(species[j])
        envelope = 0.5 * (torch.cos(math.pi * r.clamp(max=CUTOFF) / CUTOFF) + 1.0)
        return (self.mlp(torch.cat([pair, rbf], dim=-1)).squeeze(-1) * envelope).sum()


class SmearedReciprocalTerm(nn.Module):
    """Structure-factor sum on a fixed k-grid; the Gaussian smearing width is learned."""

    def __init__(self, n_k=3):
        super().__init__()
        self.log_sigma = nn.Parameter(torch.tensor(-0.5))
        self.n_k = n_k
        self._kernel_cache = {}

    def kernel(self, cell):
        key = tuple(round(v, 6) for v in cell.flatten().tolist())
        if key not in self._kernel_cache:
            idx = torch.arange(1, self.n_k + 1, dtype=torch.float32)
            grid = torch.stack(torch.meshgrid(idx, idx, idx, indexing="ij"), dim=-1).reshape(-1, 3)
            kvecs = 2 * math.pi * grid @ torch.linalg.inv(cell).T
            k2 = (kvecs ** 2).sum(-1)
            damping = torch.exp(-0.5 * self.log_sigma.exp() ** 2 * k2) / k2
            self._kernel_cache[key] = (kvecs, damping)
        return self._kernel_cache[key]

    def forward(self, pos, charges, cell):
        kvecs, damping = self.kernel(cell)
        phase = pos @ kvecs.T
        s_re = (charges[:, None] * torch.cos(phase)).sum(0)
        s_im = (charges[:, None] * torch.sin(phase)).sum(0)
        return 4 * math.pi * (damping * (s_re ** 2 + s_im ** 2)).sum() / torch.det(cell).abs()


class CrystalEnergyModel(nn.Module):
    def __init__(self, n_species=2, dim=8):
        super().__init__()
        self.species_emb = nn.Embedding(n_species, dim)
        self.pair = PairEnergy(self.species_emb)
        self.charge_head = nn.Linear(dim, 1)
        self.long_range = SmearedReciprocalTerm()

    def forward(self, pos, species, cell):
        charges = torch.tanh(self.charge_head(self.species_emb(species))).squeeze(-1)
        charges = charges - charges.mean()
        return self.pair(pos, species, cell) + self.long_range(pos, charges, cell)
