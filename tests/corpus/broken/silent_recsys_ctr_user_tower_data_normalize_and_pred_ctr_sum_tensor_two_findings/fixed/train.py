# Two-tower CTR model: user tower on dense profile features, item embedding
# table, dot-product score plus a bias.  Logs the mean predicted CTR next to
# the observed click rate as a calibration check.
import torch
import torch.nn as nn
import torch.nn.functional as F

N_ITEMS, USER_FEAT, DIM = 40, 10, 8


class TwoTowerCTR(nn.Module):
    def __init__(self):
        super().__init__()
        self.user_tower = nn.Sequential(nn.Linear(USER_FEAT, 16), nn.ReLU(), nn.Linear(16, DIM))
        self.item_emb = nn.Embedding(N_ITEMS, DIM)
        self.bias = nn.Parameter(torch.zeros(1))

    def score(self, user_vec, item_ids):
        item_vec = F.normalize(self.item_emb(item_ids), dim=1)
        return 4.0 * (user_vec * item_vec).sum(dim=1) + self.bias


def click_log(n_batches, batch, gen):
    w = torch.randn(USER_FEAT, generator=gen)
    for _ in range(n_batches):
        users = torch.randn(batch, USER_FEAT, generator=gen)
        items = torch.randint(0, N_ITEMS, (batch,), generator=gen)
        p = torch.sigmoid(users @ w * 0.5 + (items % 3 == 0).float() - 0.5)
        yield users, items, torch.bernoulli(p, generator=gen)


torch.manual_seed(1)
gen = torch.Generator().manual_seed(1)
model = TwoTowerCTR()
opt = torch.optim.Adagrad(model.parameters(), lr=0.05)

for epoch in range(2):
    pred_ctr_sum, clicks, seen = 0.0, 0.0, 0
    for users, items, clicked in click_log(4, 32, gen):
        user_vec = model.user_tower(users)
        user_vec = F.normalize(user_vec, dim=1)
        logits = model.score(user_vec, items)
        loss = F.binary_cross_entropy_with_logits(logits, clicked)
        opt.zero_grad()
        loss.backward()
        opt.step()
        pred_ctr_sum += torch.sigmoid(logits).sum().item()
        clicks += clicked.sum().item()
        seen += len(clicked)
    print(f"epoch {epoch} loss {loss.item():.4f} "
          f"pred ctr {float(pred_ctr_sum) / seen:.3f} true ctr {clicks / seen:.3f}")

print("checksum", round(sum(p.sum().item() for p in model.parameters()), 4))
