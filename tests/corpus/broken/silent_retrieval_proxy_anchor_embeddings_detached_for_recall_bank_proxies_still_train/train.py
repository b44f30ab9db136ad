"""Product-image retrieval: embedding net + Proxy-Anchor loss, Recall@1 on a bank."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from losses import ProxyAnchorLoss

torch.manual_seed(17)
N_CLASSES, IN_DIM, EMB_DIM = 6, 24, 8

centres = torch.randn(N_CLASSES, IN_DIM)
labels_all = torch.arange(N_CLASSES).repeat(16)
feats_all = centres[labels_all] + 0.8 * torch.randn(len(labels_all), IN_DIM)

embedder = nn.Sequential(nn.Linear(IN_DIM, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, EMB_DIM))
criterion = ProxyAnchorLoss(N_CLASSES, EMB_DIM)
optimizer = torch.optim.AdamW([
    {"params": embedder.parameters(), "lr": 1e-3},
    {"params": criterion.parameters(), "lr": 1e-2},
])


def recall_at_1(bank, bank_labels):
    e = F.normalize(bank)
    sim = e @ e.T
    sim.fill_diagonal_(-2.0)
    return (bank_labels[sim.argmax(1)] == bank_labels).float().mean().item()


for epoch in range(3):
    bank, bank_labels = [], []
    perm = torch.randperm(len(labels_all))
    for i in range(0, len(perm), 24):
        idx = perm[i:i + 24]
        emb = embedder(feats_all[idx]).detach()  # kept in the recall bank below
        bank.append(emb)
        bank_labels.append(labels_all[idx])
        loss = criterion(emb, labels_all[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    r1 = recall_at_1(torch.cat(bank), torch.cat(bank_labels))
    print(f"epoch {epoch} loss {loss.item():.4f} recall@1 {r1:.3f}")
