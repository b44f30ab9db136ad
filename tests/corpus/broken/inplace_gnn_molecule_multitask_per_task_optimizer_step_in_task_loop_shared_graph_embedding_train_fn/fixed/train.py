"""Multi-task molecular property model: one message-passing encoder, one head per
assay. Following the "separate optimisers per task" recipe, every task has its own
Adam over the encoder and its head, and the tasks take turns updating each batch.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(13)
ATOM_FEATS, HIDDEN = 6, 24
TASKS = ("solubility", "toxicity")


class MolEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.atom_in = nn.Linear(ATOM_FEATS, HIDDEN)
        self.conv1 = nn.Linear(HIDDEN, HIDDEN)
        self.conv2 = nn.Linear(HIDDEN, HIDDEN)

    def forward(self, atoms, adj, pool):
        h = torch.relu(self.atom_in(atoms))
        h = torch.relu(self.conv1(adj @ h))
        h = torch.relu(self.conv2(adj @ h))
        return pool @ h  # mean over each molecule's atoms


class MultiTaskGNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = MolEncoder()
        self.heads = nn.ModuleDict({t: nn.Linear(HIDDEN, 1) for t in TASKS})


def random_batch(n_mols=6, atoms_per_mol=5):
    n = n_mols * atoms_per_mol
    atoms = torch.randn(n, ATOM_FEATS)
    adj = torch.zeros(n, n)
    for m in range(n_mols):
        for a in range(atoms_per_mol - 1):  # chain molecules
            i = m * atoms_per_mol + a
            adj[i, i + 1] = adj[i + 1, i] = 1.0
    adj = adj + torch.eye(n)
    adj = adj / adj.sum(1, keepdim=True)
    pool = torch.repeat_interleave(torch.eye(n_mols), atoms_per_mol, dim=1) / atoms_per_mol
    props = pool @ atoms
    targets = {"solubility": props[:, 0] - 0.5 * props[:, 1],
               "toxicity": (props[:, 2] > 0).float()}
    return atoms, adj, pool, targets


LOSSES = {"solubility": F.mse_loss, "toxicity": F.binary_cross_entropy_with_logits}


def train(epochs=3, batches_per_epoch=2):
    model = MultiTaskGNN()
    optimizers = {
        t: torch.optim.Adam(list(model.encoder.parameters()) + list(model.heads[t].parameters()),
                            lr=3e-3)
        for t in TASKS
    }
    data = [random_batch() for _ in range(batches_per_epoch)]
    for epoch in range(epochs):
        logs = {t: 0.0 for t in TASKS}
        for atoms, adj, pool, targets in data:
            for task in TASKS:
                mol_emb = model.encoder(atoms, adj, pool)  # fresh forward: the previous task's step changed the encoder
                pred = model.heads[task](mol_emb).squeeze(-1)
                loss = LOSSES[task](pred, targets[task])
                optimizers[task].zero_grad()
                loss.backward()
                optimizers[task].step()
                logs[task] += loss.item() / len(data)
        print(f"epoch {epoch} " + " ".join(f"{t} {v:.4f}" for t, v in logs.items()))
    return model


if __name__ == "__main__":
    trained = train()
    print("checksum", sum(p.sum().item() for p in trained.parameters()))
