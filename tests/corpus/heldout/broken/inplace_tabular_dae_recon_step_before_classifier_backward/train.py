"""Semi-supervised churn model on a small customer table: a denoising autoencoder
(swap noise) shapes the shared encoder while a classifier head predicts churn from the same
code. The reconstruction part and the classifier have separate optimizers and learning rates.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_ROWS, N_FEAT, CODE, BATCH, EPOCHS, SWAP_P = 80, 9, 12, 20, 2, 0.15


class ChurnDAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(N_FEAT, 24), nn.ReLU(), nn.Linear(24, CODE), nn.ReLU())
        self.decoder = nn.Linear(CODE, N_FEAT)
        self.classifier = nn.Linear(CODE, 2)

    def forward(self, x):
        code = self.encoder(x)
        return self.decoder(code), self.classifier(code)


def swap_noise(x, p, generator):
    """Replace each cell, with probability p, by the same column's value from a random row."""
    rows = torch.randint(0, x.shape[0], x.shape, generator=generator)
    donor = x.gather(0, rows)
    mask = torch.rand(x.shape, generator=generator) < p
    return torch.where(mask, donor, x)


def train():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(11)
    x = torch.randn(N_ROWS, N_FEAT, generator=gen)
    churn = ((x[:, 0] - x[:, 4] + 0.3 * x[:, 7]) > 0.2).long()

    model = ChurnDAE()
    ae_opt = torch.optim.Adam([*model.encoder.parameters(), *model.decoder.parameters()], lr=1e-3)
    clf_opt = torch.optim.Adam(model.classifier.parameters(), lr=5e-3)

    for epoch in range(EPOCHS):
        perm = torch.randperm(N_ROWS, generator=gen)
        for start in range(0, N_ROWS, BATCH):
            idx = perm[start:start + BATCH]
            clean = x[idx]
            recon, logits = model(swap_noise(clean, SWAP_P, gen))
            recon_loss = F.mse_loss(recon, clean)
            clf_loss = F.cross_entropy(logits, churn[idx])

            ae_opt.zero_grad()
            recon_loss.backward(retain_graph=True)
            ae_opt.step()

            clf_opt.zero_grad()
            clf_loss.backward()
            clf_opt.step()
        acc = (logits.argmax(1) == churn[idx]).float().mean().item()
        print(f"epoch {epoch} recon {recon_loss.item():.4f} clf {clf_loss.item():.4f} acc {acc:.2f}")


if __name__ == "__main__":
    train()
