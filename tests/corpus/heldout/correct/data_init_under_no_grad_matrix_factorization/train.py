"""Fit the biased MF model on synthetic ratings with full-batch Adam."""
import torch
import torch.nn.functional as F

from model import BiasedMF

torch.manual_seed(0)
N_USERS, N_ITEMS, N_RATINGS = 30, 40, 400

true_u, true_i = torch.randn(N_USERS, 3), torch.randn(N_ITEMS, 3)
users = torch.randint(0, N_USERS, (N_RATINGS,))
items = torch.randint(0, N_ITEMS, (N_RATINGS,))
ratings = ((true_u[users] * true_i[items]).sum(1) * 0.5 + 3.5).clamp(1, 5)

model = BiasedMF(N_USERS, N_ITEMS, global_mean=ratings.mean().item())
optimizer = torch.optim.Adam(model.parameters(), lr=0.05, weight_decay=1e-4)
for epoch in range(6):
    pred = model(users, items)
    loss = F.mse_loss(pred, ratings)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"epoch {epoch} rmse {loss.sqrt().item():.6f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
