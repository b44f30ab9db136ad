"""ESMM-style recommender: a shared user/item embedding feeds a CTR tower and a CVR tower,
and the CVR is learned through pCTCVR = pCTR * pCVR over the whole impression space."""
import torch
import torch.nn as nn


class ESMM(nn.Module):
    def __init__(self, n_users, n_items, dim=8, hidden=16):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, dim)
        self.item_emb = nn.Embedding(n_items, dim)
        self.ctr_tower = nn.Sequential(nn.Linear(2 * dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.cvr_tower = nn.Sequential(nn.Linear(2 * dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, users, items):
        x = torch.cat([self.user_emb(users), self.item_emb(items)], dim=1)
        p_ctr = torch.sigmoid(self.ctr_tower(x)).squeeze(1)
        p_cvr = torch.sigmoid(self.cvr_tower(x)).squeeze(1)
        return p_ctr, p_ctr * p_cvr


def make_impressions(n, n_users, n_items, gen):
    """Synthetic impression log: a click depends on user/item affinity, a purchase
    happens only after a click."""
    users = torch.randint(0, n_users, (n,), generator=gen)
    items = torch.randint(0, n_items, (n,), generator=gen)
    taste = torch.randn(n_users, 4, generator=gen)
    style = torch.randn(n_items, 4, generator=gen)
    affinity = (taste[users] * style[items]).sum(1)
    click = (torch.rand(n, generator=gen) < torch.sigmoid(affinity - 0.5)).float()
    buy = (torch.rand(n, generator=gen) < torch.sigmoid(affinity - 1.5)).float() * click
    return users, items, click, buy
