"""CFGAN-style collaborative filtering GAN: the generator produces a user's purchase
vector from the user's condition vector; the discriminator judges (purchase vector,
condition) pairs. Fake vectors are masked to the user's purchased items (partial masking)
and a zero-reconstruction term pushes sampled unpurchased items towards 0.

To avoid a second discriminator pass, both losses come from ONE discriminator forward:
backward(inputs=...) routes each loss to its own network, then both optimizers step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.parametrizations import spectral_norm

N_USERS, N_ITEMS, BATCH, ZR_RATIO, ZR_ALPHA = 24, 20, 8, 0.3, 0.1


def build_interactions():
    taste = torch.randint(0, 2, (N_USERS,))
    probs = torch.where(taste.unsqueeze(1) == 0, torch.linspace(0.8, 0.05, N_ITEMS), torch.linspace(0.05, 0.8, N_ITEMS))
    return torch.bernoulli(probs)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(N_ITEMS, 32), nn.ReLU(), nn.Linear(32, N_ITEMS), nn.Sigmoid())

    def forward(self, cond):
        return self.net(cond)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = spectral_norm(nn.Linear(2 * N_ITEMS, 32))
        self.fc2 = spectral_norm(nn.Linear(32, 1))

    def forward(self, vec, cond):
        return self.fc2(F.leaky_relu(self.fc1(torch.cat([vec, cond], 1)), 0.2)).squeeze(1)


def main(steps=5):
    torch.manual_seed(41)
    interactions = build_interactions()
    G, D = Generator(), Discriminator()
    opt_g = torch.optim.Adam(G.parameters(), lr=1e-3)
    opt_d = torch.optim.Adam(D.parameters(), lr=1e-3)
    g_params, d_params = list(G.parameters()), list(D.parameters())
    for step in range(steps):
        users = torch.randperm(N_USERS)[:BATCH]
        real = interactions[users]
        cond = real
        generated = G(cond)
        fake = generated * real
        zr_mask = (torch.rand_like(real) < ZR_RATIO).float() * (1 - real)

        logit_real = D(real, cond)
        logit_fake = D(fake, cond)
        d_loss = (F.binary_cross_entropy_with_logits(logit_real, torch.ones_like(logit_real))
                  + F.binary_cross_entropy_with_logits(logit_fake, torch.zeros_like(logit_fake)))
        g_loss = (F.binary_cross_entropy_with_logits(logit_fake, torch.ones_like(logit_fake))
                  + ZR_ALPHA * (generated * zr_mask).pow(2).sum(1).mean())

        opt_d.zero_grad()
        opt_g.zero_grad()
        d_loss.backward(inputs=d_params, retain_graph=True)
        g_loss.backward(inputs=g_params)
        opt_d.step()
        opt_g.step()
        print(f"step {step} d {d_loss.item():.4f} g {g_loss.item():.4f} "
              f"D(real) {torch.sigmoid(logit_real).mean().item():.3f} D(fake) {torch.sigmoid(logit_fake).mean().item():.3f}")

    with torch.no_grad():
        scores = G(interactions).masked_fill(interactions.bool(), -1.0)
        top5 = scores.topk(5, dim=1).indices
    checksum = sum(p.sum().item() for p in g_params + d_params)
    return top5[:3].tolist(), checksum


if __name__ == "__main__":
    top, checksum = main()
    print(f"top-5 for users 0-2: {top}")
    print(f"checksum {checksum:.4f}")
