"""Point-cloud denoising with an auxiliary shape label: clouds sampled from a sphere, a cube
surface or a ring get Gaussian jitter, and the EGNN in egnn.py predicts the clean points
and the shape class."""
import math

import torch
import torch.nn.functional as F

from egnn import EGNNDenoiser

N_POINTS = 32


def sample_shape(label, gen):
    if label == 0:                                   # sphere
        p = torch.randn(N_POINTS, 3, generator=gen)
        return p / p.norm(dim=1, keepdim=True)
    if label == 1:                                   # cube surface
        p = torch.rand(N_POINTS, 3, generator=gen) * 2 - 1
        axis = torch.randint(0, 3, (N_POINTS,), generator=gen)
        p[torch.arange(N_POINTS), axis] = torch.sign(p[torch.arange(N_POINTS), axis])
        return p
    t = torch.rand(N_POINTS, generator=gen) * 2 * math.pi  # ring
    return torch.stack([t.cos(), t.sin(), 0.05 * torch.randn(N_POINTS, generator=gen)], dim=1)


def make_batch(batch, gen, sigma=0.08):
    labels = torch.randint(0, 3, (batch,), generator=gen)
    clean = torch.stack([sample_shape(int(c), gen) for c in labels])
    noisy = clean + sigma * torch.randn(clean.shape, generator=gen)
    return noisy, clean, labels


def train(epochs=3, batches=2, batch=8, cls_weight=0.1):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(3)
    model = EGNNDenoiser()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(epochs):
        for _ in range(batches):
            noisy, clean, labels = make_batch(batch, gen)
            denoised, logits = model(noisy)
            recon = F.mse_loss(denoised, clean)
            loss = recon + cls_weight * F.cross_entropy(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} recon {recon.item():.5f} loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
