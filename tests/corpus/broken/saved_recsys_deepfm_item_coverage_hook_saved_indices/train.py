"""DeepFM click-through-rate model on synthetic (user, item, category) impressions.
A probe on the item embedding reports catalogue coverage after every optimiser step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from probes import ItemCoverageProbe

N_USERS, N_ITEMS, N_CATS, EMB = 40, 60, 6, 8


class DeepFM(nn.Module):
    def __init__(self):
        super().__init__()
        self.user_emb = nn.Embedding(N_USERS, EMB)
        self.item_emb = nn.Embedding(N_ITEMS, EMB)
        self.cat_emb = nn.Embedding(N_CATS, EMB)
        self.linear = nn.Embedding(N_USERS + N_ITEMS + N_CATS, 1)
        self.deep = nn.Sequential(nn.Linear(3 * EMB, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, user, item, cat):
        fields = torch.stack([self.user_emb(user), self.item_emb(item), self.cat_emb(cat)], 1)
        square_of_sum = fields.sum(1).pow(2)
        sum_of_square = fields.pow(2).sum(1)
        fm = 0.5 * (square_of_sum - sum_of_square).sum(1)
        flat_ids = torch.stack([user, item + N_USERS, cat + N_USERS + N_ITEMS], 1)
        first_order = self.linear(flat_ids).sum((1, 2))
        deep = self.deep(fields.flatten(1)).squeeze(1)
        return first_order + fm + deep


def make_impressions(n, generator):
    user = torch.randint(0, N_USERS, (n,), generator=generator)
    item = torch.randint(0, N_ITEMS, (n,), generator=generator)
    cat = item % N_CATS
    affinity = ((user % N_CATS) == cat).float()
    click = (torch.rand(n, generator=generator) < 0.15 + 0.6 * affinity).float()
    return user, item, cat, click


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    model = DeepFM()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    probe = ItemCoverageProbe(model.item_emb, N_ITEMS)
    for step in range(6):
        user, item, cat, click = make_impressions(64, gen)
        logits = model(user, item, cat)
        loss = F.binary_cross_entropy_with_logits(logits, click)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        coverage = probe.update()
        print(f"step {step} bce {loss.item():.4f} item coverage {coverage:.2%}")
    probe.close()


if __name__ == "__main__":
    main()
