"""Latent diffusion trained end to end: the autoencoder learns to reconstruct 8x8 patches
while the denoiser learns the noise in its latent space. Each part has its own optimizer."""
import torch
import torch.nn.functional as F

from models import LatentDenoiser, PatchAutoencoder


def make_patches(n, gen):
    yy, xx = torch.meshgrid(torch.arange(8.0), torch.arange(8.0), indexing="ij")
    angle = torch.rand(n, 1, 1, generator=gen) * 3.1416
    freq = 0.5 + torch.rand(n, 1, 1, generator=gen)
    stripes = torch.sin(freq * (xx * torch.cos(angle) + yy * torch.sin(angle)))
    return (stripes + 0.05 * torch.randn(n, 8, 8, generator=gen)).flatten(1)


class JointLatentDiffusionTrainer:
    def __init__(self, steps=100, lr=1e-3):
        torch.manual_seed(0)
        self.ae = PatchAutoencoder()
        self.denoiser = LatentDenoiser()
        self.ae_opt = torch.optim.Adam(self.ae.parameters(), lr=lr)
        self.unet_opt = torch.optim.Adam(self.denoiser.parameters(), lr=lr)
        betas = torch.linspace(1e-4, 0.02, steps)
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.num_steps = steps
        self.gen = torch.Generator().manual_seed(7)

    def training_step(self, x):
        z = self.ae.encode(x)
        recon_loss = F.mse_loss(self.ae.decode(z), x)

        t = torch.randint(0, self.num_steps, (x.shape[0],), generator=self.gen)
        noise = torch.randn(z.shape, generator=self.gen)
        a_bar = self.alphas_cumprod[t].unsqueeze(1)
        z_t = a_bar.sqrt() * z + (1.0 - a_bar).sqrt() * noise
        diff_loss = F.mse_loss(self.denoiser(z_t, t), noise)

        self.ae_opt.zero_grad()
        self.unet_opt.zero_grad()
        recon_loss.backward(retain_graph=True)
        diff_loss.backward()
        self.ae_opt.step()
        self.unet_opt.step()
        return recon_loss.item(), diff_loss.item()

    def fit(self, iters=6, batch=32):
        for it in range(iters):
            recon, diff = self.training_step(make_patches(batch, self.gen))
            print(f"iter {it} recon {recon:.4f} diffusion {diff:.4f}")


if __name__ == "__main__":
    JointLatentDiffusionTrainer().fit()
