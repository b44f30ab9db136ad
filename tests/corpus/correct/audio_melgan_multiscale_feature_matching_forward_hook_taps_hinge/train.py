"""MelGAN-style vocoder on toy tones: mel-like frames -> waveform, multi-scale hinge
discriminators, and a feature-matching loss whose intermediate discriminator activations
are captured by forward hooks (a FeatureTap object) instead of returned by forward()."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_BANDS, FRAMES, HOP, FM_WEIGHT = 4, 8, 8, 10.0
SAMPLES = FRAMES * HOP


class FeatureTap:
    """Forward hooks on every LeakyReLU of a discriminator stack; `grab` runs one pass."""

    def __init__(self, discriminators):
        self.store = []
        self.handles = [m.register_forward_hook(self._hook)
                        for d in discriminators for m in d.modules() if isinstance(m, nn.LeakyReLU)]

    def _hook(self, module, inputs, output):
        self.store.append(output)

    def grab(self, fn, *args):
        self.store = []
        out = fn(*args)
        return out, list(self.store)


def scale_discriminator():
    return nn.Sequential(
        nn.Conv1d(1, 8, 7, padding=3), nn.LeakyReLU(0.2),
        nn.Conv1d(8, 16, 5, stride=2, padding=2), nn.LeakyReLU(0.2),
        nn.Conv1d(16, 1, 3, padding=1, bias=False))  # hinge margins cancel a constant offset


class MultiScaleDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.scales = nn.ModuleList([scale_discriminator(), scale_discriminator()])
        self.pool = nn.AvgPool1d(4, stride=2, padding=1, count_include_pad=False)

    def forward(self, wav):
        outs = []
        for i, disc in enumerate(self.scales):
            if i > 0:
                wav = self.pool(wav)
            outs.append(disc(wav))
        return outs


torch.manual_seed(43)
generator = nn.Sequential(
    nn.Conv1d(N_BANDS, 32, 3, padding=1), nn.LeakyReLU(0.2),
    nn.ConvTranspose1d(32, 16, HOP * 2, stride=HOP, padding=HOP // 2), nn.LeakyReLU(0.2),
    nn.Conv1d(16, 1, 7, padding=3), nn.Tanh())


def tones(n):
    t = torch.arange(SAMPLES).float()
    freq = 0.05 + 0.25 * torch.rand(n, 1)
    wav = 0.8 * torch.sin(t * freq * 6.28).unsqueeze(1)
    frames = wav.view(n, FRAMES, HOP)
    spectrum = torch.fft.rfft(frames, dim=2).abs()[..., 1:N_BANDS + 1]
    return torch.log1p(spectrum).transpose(1, 2), wav


def train(steps=6):
    disc = MultiScaleDiscriminator()
    tap = FeatureTap(disc.scales)
    opt_g = torch.optim.Adam(generator.parameters(), lr=1e-4, betas=(0.5, 0.9))
    opt_d = torch.optim.Adam(disc.parameters(), lr=1e-4, betas=(0.5, 0.9))
    for step in range(steps):
        mel, real = tones(4)
        fake = generator(mel)

        d_fake, _ = tap.grab(disc, fake.detach())
        d_real, _ = tap.grab(disc, real)
        loss_d = sum(F.relu(1 - r).mean() + F.relu(1 + f).mean() for r, f in zip(d_real, d_fake))
        opt_d.zero_grad()
        loss_d.backward()
        opt_d.step()

        g_out, fake_feats = tap.grab(disc, fake)
        with torch.no_grad():
            _, real_feats = tap.grab(disc, real)
        loss_adv = sum(-o.mean() for o in g_out)
        loss_fm = sum(F.l1_loss(f, r) for f, r in zip(fake_feats, real_feats)) / len(fake_feats)
        loss_g = loss_adv + FM_WEIGHT * loss_fm
        opt_g.zero_grad()
        loss_g.backward()
        opt_g.step()
        print(f"step {step} d {loss_d.item():.4f} adv {loss_adv.item():.4f} fm {loss_fm.item():.4f} "
              f"taps {len(fake_feats)}")
    for h in tap.handles:
        h.remove()
    return disc


if __name__ == "__main__":
    disc = train()
    print(f"checksum {sum(p.sum().item() for m in (generator, disc) for p in m.parameters()):.4f}")
