"""Loss-aware timestep sampling for diffusion training: timesteps are grouped into bins,
each bin keeps an exponential moving average of the denoising loss seen in it, and after
a short uniform warm-up the bins are drawn in proportion to that average (with
importance weights so the objective stays unbiased)."""
import torch


class LossEMASampler:
    def __init__(self, num_timesteps, num_bins=5, decay=0.9, warmup=3):
        self.num_timesteps = num_timesteps
        self.num_bins = num_bins
        self.bin_width = num_timesteps // num_bins
        self.decay = decay
        self.warmup = warmup
        self.loss_ema = torch.ones(num_bins)
        self.updates = 0

    def sample(self, batch):
        with torch.no_grad():
            if self.updates < self.warmup:
                probs = torch.full((self.num_bins,), 1.0 / self.num_bins)
            else:
                probs = self.loss_ema / self.loss_ema.sum()
            bins = torch.multinomial(probs, batch, replacement=True)
            t = bins * self.bin_width + torch.randint(0, self.bin_width, (batch,))
            weights = 1.0 / (self.num_bins * probs[bins])
        return t, weights

    def update(self, t, per_sample_loss):
        bins = t // self.bin_width
        for k in bins.unique().tolist():
            bin_loss = per_sample_loss[bins == k].mean().item()
            self.loss_ema[k] = self.decay * self.loss_ema[k] + (1 - self.decay) * bin_loss
        self.updates += 1
