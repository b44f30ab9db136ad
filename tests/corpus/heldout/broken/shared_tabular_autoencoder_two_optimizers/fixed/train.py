"""Customer-churn model on tabular features: an autoencoder learns a compact code of the
customer profile and a classifier head predicts churn from that code. The encoder learns
from both objectives; the autoencoder and the head have their own optimizers."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_FEATURES, CODE, BATCH = 12, 6, 32
torch.manual_seed(0)


def make_customers(n):
    tenure = torch.rand(n, 1)
    spend = torch.rand(n, 1)
    complaints = torch.poisson(torch.full((n, 1), 1.5)) / 5
    noise = 0.1 * torch.randn(n, N_FEATURES - 3)
    x = torch.cat([tenure, spend, complaints, noise], dim=1)
    churn_logit = 2.0 * complaints - 3.0 * tenure + 0.5 * spend
    y = (torch.sigmoid(churn_logit) > torch.rand(n, 1)).float().squeeze(1)
    return x, y


encoder = nn.Sequential(nn.Linear(N_FEATURES, 16), nn.SiLU(), nn.Linear(16, CODE))
decoder = nn.Sequential(nn.Linear(CODE, 16), nn.SiLU(), nn.Linear(16, N_FEATURES))
head = nn.Sequential(nn.Linear(CODE, 8), nn.SiLU(), nn.Linear(8, 1))

opt_ae = torch.optim.Adam([*encoder.parameters(), *decoder.parameters()], lr=2e-3)
opt_head = torch.optim.SGD(head.parameters(), lr=5e-2, momentum=0.9)


def train_epoch(x_all, y_all):
    recon_total, cls_total, n_batches = 0.0, 0.0, 0
    for start in range(0, len(x_all), BATCH):
        x, y = x_all[start:start + BATCH], y_all[start:start + BATCH]
        z = encoder(x)

        recon_loss = F.mse_loss(decoder(z), x)
        cls_loss = F.binary_cross_entropy_with_logits(head(z).squeeze(1), y)
        opt_ae.zero_grad()
        opt_head.zero_grad()
        (recon_loss + cls_loss).backward()
        opt_ae.step()
        opt_head.step()

        recon_total += recon_loss.item()
        cls_total += cls_loss.item()
        n_batches += 1
    return recon_total / n_batches, cls_total / n_batches


x_all, y_all = make_customers(96)
for epoch in range(2):
    recon, cls = train_epoch(x_all, y_all)
    print(f"epoch {epoch} recon {recon:.4f} churn_bce {cls:.4f}")
