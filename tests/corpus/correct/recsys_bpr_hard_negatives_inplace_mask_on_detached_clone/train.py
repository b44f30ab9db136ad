"""BPR matrix factorisation with hard-negative mining. The scores for every item are
computed once per batch; a detached clone of them is masked in place (seen items set to
-inf) to pick hard negatives, and the item table is max-norm renormalised in place after
each optimizer step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS, N_ITEMS, DIM, MAX_NORM = 40, 60, 12, 1.5


class MF(nn.Module):
    def __init__(self):
        super().__init__()
        self.user_emb = nn.Embedding(N_USERS, DIM)
        self.item_emb = nn.Embedding(N_ITEMS, DIM)
        nn.init.normal_(self.user_emb.weight, std=0.3)
        nn.init.normal_(self.item_emb.weight, std=0.3)

    def forward(self, users):
        return self.user_emb(users) @ self.item_emb.weight.t()  # (B, N_ITEMS)


def synthetic_interactions(gen):
    taste = torch.randn(N_USERS, 4, generator=gen)
    genre = torch.randn(N_ITEMS, 4, generator=gen)
    affinity = taste @ genre.t()
    return affinity > affinity.quantile(0.8, dim=1, keepdim=True)  # (U, I) bool


def sample_batch(seen, batch, gen):
    users = torch.randint(0, N_USERS, (batch,), generator=gen)
    pos = torch.multinomial(seen[users].float(), 1, generator=gen).squeeze(1)
    return users, pos


def recall_at_k(model, seen, k=5):
    with torch.no_grad():
        top = model(torch.arange(N_USERS)).topk(k, dim=1).indices
    return seen.gather(1, top).float().sum(1).div(k).mean().item()


torch.manual_seed(0)
gen = torch.Generator().manual_seed(21)
seen = synthetic_interactions(gen)
model = MF()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-2)

for epoch in range(3):
    running = 0.0
    for step in range(2):
        users, pos = sample_batch(seen, 32, gen)
        scores = model(users)
        mining = scores.detach().clone()
        mining[seen[users]] = float("-inf")  # never pick a consumed item as a negative
        candidates = mining.topk(8, dim=1).indices
        pick = torch.randint(0, 8, (len(users), 1), generator=gen)
        neg = candidates.gather(1, pick).squeeze(1)
        pos_score = scores.gather(1, pos[:, None]).squeeze(1)
        neg_score = scores.gather(1, neg[:, None]).squeeze(1)
        loss = -F.logsigmoid(pos_score - neg_score).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            model.item_emb.weight.renorm_(2, 0, MAX_NORM)
        running += loss.item()
    print(f"epoch {epoch} bpr {running / 2:.5f} recall@5 {recall_at_k(model, seen):.4f}")

checksum = sum(p.double().sum().item() for p in model.parameters())
print(f"param checksum {checksum:.6f}")
