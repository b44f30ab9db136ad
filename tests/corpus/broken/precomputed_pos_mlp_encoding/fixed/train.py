"""Point-set regressor with a learned positional encoding: an MLP maps fixed grid
coordinates to per-token embeddings that are added to every batch."""
import torch
import torch.nn as nn

torch.manual_seed(0)
TOKENS, DIM, BATCH = 12, 16, 8

coords = torch.linspace(-1, 1, TOKENS).unsqueeze(1)
pos_mlp = nn.Sequential(nn.Linear(1, DIM), nn.Tanh(), nn.Linear(DIM, DIM))
encoder = nn.Sequential(nn.Linear(DIM, DIM), nn.ReLU())
head = nn.Linear(DIM, 1)

params = list(pos_mlp.parameters()) + list(encoder.parameters()) + list(head.parameters())
optimizer = torch.optim.AdamW(params, lr=1e-2)
loss_fn = nn.MSELoss()

xs = torch.randn(3, BATCH, TOKENS, DIM)
ys = torch.randn(3, BATCH, 1)

for epoch in range(2):
    for x, y in zip(xs, ys):
        pos = pos_mlp(coords)  # (TOKENS, DIM); recomputed so each step has its own graph
        h = encoder(x + pos)
        pred = head(h.mean(dim=1))
        loss = loss_fn(pred, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
