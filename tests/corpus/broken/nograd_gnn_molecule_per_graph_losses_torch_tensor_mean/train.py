"""Train MoleculeGIN on synthetic molecules: one loss per graph, averaged per mini-batch."""
import torch
import torch.nn.functional as F

from gnn import MoleculeGIN, random_molecule

N_ATOM_TYPES = 6


def train_epoch(model, optimizer, molecules, batch_size=8):
    epoch_losses = []
    for start in range(0, len(molecules), batch_size):
        losses = []
        for atoms, adj, target in molecules[start:start + batch_size]:
            losses.append(F.mse_loss(model(atoms, adj), target))
        loss = torch.tensor(losses).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        epoch_losses.append(loss.item())
    return sum(epoch_losses) / len(epoch_losses)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    molecules = [random_molecule(N_ATOM_TYPES, gen) for _ in range(32)]
    model = MoleculeGIN(N_ATOM_TYPES)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(2):
        print(f"epoch {epoch} mse {train_epoch(model, optimizer, molecules):.4f}")


if __name__ == "__main__":
    main()
