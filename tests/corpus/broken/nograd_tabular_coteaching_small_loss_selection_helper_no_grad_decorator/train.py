"""Co-teaching two MLPs on a tabular churn table with 30% flipped labels."""
import torch
import torch.nn as nn

from selection import per_sample_losses, small_loss_indices

torch.manual_seed(0)

N_FEATURES, N_CLASSES = 12, 2
x_all = torch.randn(256, N_FEATURES)
clean = (x_all[:, 0] + 0.5 * x_all[:, 3] > 0).long()
flip = torch.rand(256) < 0.3
y_all = torch.where(flip, 1 - clean, clean)


def make_net():
    return nn.Sequential(nn.Linear(N_FEATURES, 32), nn.ReLU(), nn.Linear(32, N_CLASSES))


net_a, net_b = make_net(), make_net()
opt_a = torch.optim.Adam(net_a.parameters(), lr=1e-2)
opt_b = torch.optim.Adam(net_b.parameters(), lr=1e-2)

forget_rate = 0.3
for epoch in range(2):
    keep_ratio = 1.0 - forget_rate * min(1.0, (epoch + 1) / 2)
    for start in range(0, 256, 64):
        xb, yb = x_all[start:start + 64], y_all[start:start + 64]
        losses_a = per_sample_losses(net_a, xb, yb)
        losses_b = per_sample_losses(net_b, xb, yb)
        # each network learns from the samples its peer finds clean
        idx_for_a = small_loss_indices(losses_b, keep_ratio)
        idx_for_b = small_loss_indices(losses_a, keep_ratio)
        loss_a = losses_a[idx_for_a].mean()
        loss_b = losses_b[idx_for_b].mean()

        opt_a.zero_grad()
        loss_a.backward()
        opt_a.step()
        opt_b.zero_grad()
        loss_b.backward()
        opt_b.step()
    print(f"epoch {epoch} keep={keep_ratio:.2f} loss_a={loss_a.item():.4f} loss_b={loss_b.item():.4f}")
