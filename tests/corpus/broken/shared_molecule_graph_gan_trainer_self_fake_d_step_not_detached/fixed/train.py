"""A MolGAN-style generator of small molecular graphs (up to 6 heavy atoms, types C/N/O or
empty, bonds none/single/double). The generator emits soft (Gumbel-softmax) atom-type and
bond-type tensors; the discriminator is a one-layer relational graph convolution with a
sum readout. The trainer makes one fake batch per step and uses it for both updates."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_ATOMS, ATOM_TYPES, BOND_TYPES, Z_DIM, BATCH, STEPS = 6, 4, 3, 8, 8, 4


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(Z_DIM, 32), nn.Tanh(), nn.Linear(32, 64), nn.Tanh())
        self.atoms = nn.Linear(64, N_ATOMS * ATOM_TYPES)
        self.bonds = nn.Linear(64, N_ATOMS * N_ATOMS * BOND_TYPES)

    def forward(self, z):
        h = self.trunk(z)
        atom_logits = self.atoms(h).view(-1, N_ATOMS, ATOM_TYPES)
        bond_logits = self.bonds(h).view(-1, N_ATOMS, N_ATOMS, BOND_TYPES)
        bond_logits = (bond_logits + bond_logits.transpose(1, 2)) / 2
        return (F.gumbel_softmax(atom_logits, tau=1.0),
                F.gumbel_softmax(bond_logits, tau=1.0))


class RGCNDiscriminator(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.self_loop = nn.Linear(ATOM_TYPES, hidden)
        self.relations = nn.Linear(ATOM_TYPES, hidden * (BOND_TYPES - 1))
        self.readout = nn.Sequential(nn.Linear(hidden, hidden), nn.Tanh(), nn.Linear(hidden, 1))
        self.hidden = hidden

    def forward(self, atoms, bonds):
        msgs = self.relations(atoms).view(-1, N_ATOMS, BOND_TYPES - 1, self.hidden)
        adj = bonds[..., 1:]  # drop the "no bond" channel
        h = torch.tanh(self.self_loop(atoms) + torch.einsum("bijr,bjrh->bih", adj, msgs))
        return self.readout(h.sum(1)).squeeze(-1)


def real_molecules(batch):
    """Random chains: each atom is C/N/O, consecutive atoms bonded (mostly single)."""
    n = torch.randint(3, N_ATOMS + 1, (batch,))
    kinds = torch.multinomial(torch.tensor([0.0, 0.7, 0.15, 0.15]), batch * N_ATOMS, True)
    kinds = kinds.view(batch, N_ATOMS)
    present = torch.arange(N_ATOMS)[None] < n[:, None]
    atoms = F.one_hot(torch.where(present, kinds, 0), ATOM_TYPES).float()
    order = torch.where(torch.rand(batch, N_ATOMS - 1) < 0.8, 1, 2)
    bond_idx = torch.zeros(batch, N_ATOMS, N_ATOMS, dtype=torch.long)
    link = present[:, 1:]
    i = torch.arange(N_ATOMS - 1)
    bond_idx[:, i, i + 1] = torch.where(link, order, 0)
    bond_idx[:, i + 1, i] = torch.where(link, order, 0)
    return atoms, F.one_hot(bond_idx, BOND_TYPES).float()


class MolGANTrainer:
    def __init__(self):
        self.G, self.D = Generator(), RGCNDiscriminator()
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=1e-3, betas=(0.5, 0.999))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=1e-3, betas=(0.5, 0.999))
        self.fake = None

    def d_step(self, real):
        self.fake = self.G(torch.randn(BATCH, Z_DIM))
        real_logit = self.D(*real)
        fake_logit = self.D(*(t.detach() for t in self.fake))
        d_loss = (F.binary_cross_entropy_with_logits(real_logit, torch.ones(BATCH))
                  + F.binary_cross_entropy_with_logits(fake_logit, torch.zeros(BATCH)))
        self.opt_d.zero_grad()
        d_loss.backward()
        self.opt_d.step()
        return d_loss.item()

    def g_step(self):
        g_loss = F.binary_cross_entropy_with_logits(self.D(*self.fake), torch.ones(BATCH))
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        return g_loss.item()


def main():
    torch.manual_seed(0)
    trainer = MolGANTrainer()
    for step in range(STEPS):
        d_loss = trainer.d_step(real_molecules(BATCH))
        g_loss = trainer.g_step()
        atoms, _ = trainer.fake
        heavy = (atoms.argmax(-1) > 0).float().sum(1).mean().item()
        print(f"step {step} d_loss {d_loss:.4f} g_loss {g_loss:.4f} heavy atoms/mol {heavy:.2f}")


if __name__ == "__main__":
    main()
