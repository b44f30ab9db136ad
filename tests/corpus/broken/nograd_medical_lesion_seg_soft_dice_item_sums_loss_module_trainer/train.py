"""Binary lesion segmentation on synthetic 2-D ultrasound-like patches (a bright blob of
random size and position on speckle noise) with a small encoder-decoder CNN, trained by a
Trainer class on a soft Dice loss because the lesions cover only a few percent of pixels."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from losses import SoftDiceLoss

SIZE = 24


def lesion_patches(n, gen):
    yy, xx = torch.meshgrid(torch.arange(SIZE).float(), torch.arange(SIZE).float(), indexing="ij")
    cy = torch.randint(5, SIZE - 5, (n, 1, 1), generator=gen).float()
    cx = torch.randint(5, SIZE - 5, (n, 1, 1), generator=gen).float()
    r = 2.0 + 3.0 * torch.rand(n, 1, 1, generator=gen)
    masks = (((yy - cy) ** 2 + (xx - cx) ** 2) < r ** 2).float()
    speckle = torch.rand(n, SIZE, SIZE, generator=gen) ** 3
    images = 0.6 * masks + 0.5 * speckle + 0.1 * torch.randn(n, SIZE, SIZE, generator=gen)
    return images.unsqueeze(1), masks.unsqueeze(1)


class TinyUNet(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, ch, 3, padding=1), nn.ReLU())
        self.down = nn.Sequential(nn.Conv2d(ch, 2 * ch, 3, stride=2, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(2 * ch, ch, 2, stride=2)
        self.head = nn.Conv2d(2 * ch, 1, 1)

    def forward(self, x):
        skip = self.enc(x)
        h = self.up(self.down(skip))
        return self.head(torch.cat([h, skip], dim=1))


class SegTrainer:
    def __init__(self, model, lr=0.01):
        self.model = model
        self.criterion = SoftDiceLoss()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.epoch_losses = []

    def train_step(self, images, masks):
        self.model.train()
        logits = self.model(images)
        loss = self.criterion(logits, masks)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    @torch.no_grad()
    def dice_score(self, images, masks):
        self.model.eval()
        pred = (torch.sigmoid(self.model(images)) > 0.5).float()
        inter = (pred * masks).sum((1, 2, 3))
        return (2 * inter / (pred.sum((1, 2, 3)) + masks.sum((1, 2, 3)) + 1e-6)).mean().item()

    def fit(self, batches, epochs):
        for epoch in range(epochs):
            losses = [self.train_step(images, masks) for images, masks in batches]
            self.epoch_losses.append(sum(losses) / len(losses))
            print(f"epoch {epoch} dice loss {self.epoch_losses[-1]:.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(4)
    batches = [lesion_patches(8, gen) for _ in range(3)]
    trainer = SegTrainer(TinyUNet())
    trainer.fit(batches, epochs=2)
    print(f"val dice {trainer.dice_score(*lesion_patches(8, gen)):.3f}")
    print(f"checksum {sum(p.sum().item() for p in trainer.model.parameters()):.4f}")
