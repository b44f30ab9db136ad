"""1-D GAN on short waveforms (damped sines) with differentiable augmentation (DiffAugment):
both real and fake signals are randomly circular-shifted before the discriminator, through a
custom autograd.Function so that gradients flow back through the shift to the generator.
A small stats logger records which shifts the generator's batch was trained with."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
LENGTH, Z_DIM, BATCH, MAX_SHIFT = 32, 8, 24, 6


class RandomShift(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, shifts):
        ctx.save_for_backward(shifts)
        return torch.stack([torch.roll(row, int(s)) for row, s in zip(x, shifts)])

    @staticmethod
    def backward(ctx, grad_out):
        (shifts,) = ctx.saved_tensors
        return torch.stack([torch.roll(g, -int(s)) for g, s in zip(grad_out, shifts)]), None


def diff_augment(x):
    shifts = torch.randint(-MAX_SHIFT, MAX_SHIFT + 1, (x.shape[0],))
    return RandomShift.apply(x, shifts)


def real_waves(n):
    t = torch.linspace(0, 1, LENGTH)
    freq = torch.randint(2, 6, (n, 1)).float()
    return torch.sin(6.283 * freq * t) * torch.exp(-3 * t)


class GANTrainer:
    def __init__(self):
        self.G = nn.Sequential(nn.Linear(Z_DIM, 64), nn.ReLU(), nn.Linear(64, LENGTH), nn.Tanh())
        self.D = nn.Sequential(nn.Linear(LENGTH, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=1e-3, betas=(0.5, 0.999))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=1e-3, betas=(0.5, 0.999))
        self.last_fake_aug = None
        self.shift_hist = torch.zeros(2 * MAX_SHIFT + 1)

    def step(self):
        fake = self.G(torch.randn(BATCH, Z_DIM))
        d_real = self.D(diff_augment(real_waves(BATCH)))
        d_fake = self.D(diff_augment(fake.detach()))
        d_loss = F.softplus(-d_real).mean() + F.softplus(d_fake).mean()
        self.opt_d.zero_grad()
        d_loss.backward()
        self.opt_d.step()

        self.last_fake_aug = diff_augment(fake)
        g_loss = F.softplus(-self.D(self.last_fake_aug)).mean()
        mean_shift = self.log_augment_stats()
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        return d_loss.item(), g_loss.item(), mean_shift

    def log_augment_stats(self):
        (shifts,) = self.last_fake_aug.grad_fn.saved_tensors
        self.shift_hist += torch.bincount(shifts + MAX_SHIFT, minlength=2 * MAX_SHIFT + 1).float()
        return shifts.float().abs().mean().item()


trainer = GANTrainer()
for it in range(6):
    d_loss, g_loss, mean_shift = trainer.step()
    print(f"iter {it} d_loss {d_loss:.4f} g_loss {g_loss:.4f} mean |shift| {mean_shift:.2f}")
print("shift histogram", trainer.shift_hist.int().tolist())
