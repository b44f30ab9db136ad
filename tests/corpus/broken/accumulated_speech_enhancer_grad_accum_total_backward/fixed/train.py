"""Speech enhancement: a small mask estimator predicts a [0, 1] gain per frequency bin from a
noisy log-magnitude frame. Micro-batches are accumulated (ACCUM of them per optimizer step)
to emulate a larger batch on a small device."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_BINS, ACCUM, MICRO_BATCH = 32, 2, 8


class MaskEstimator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(N_BINS, 64), nn.ReLU(), nn.Linear(64, N_BINS), nn.Sigmoid())

    def forward(self, noisy_mag):
        return self.net(torch.log1p(noisy_mag)) * noisy_mag


def micro_batches(n):
    for _ in range(n):
        clean = torch.rand(MICRO_BATCH, N_BINS) ** 2
        noise = 0.3 * torch.rand(MICRO_BATCH, N_BINS)
        yield clean + noise, clean


def train_epoch(model, optimizer, n_micro=4):
    accum_loss = 0.0
    optimizer.zero_grad()
    for i, (noisy, clean) in enumerate(micro_batches(n_micro)):
        loss = F.l1_loss(model(noisy), clean)
        accum_loss = accum_loss + loss.item() / ACCUM
        (loss / ACCUM).backward()
        if (i + 1) % ACCUM == 0:
            optimizer.step()
            optimizer.zero_grad()
            print(f"update {(i + 1) // ACCUM} l1 {accum_loss:.4f}")
            accum_loss = 0.0


def main():
    torch.manual_seed(0)
    model = MaskEstimator()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    train_epoch(model, optimizer)


if __name__ == "__main__":
    main()
