"""Two-phase tabular pipeline (the Porto Seguro recipe, scaled down): pretrain a denoising
autoencoder with swap noise on all rows, then fine-tune the encoder with a fresh classifier
head on the labelled rows. The noise is written in place into a cloned batch, the decoder is
dropped after pretraining, and the encoder keeps a lower learning rate in phase 2.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_ROWS, N_LABELLED, N_FEAT, BATCH, SWAP_P = 96, 48, 8, 24, 0.15


def swap_noise_(batch, p, gen):
    """Overwrite cells of `batch` in place with values from random other rows."""
    donors = torch.randint(0, batch.shape[0], batch.shape, generator=gen)
    mask = torch.rand(batch.shape, generator=gen) < p
    batch[mask] = batch.gather(0, donors)[mask]
    return batch


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(N_FEAT, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU())

    def forward(self, x):
        return self.net(x)


def pretrain(encoder, x, gen, epochs=2):
    decoder = nn.Linear(16, N_FEAT)
    opt = torch.optim.Adam([*encoder.parameters(), *decoder.parameters()], lr=3e-3)
    for epoch in range(epochs):
        perm = torch.randperm(N_ROWS, generator=gen)
        total = 0.0
        for start in range(0, N_ROWS, BATCH):
            clean = x[perm[start:start + BATCH]]
            noisy = swap_noise_(clean.clone(), SWAP_P, gen)
            loss = F.mse_loss(decoder(encoder(noisy)), clean)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"pretrain epoch {epoch} recon {total / (N_ROWS // BATCH):.4f}")


def finetune(encoder, x, y, gen, epochs=3):
    head = nn.Linear(16, 2)
    opt = torch.optim.Adam([{"params": encoder.parameters(), "lr": 5e-4},
                            {"params": head.parameters(), "lr": 5e-3}])
    for epoch in range(epochs):
        perm = torch.randperm(N_LABELLED, generator=gen)
        for start in range(0, N_LABELLED, BATCH):
            idx = perm[start:start + BATCH]
            logits = head(encoder(x[idx]))
            loss = F.cross_entropy(logits, y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        acc = (logits.argmax(1) == y[idx]).float().mean().item()
        print(f"finetune epoch {epoch} loss {loss.item():.4f} acc {acc:.2f}")
    return head


if __name__ == "__main__":
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(13)
    x = torch.randn(N_ROWS, N_FEAT, generator=gen)
    y = (x[:N_LABELLED, 0] * x[:N_LABELLED, 1] > 0).long()
    encoder = Encoder()
    pretrain(encoder, x, gen)
    head = finetune(encoder, x[:N_LABELLED], y, gen)
    with torch.no_grad():
        checksum = sum(p.sum() for p in [*encoder.parameters(), *head.parameters()])
    print(f"param checksum {checksum.item():.4f}")
