"""Binary-plus-background segmentation of synthetic 'cell' images with a tiny
encoder-decoder, CE + soft-Dice loss, and an epoch Dice read-out from SoftDiceMeter."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from metrics import SoftDiceMeter

torch.manual_seed(0)
N_CLASSES, SIZE = 3, 24


class TinySegNet(nn.Module):
    def __init__(self, ch=12):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(1, ch, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(ch, ch, 3, stride=2, padding=1), nn.ReLU())
        self.up = nn.Sequential(nn.ConvTranspose2d(ch, ch, 2, stride=2), nn.ReLU())
        self.classify = nn.Conv2d(ch + 1, N_CLASSES, 1)

    def forward(self, x):
        return self.classify(torch.cat([self.up(self.down(x)), x], dim=1))


def cells_batch(n=4):
    """Discs (class 1) and squares (class 2) on a noisy background (class 0)."""
    ys, xs = torch.meshgrid(torch.arange(SIZE), torch.arange(SIZE), indexing="ij")
    masks = torch.zeros(n, SIZE, SIZE, dtype=torch.long)
    for i in range(n):
        cy, cx = torch.randint(5, SIZE - 5, (2,)).tolist()
        masks[i][(ys - cy) ** 2 + (xs - cx) ** 2 < 16] = 1
        sy, sx = torch.randint(2, SIZE - 6, (2,)).tolist()
        masks[i, sy:sy + 4, sx:sx + 4] = 2
    images = masks.float() / 2 + 0.3 * torch.randn(n, SIZE, SIZE)
    return images.unsqueeze(1), masks


def soft_dice_loss(probs, masks):
    onehot = F.one_hot(masks, N_CLASSES).permute(0, 3, 1, 2).float()
    inter = (probs * onehot).sum(dim=(0, 2, 3))
    return 1 - ((2 * inter + 1) / ((probs + onehot).sum(dim=(0, 2, 3)) + 1)).mean()


model = TinySegNet()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
meter = SoftDiceMeter(N_CLASSES)
for epoch in range(2):
    meter.reset()
    for _ in range(8):
        images, masks = cells_batch()
        logits = model(images)
        probs = logits.softmax(dim=1)
        loss = F.cross_entropy(logits, masks) + soft_dice_loss(probs, masks)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        meter.update(probs, masks)
    mean_dice, per_class = meter.compute()
    print(f"epoch {epoch} loss {loss.item():.4f} dice {mean_dice:.3f} "
          f"per-class {[round(d, 3) for d in per_class]}")
