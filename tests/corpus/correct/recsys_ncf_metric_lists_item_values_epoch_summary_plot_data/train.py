# Neural collaborative filtering on implicit feedback.  Every step logs the
# loss, the batch accuracy and the mean positive score into lists for a
# later plot -- as Python floats via .item().
import torch
import torch.nn as nn
import torch.nn.functional as F

USERS, ITEMS, DIM = 30, 50, 8


class NCF(nn.Module):
    def __init__(self):
        super().__init__()
        self.u = nn.Embedding(USERS, DIM)
        self.i = nn.Embedding(ITEMS, DIM)
        self.mlp = nn.Sequential(nn.Linear(2 * DIM, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, users, items):
        return self.mlp(torch.cat([self.u(users), self.i(items)], dim=1)).squeeze(1)


def interactions(n_batches, batch, gen):
    for _ in range(n_batches):
        users = torch.randint(0, USERS, (batch,), generator=gen)
        pos = (users * 7 + torch.randint(0, 3, (batch,), generator=gen)) % ITEMS
        neg = torch.randint(0, ITEMS, (batch,), generator=gen)
        yield users, pos, neg


torch.manual_seed(10)
gen = torch.Generator().manual_seed(10)
model = NCF()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
history = {"loss": [], "acc": [], "pos_score": []}

for epoch in range(2):
    for users, pos, neg in interactions(4, 32, gen):
        s_pos, s_neg = model(users, pos), model(users, neg)
        logits = torch.cat([s_pos, s_neg])
        labels = torch.cat([torch.ones_like(s_pos), torch.zeros_like(s_neg)])
        loss = F.binary_cross_entropy_with_logits(logits, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        history["loss"].append(loss.item())
        history["acc"].append(((logits > 0).float() == labels).float().mean().item())
        history["pos_score"].append(torch.sigmoid(s_pos).mean().item())
    n = len(history["loss"])
    print(f"epoch {epoch} steps {n} last loss {history['loss'][-1]:.4f} "
          f"mean acc {sum(history['acc']) / n:.3f}")

curve = [round(v, 4) for v in history["loss"]]
print("loss curve", curve)
print("best pos score", round(max(history["pos_score"]), 4))
print("checksum", round(sum(p.sum().item() for p in model.parameters()), 4))
