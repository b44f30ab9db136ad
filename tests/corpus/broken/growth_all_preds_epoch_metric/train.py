"""Click-through predictor: one pass over the batches, then precision/recall over the whole
pass from the stored predictions (computed in metrics.py)."""
import torch
import torch.nn as nn

from metrics import binary_metrics

torch.manual_seed(0)
N_FEATURES, BATCH, N_BATCHES = 10, 16, 12

model = nn.Sequential(nn.Linear(N_FEATURES, 24), nn.ReLU(), nn.Linear(24, 1))
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)

features = torch.randn(N_BATCHES, BATCH, N_FEATURES)
clicks = (features[..., :3].sum(-1, keepdim=True) > 0).float()

all_preds, all_targets = [], []
for i in range(N_BATCHES):
    out = model(features[i])
    loss = criterion(out, clicks[i])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    all_preds.append(out)
    all_targets.append(clicks[i])
    print(f"batch {i} loss {loss.item():.4f}")

stats = binary_metrics(torch.cat(all_preds), torch.cat(all_targets))
print("pass " + " ".join(f"{k} {v:.3f}" for k, v in stats.items()))
