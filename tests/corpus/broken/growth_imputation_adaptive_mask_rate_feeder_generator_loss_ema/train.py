"""BRITS-flavoured recurrent imputer for sensor series with missing values, trained with
an adaptive masking rate from a generator feeder."""
import torch
import torch.nn as nn

from data import masked_batches

N_FEAT, HIDDEN, WINDOW = 4, 24, 12


class RecurrentImputer(nn.Module):
    """At each step, impute the unobserved features from the hidden state, then update the
    state with the observed values filled in by the imputation."""

    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(2 * N_FEAT, HIDDEN)
        self.estimate = nn.Linear(HIDDEN, N_FEAT)

    def forward(self, x, mask):
        h = x.new_zeros(x.shape[0], HIDDEN)
        outputs = []
        for t in range(x.shape[1]):
            x_hat = self.estimate(h)
            m = mask[:, t].float()
            filled = m * x[:, t] + (1 - m) * x_hat
            h = self.cell(torch.cat([filled, m], dim=-1), h)
            outputs.append(x_hat)
        return torch.stack(outputs, dim=1)


def make_series(n, length, gen):
    t = torch.arange(length, dtype=torch.float32)
    freqs = torch.tensor([0.2, 0.35, 0.5, 0.8])
    phase = torch.rand(n, 1, N_FEAT, generator=gen) * 6.28
    series = torch.sin(freqs * t[:, None] + phase) + 0.05 * torch.randn(n, length, N_FEAT, generator=gen)
    observed = torch.rand(n, length, N_FEAT, generator=gen) > 0.15
    return series, observed


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(11)
    series, observed = make_series(32, 48, gen)
    model = RecurrentImputer()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    feeder = masked_batches(series, observed, batch_size=8, window=WINDOW, gen=gen)
    x, input_mask, eval_mask = next(feeder)
    for step in range(8):
        x_hat = model(x * input_mask, input_mask)
        recon = ((x_hat - x).abs() * input_mask).sum() / input_mask.sum()
        imput = ((x_hat - x).abs() * eval_mask).sum() / eval_mask.sum().clamp(min=1)
        loss = recon + imput
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} recon {recon.item():.4f} imputation mae {imput.item():.4f} "
              f"hidden {int(eval_mask.sum())}")
        x, input_mask, eval_mask = feeder.send(imput)


if __name__ == "__main__":
    main()
