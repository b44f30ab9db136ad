"""Denoising conv autoencoder for 16x16 grayscale patches, trained with a pixel loss and an
edge-preservation loss through the callback Trainer."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import ClippedStep, GradNormLogger
from trainer import Trainer

torch.manual_seed(0)


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
                                     nn.Conv2d(8, 8, 3, stride=2, padding=1), nn.ReLU())
        self.decoder = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(8, 8, 3, padding=1),
                                     nn.ReLU())
        self.head = nn.Conv2d(8, 1, 3, padding=1)

    def forward(self, x):
        return self.head(self.decoder(self.encoder(x)))


def edges(img):
    return img[..., 1:, :] - img[..., :-1, :], img[..., :, 1:] - img[..., :, :-1]


def loss_terms(out, clean):
    (oy, ox), (cy, cx) = edges(out), edges(clean)
    return {"pixel": F.mse_loss(out, clean),
            "edge": 0.5 * (F.l1_loss(oy, cy) + F.l1_loss(ox, cx))}


def make_patches(n):
    yy, xx = torch.meshgrid(torch.arange(16.0), torch.arange(16.0), indexing="ij")
    freq = torch.rand(n, 1, 1) * 0.8 + 0.2
    clean = (torch.sin(freq * xx) * torch.cos(freq * yy) > 0).float().unsqueeze(1)
    return clean + 0.3 * torch.randn_like(clean), clean


def main():
    model = Denoiser()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    norms = GradNormLogger()
    trainer = Trainer(model, optimizer, loss_terms, callbacks=[norms, ClippedStep(1.0)])
    batches = [make_patches(8) for _ in range(2)]
    trainer.fit(batches, epochs=3)
    print("grad norm per term", {k: round(v, 4) for k, v in norms.per_term.items()})


if __name__ == "__main__":
    main()
