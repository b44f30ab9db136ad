"""Multi-task toxicity prediction (Tox21-style) with a message-passing network over small
molecular graphs. Each molecule has up to four assay labels, some missing. The training
objective is picked by CONFIG["objective"] (metrics.py holds both)."""
import torch
import torch.nn as nn

from metrics import hard_macro_f1, macro_f1_objective, masked_bce

CONFIG = {"objective": "f1", "hidden": 32, "layers": 3, "lr": 3e-3, "epochs": 2}
N_ATOM_TYPES, N_TASKS = 6, 4

OBJECTIVES = {
    "bce": lambda logits, labels, mask: masked_bce(logits, labels, mask),
    "f1": lambda logits, labels, mask: macro_f1_objective(torch.sigmoid(logits), labels, mask),
}


class MPNN(nn.Module):
    def __init__(self, hidden, layers):
        super().__init__()
        self.atom_embed = nn.Embedding(N_ATOM_TYPES, hidden)
        self.messages = nn.ModuleList([nn.Linear(hidden, hidden) for _ in range(layers)])
        self.head = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, N_TASKS))

    def forward(self, atoms, adj, mol_index, n_mols):
        h = self.atom_embed(atoms)
        for message in self.messages:
            h = torch.relu(h + adj @ message(h))
        pooled = torch.zeros(n_mols, h.shape[1]).index_add(0, mol_index, h)
        counts = torch.bincount(mol_index, minlength=n_mols).clamp(min=1).unsqueeze(1)
        return self.head(pooled / counts)


def random_molecules(n_mols, gen):
    """A batch of random molecular graphs as one block-diagonal graph, with assay labels that
    depend on the atom types present and a missing-label mask."""
    sizes = torch.randint(4, 9, (n_mols,), generator=gen)
    atoms = torch.randint(0, N_ATOM_TYPES, (int(sizes.sum()),), generator=gen)
    mol_index = torch.repeat_interleave(torch.arange(n_mols), sizes)
    adj = torch.zeros(len(atoms), len(atoms))
    start = 0
    for size in sizes.tolist():
        for i in range(start + 1, start + size):  # a chain plus a random ring closure
            j = int(torch.randint(start, i, (1,), generator=gen))
            adj[i, i - 1] = adj[i - 1, i] = adj[i, j] = adj[j, i] = 1.0
        start += size
    counts = torch.zeros(n_mols, N_ATOM_TYPES).index_add(
        0, mol_index, nn.functional.one_hot(atoms, N_ATOM_TYPES).float())
    labels = torch.stack([counts[:, 0] >= 2, counts[:, 1] + counts[:, 2] >= 3,
                          counts[:, 5] == 0, counts[:, 3] > counts[:, 4]], dim=1).float()
    mask = (torch.rand(n_mols, N_TASKS, generator=gen) > 0.2).float()
    return atoms, adj, mol_index, labels, mask


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = MPNN(CONFIG["hidden"], CONFIG["layers"])
    optimizer = torch.optim.Adam(model.parameters(), lr=CONFIG["lr"])
    objective = OBJECTIVES[CONFIG["objective"]]
    batches = [random_molecules(32, gen) for _ in range(3)]
    for epoch in range(CONFIG["epochs"]):
        for atoms, adj, mol_index, labels, mask in batches:
            logits = model(atoms, adj, mol_index, len(labels))
            loss = objective(logits, labels, mask)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        f1 = hard_macro_f1(torch.sigmoid(logits), labels, mask)
        print(f"epoch {epoch} objective {loss.item():.4f} macro F1 {f1:.3f}")


if __name__ == "__main__":
    main()
