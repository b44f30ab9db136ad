"""Semi-supervised churn model on tabular customer data: a denoising auto-encoder is
pretrained on all rows (most are unlabelled), then its encoder is frozen and a small
classification head is fitted on the labelled rows."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_FEATURES, N_LATENT = 14, 8


def customer_table(n, g):
    tenure = torch.rand(n, 1, generator=g)
    monthly = torch.rand(n, 1, generator=g)
    tickets = torch.poisson(3 * (1 - tenure), generator=g)
    noise = torch.randn(n, N_FEATURES - 3, generator=g)
    x = torch.cat([tenure, monthly, tickets / 5, noise + tenure], dim=1)
    churn = (0.5 * tickets[:, 0] + monthly[:, 0] - 2 * tenure[:, 0] > 0.2).long()
    return (x - x.mean(0)) / x.std(0), churn


def make_encoder():
    return nn.Sequential(nn.Linear(N_FEATURES, 32), nn.ReLU(), nn.Linear(32, N_LATENT))


def pretrain(encoder, rows, epochs=3, noise=0.2):
    decoder = nn.Sequential(nn.Linear(N_LATENT, 32), nn.ReLU(), nn.Linear(32, N_FEATURES))
    optimizer = torch.optim.Adam([*encoder.parameters(), *decoder.parameters()], lr=3e-3)
    for epoch in range(epochs):
        for batch in rows.split(64):
            recon = decoder(encoder(batch + noise * torch.randn_like(batch)))
            loss = F.mse_loss(recon, batch)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"pretrain epoch {epoch} reconstruction {loss.item():.4f}")


def freeze_pretrained_blocks(model):
    """Freeze every pretrained block (the nn.Sequential stacks), keep new layers trainable."""
    for module in model.modules():
        if isinstance(module, nn.Sequential):
            module.requires_grad_(False)


def finetune(encoder, x, y, epochs=3):
    clf = nn.Sequential(encoder, nn.Linear(N_LATENT, 2))
    freeze_pretrained_blocks(clf)
    optimizer = torch.optim.Adam(clf.parameters(), lr=1e-2)
    for epoch in range(epochs):
        for xb, yb in zip(x.split(32), y.split(32)):
            loss = F.cross_entropy(clf(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        acc = (clf(x).argmax(1) == y).float().mean().item()
        print(f"finetune epoch {epoch} ce {loss.item():.4f} train acc {acc:.3f}")
    return clf


if __name__ == "__main__":
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    x_all, y_all = customer_table(512, g)
    encoder = make_encoder()
    pretrain(encoder, x_all)
    finetune(encoder, x_all[:96], y_all[:96])
