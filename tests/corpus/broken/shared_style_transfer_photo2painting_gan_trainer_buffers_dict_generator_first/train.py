"""Unpaired photo -> painting style transfer with an LSGAN. The trainer updates the translator
first and keeps its output in self.buffers so that the critic step does not have to run the
translator a second time."""
import torch
import torch.nn.functional as F

from nets import PatchCritic, Translator

SIZE = 16


def photos(n, gen):
    """Smooth gradients with a bright blob: stand-ins for photographs."""
    ys, xs = torch.meshgrid(torch.linspace(-1, 1, SIZE), torch.linspace(-1, 1, SIZE),
                            indexing="ij")
    centre = torch.rand(n, 2, 1, 1, generator=gen) * 2 - 1
    blob = torch.exp(-((xs - centre[:, :1]) ** 2 + (ys - centre[:, 1:]) ** 2) * 4)
    tint = torch.rand(n, 3, 1, 1, generator=gen)
    return (tint * blob + 0.3 * ys).clamp(-1, 1)


def paintings(n, gen):
    """High-contrast stripes: the 'style' domain."""
    xs = torch.linspace(0, 6.28, SIZE)
    freq = torch.randint(2, 5, (n, 1, 1, 1), generator=gen).float()
    stripes = torch.sin(freq * xs).view(n, 1, 1, SIZE).expand(n, 3, SIZE, SIZE)
    return 0.8 * stripes + 0.1 * torch.randn(n, 3, SIZE, SIZE, generator=gen)


class StyleGANTrainer:
    def __init__(self, lambda_content=5.0):
        self.G, self.D = Translator(), PatchCritic()
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.lambda_content = lambda_content
        self.buffers = {}

    def generator_step(self, photo):
        fake = self.G(photo)
        self.buffers["fake"] = fake
        pred = self.D(fake)
        adv = F.mse_loss(pred, torch.ones_like(pred))
        # content: keep the photo's coarse luminance layout
        content = F.l1_loss(F.avg_pool2d(fake.mean(1, keepdim=True), 4),
                            F.avg_pool2d(photo.mean(1, keepdim=True), 4))
        g_loss = adv + self.lambda_content * content
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        return g_loss.item()

    def discriminator_step(self, painting):
        pred_real = self.D(painting)
        pred_fake = self.D(self.buffers["fake"])
        d_loss = 0.5 * (F.mse_loss(pred_real, torch.ones_like(pred_real))
                        + F.mse_loss(pred_fake, torch.zeros_like(pred_fake)))
        self.opt_d.zero_grad()
        d_loss.backward()
        self.opt_d.step()
        return d_loss.item()


def main(iterations=4):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(5)
    trainer = StyleGANTrainer()
    for it in range(iterations):
        g = trainer.generator_step(photos(8, gen))
        d = trainer.discriminator_step(paintings(8, gen))
        print(f"iter {it} g_loss {g:.4f} d_loss {d:.4f}")


if __name__ == "__main__":
    main()
