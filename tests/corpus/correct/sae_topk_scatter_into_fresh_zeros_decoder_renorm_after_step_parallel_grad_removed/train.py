"""TopK sparse autoencoder (Gao et al. 2024 layout) on synthetic activations.

Everything that writes in place here is safe:
- the TopK activations are scattered into a fresh zeros tensor (ScatterBackward keeps only
  the indices), not into a tensor some other op saved;
- the decoder-direction-parallel part of W_dec.grad is removed in place on the gradient,
  between backward and step;
- the decoder rows are renormalised in place under no_grad only after optimizer.step(),
  when this step's graph is gone and before the next forward reads them;
- dead-latent bookkeeping and resampling use detached values / run under no_grad.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
D_IN, D_SAE, K, N_TRUE, BATCH = 16, 48, 4, 24, 64


class TopKSAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.W_enc = nn.Parameter(torch.randn(D_IN, D_SAE) / D_IN ** 0.5)
        self.b_enc = nn.Parameter(torch.zeros(D_SAE))
        self.W_dec = nn.Parameter(F.normalize(self.W_enc.detach().t().clone(), dim=1))
        self.b_dec = nn.Parameter(torch.zeros(D_IN))

    def encode(self, x):
        pre = (x - self.b_dec) @ self.W_enc + self.b_enc
        top = pre.topk(K, dim=-1)
        acts = torch.zeros_like(pre)
        acts.scatter_(-1, top.indices, F.relu(top.values))
        return acts

    def forward(self, x):
        acts = self.encode(x)
        return acts @ self.W_dec + self.b_dec, acts


@torch.no_grad()
def remove_parallel_grad(W_dec):
    parallel = (W_dec.grad * W_dec).sum(dim=1, keepdim=True) * W_dec
    W_dec.grad -= parallel


@torch.no_grad()
def normalise_decoder(W_dec):
    W_dec /= W_dec.norm(dim=1, keepdim=True)


@torch.no_grad()
def resample_dead(sae, dead, x):
    if dead.any():
        worst = (sae(x)[0] - x).pow(2).sum(-1).topk(int(dead.sum())).indices
        directions = F.normalize(x[worst] - sae.b_dec, dim=1)
        sae.W_dec[dead] = directions
        sae.W_enc[:, dead] = 0.2 * directions.t()
        sae.b_enc[dead] = 0.0


def batches(true_dirs, steps):
    for _ in range(steps):
        on = (torch.rand(BATCH, N_TRUE) < 0.12).float()
        yield (on * torch.rand(BATCH, N_TRUE)) @ true_dirs + 0.01 * torch.randn(BATCH, D_IN)


def main(steps=8, resample_at=4):
    true_dirs = F.normalize(torch.randn(N_TRUE, D_IN), dim=1)
    sae = TopKSAE()
    optimizer = torch.optim.Adam(sae.parameters(), lr=3e-3)
    since_fired = torch.zeros(D_SAE)
    history = []
    for step, x in enumerate(batches(true_dirs, steps)):
        x_hat, acts = sae(x)
        loss = F.mse_loss(x_hat, x)
        optimizer.zero_grad()
        loss.backward()
        remove_parallel_grad(sae.W_dec)
        optimizer.step()
        normalise_decoder(sae.W_dec)
        fired = (acts.detach() > 0).any(dim=0)
        since_fired += 1
        since_fired[fired] = 0
        if step == resample_at:
            dead = since_fired >= 3
            resample_dead(sae, dead, x)
            since_fired[dead] = 0
        history.append(loss.item())
        print(f"step {step} mse {loss.item():.5f} dead {(since_fired >= 3).sum().item()}")
    print(f"mean mse {sum(history) / len(history):.5f}")
    print(f"checksum {sum(p.detach().abs().sum().item() for p in sae.parameters()):.4f}")


if __name__ == "__main__":
    main()
