"""Multi-task recommender: a shared user/item tower with a click (CTR) head and a conversion
(CVR) head. Each task has its own optimizer and the tasks are updated one after the other."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS, N_ITEMS, DIM, BATCH = 50, 40, 8, 32


class SharedTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.users = nn.Embedding(N_USERS, DIM)
        self.items = nn.Embedding(N_ITEMS, DIM)
        self.mlp = nn.Sequential(nn.Linear(2 * DIM, 16), nn.ReLU())

    def forward(self, u, i):
        return self.mlp(torch.cat([self.users(u), self.items(i)], -1))


def impressions(n):
    u, i = torch.randint(0, N_USERS, (n,)), torch.randint(0, N_ITEMS, (n,))
    click = ((u + i) % 3 == 0).float()
    buy = click * ((u * i) % 5 == 0).float()
    return u, i, click, buy


def train_epoch(tower, ctr_head, cvr_head, opt_ctr, opt_cvr, n_batches=4):
    for b in range(n_batches):
        u, i, click, buy = impressions(BATCH)
        feats = tower(u, i)

        ctr_logit = ctr_head(feats).squeeze(-1)
        loss_ctr = F.binary_cross_entropy_with_logits(ctr_logit, click)
        opt_ctr.zero_grad()
        loss_ctr.backward()
        opt_ctr.step()

        cvr_logit = cvr_head(feats).squeeze(-1)
        loss_cvr = F.binary_cross_entropy_with_logits(cvr_logit, buy)
        opt_cvr.zero_grad()
        loss_cvr.backward()
        opt_cvr.step()
        print(f"batch {b}: ctr {loss_ctr.item():.4f} cvr {loss_cvr.item():.4f}")


torch.manual_seed(0)
tower, ctr_head, cvr_head = SharedTower(), nn.Linear(16, 1), nn.Linear(16, 1)
opt_ctr = torch.optim.Adam(list(tower.parameters()) + list(ctr_head.parameters()), lr=1e-2)
opt_cvr = torch.optim.Adam(list(tower.parameters()) + list(cvr_head.parameters()), lr=5e-3)
train_epoch(tower, ctr_head, cvr_head, opt_ctr, opt_cvr)
