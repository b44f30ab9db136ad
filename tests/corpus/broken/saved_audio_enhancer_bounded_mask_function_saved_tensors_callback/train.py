"""Magnitude-mask speech enhancer on synthetic spectrograms. The mask goes through a
custom BoundedMask function (1.2 * sigmoid, clipped to [0, 1], with a straight-through
gradient on the clipped bins) and the trainer logs how often the mask overshoots."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_FREQ, N_FRAMES, BATCH = 33, 20, 8


class BoundedMask(torch.autograd.Function):
    @staticmethod
    def forward(ctx, logits):
        raw = 1.2 * torch.sigmoid(logits)
        ctx.save_for_backward(raw)
        return raw.clamp(0.0, 1.0)

    @staticmethod
    def backward(ctx, grad_out):
        (raw,) = ctx.saved_tensors
        # d raw / d logits = raw * (1 - raw / 1.2); passed straight through the clip
        return grad_out * raw * (1 - raw / 1.2)


class MaskEstimator(nn.Module):
    def __init__(self, hidden=48):
        super().__init__()
        self.gru = nn.GRU(N_FREQ, hidden, batch_first=True)
        self.proj = nn.Linear(hidden, N_FREQ)
        nn.init.constant_(self.proj.bias, 1.5)  # start close to pass-through

    def forward(self, log_mag):
        h, _ = self.gru(log_mag)
        return BoundedMask.apply(self.proj(h))


def make_batch():
    """Harmonic 'speech' magnitude plus broadband noise, both (batch, frames, freq)."""
    f0 = torch.randint(2, 6, (BATCH, 1, 1)).float()
    bins = torch.arange(N_FREQ).float()
    speech = torch.relu(torch.cos(2 * torch.pi * bins / f0)) * torch.rand(BATCH, N_FRAMES, 1)
    noise = 0.4 * torch.rand(BATCH, N_FRAMES, N_FREQ)
    return speech, speech + noise


class EnhancerTrainer:
    def __init__(self, model, lr=3e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.mask = None
        self.history = []

    def training_step(self, clean, noisy):
        self.mask = self.model(torch.log1p(noisy))
        return F.l1_loss(self.mask * noisy, clean)

    def on_step_end(self, step, loss):
        # the pre-clip mask is what BoundedMask saved for backward
        (raw,) = self.mask.grad_fn.saved_tensors
        overshoot = (raw > 1.0).float().mean().item()
        self.history.append((loss, overshoot))
        print(f"step {step}: l1 {loss:.4f} mask overshoot {overshoot:.3f}")

    def fit(self, steps):
        for step in range(steps):
            clean, noisy = make_batch()
            loss = self.training_step(clean, noisy)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.on_step_end(step, loss.item())
        return self.history


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = EnhancerTrainer(MaskEstimator())
    history = trainer.fit(steps=5)
    print(f"final l1 {history[-1][0]:.4f}")
