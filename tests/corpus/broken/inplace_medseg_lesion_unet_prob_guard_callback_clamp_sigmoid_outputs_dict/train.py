"""Binary lesion segmentation on synthetic 24x24 "MRI slices": bright elliptical lesions on
a noisy tissue background. A two-level U-Net predicts a foreground probability per pixel
and is trained with soft Dice + BCE computed from those probabilities."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import EpochLogger, ProbabilityGuard

SIZE, BATCH = 24, 8


def make_slices(n, generator):
    yy, xx = torch.meshgrid(torch.arange(SIZE).float(), torch.arange(SIZE).float(), indexing="ij")
    centres = torch.rand(n, 2, generator=generator) * (SIZE - 8) + 4
    radii = torch.rand(n, 2, generator=generator) * 3 + 2
    dist = ((xx - centres[:, 0, None, None]) / radii[:, 0, None, None]) ** 2 \
        + ((yy - centres[:, 1, None, None]) / radii[:, 1, None, None]) ** 2
    masks = (dist <= 1.0).float().unsqueeze(1)
    tissue = 0.3 + 0.1 * torch.sin(xx / 3.0) * torch.cos(yy / 4.0)
    images = tissue + 0.6 * masks + 0.15 * torch.randn(n, 1, SIZE, SIZE, generator=generator)
    return images, masks


def conv_block(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(),
                         nn.Conv2d(c_out, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU())


class TinyUNet(nn.Module):
    def __init__(self, width=8):
        super().__init__()
        self.down = conv_block(1, width)
        self.bottom = conv_block(width, 2 * width)
        self.up = nn.ConvTranspose2d(2 * width, width, 2, stride=2)
        self.merge = conv_block(2 * width, width)
        self.head = nn.Conv2d(width, 1, 1)

    def forward(self, x):
        skip = self.down(x)
        deep = self.bottom(F.max_pool2d(skip, 2))
        merged = self.merge(torch.cat([self.up(deep), skip], dim=1))
        logits = self.head(merged)
        return {"logits": logits, "probs": torch.sigmoid(logits)}


def soft_dice(probs, masks, smooth=1.0):
    inter = (probs * masks).sum(dim=(1, 2, 3))
    total = probs.sum(dim=(1, 2, 3)) + masks.sum(dim=(1, 2, 3))
    return ((2 * inter + smooth) / (total + smooth)).mean()


def bce_from_probs(probs, masks):
    return -(masks * probs.log() + (1 - masks) * (1 - probs).log()).mean()


class SegTrainer:
    def __init__(self, model, callbacks, lr=3e-3):
        self.model = model
        self.callbacks = callbacks
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def train_step(self, images, masks):
        outputs = self.model(images)
        for cb in self.callbacks:
            cb.on_forward_end(self, outputs)
        probs = outputs["probs"]
        dice = soft_dice(probs, masks)
        loss = (1 - dice) + bce_from_probs(probs, masks)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item(), dice.item()

    def fit(self, images, masks, epochs):
        for epoch in range(epochs):
            losses, dices = [], []
            for start in range(0, images.size(0), BATCH):
                loss, dice = self.train_step(images[start:start + BATCH], masks[start:start + BATCH])
                losses.append(loss)
                dices.append(dice)
            logs = {"loss": sum(losses) / len(losses), "dice": sum(dices) / len(dices)}
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch, logs)


def main():
    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(1)
    images, masks = make_slices(16, generator)
    trainer = SegTrainer(TinyUNet(), [ProbabilityGuard(), EpochLogger()])
    trainer.fit(images, masks, epochs=3)
    checksum = sum(p.detach().abs().sum().item() for p in trainer.model.parameters())
    print(f"param checksum {checksum:.4f}")


if __name__ == "__main__":
    main()
