"""Two-phase tabular model for a small labelled churn set. Phase 1 pretrains an encoder on
plenty of unlabelled rows by reconstructing randomly masked features. Phase 2 freezes the
encoder (requires_grad_(False), BatchNorm in eval) and trains a new churn head with its own
optimizer over the head only; the encoder still runs inside the graph, outside no_grad."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_FEATURES, HIDDEN, MASK_RATE = 10, 24, 0.3


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2 * N_FEATURES, HIDDEN), nn.BatchNorm1d(HIDDEN),
                                 nn.ReLU(), nn.Linear(HIDDEN, HIDDEN), nn.ReLU())

    def forward(self, x, mask):
        return self.net(torch.cat([x * (1 - mask), mask], dim=1))


def rows(n):
    latent = torch.randn(n, 3)
    x = latent @ torch.linspace(-1, 1, 3 * N_FEATURES).reshape(3, N_FEATURES)
    x = x + 0.2 * torch.randn(n, N_FEATURES)
    churn = (latent[:, 0] - 0.5 * latent[:, 2] > 0.3).float()
    return x, churn


def pretrain(encoder, steps=4):
    decoder = nn.Linear(HIDDEN, N_FEATURES)
    optimizer = torch.optim.Adam(list(encoder.parameters()) + list(decoder.parameters()), lr=1e-2)
    encoder.train()
    for step in range(steps):
        x, _ = rows(128)
        mask = (torch.rand_like(x) < MASK_RATE).float()
        recon = decoder(encoder(x, mask))
        loss = (F.mse_loss(recon, x, reduction="none") * mask).sum() / mask.sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"pretrain {step} masked mse {loss.item():.4f}")


def finetune(encoder, head, steps=5):
    encoder.zero_grad(set_to_none=True)
    encoder.requires_grad_(False)
    encoder.eval()
    optimizer = torch.optim.AdamW(head.parameters(), lr=2e-2, weight_decay=1e-3)
    x, churn = rows(64)  # the small labelled set
    no_mask = torch.zeros_like(x)
    for step in range(steps):
        logits = head(encoder(x, no_mask)).squeeze(1)
        loss = F.binary_cross_entropy_with_logits(logits, churn)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = ((logits > 0).float() == churn).float().mean().item()
        print(f"finetune {step} bce {loss.item():.4f} acc {acc:.3f}")
    assert all(p.grad is None for p in encoder.parameters())


if __name__ == "__main__":
    torch.manual_seed(0)
    encoder = Encoder()
    pretrain(encoder)
    frozen_sum = sum(p.sum().item() for p in encoder.parameters())
    head = nn.Sequential(nn.Linear(HIDDEN, 16), nn.ReLU(), nn.Linear(16, 1))
    finetune(encoder, head)
    print(f"encoder unchanged {frozen_sum == sum(p.sum().item() for p in encoder.parameters())}")
    print(f"head checksum {sum(p.sum().item() for p in head.parameters()):.6f}")
