"""Fit the crystal energy model to frames of a short NVT trajectory of a rock-salt cell."""
import torch

from model import CrystalEnergyModel

torch.manual_seed(4)

A = 4.2
CELL = A * torch.eye(3)


def rock_salt_frames(n_frames, jitter=0.08):
    base = torch.tensor([[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5],
                         [0.5, 0, 0], [0, 0.5, 0], [0, 0, 0.5], [0.5, 0.5, 0.5]]) * A
    species = torch.tensor([0, 0, 0, 0, 1, 1, 1, 1])
    for _ in range(n_frames):
        pos = base + jitter * torch.randn_like(base)
        # reference energy: harmonic in the displacement from the ideal sites
        energy = -8.0 + 2.5 * ((pos - base) ** 2).sum()
        yield pos, species, energy


def main():
    model = CrystalEnergyModel()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    frames = list(rock_salt_frames(5))
    for epoch in range(2):
        for k, (pos, species, energy) in enumerate(frames):
            pred = model(pos, species, CELL)
            loss = (pred - energy) ** 2
            opt.zero_grad()
            loss.backward()
            opt.step()
            print(f"epoch {epoch} frame {k} pred {pred.item():+.4f} ref {energy.item():+.4f}")


if __name__ == "__main__":
    main()
