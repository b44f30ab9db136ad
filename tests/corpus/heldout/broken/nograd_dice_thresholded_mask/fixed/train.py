"""Binary segmentation of bright blobs with a tiny encoder-decoder, trained on the Dice loss.
The Dice is computed on the binary mask, the same way the validation Dice score is."""
import torch
import torch.nn as nn

torch.manual_seed(0)
SIZE = 16


def make_batch(n):
    yy, xx = torch.meshgrid(torch.arange(SIZE), torch.arange(SIZE), indexing="ij")
    centers = torch.randint(4, SIZE - 4, (n, 2))
    radius = torch.randint(2, 5, (n, 1, 1))
    dist = (yy - centers[:, 0, None, None]) ** 2 + (xx - centers[:, 1, None, None]) ** 2
    masks = (dist <= radius ** 2).float().unsqueeze(1)
    images = masks * 0.8 + 0.3 * torch.randn(n, 1, SIZE, SIZE)
    return images, masks


class TinySegNet(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(1, ch, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.mid = nn.Sequential(nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(ch, ch, 2, stride=2)
        self.out = nn.Conv2d(ch + 1, 1, 1)

    def forward(self, x):
        h = self.up(self.mid(self.down(x)))
        return self.out(torch.cat([h, x], dim=1))


def dice_loss(pred, target, smooth=1.0):
    inter = (pred * target).sum(dim=(1, 2, 3))
    union = pred.sum(dim=(1, 2, 3)) + target.sum(dim=(1, 2, 3))
    return 1 - ((2 * inter + smooth) / (union + smooth)).mean()


def train(epochs=5):
    model = TinySegNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(epochs):
        images, masks = make_batch(16)
        logits = model(images)
        pred_mask = torch.sigmoid(logits)
        loss = dice_loss(pred_mask, masks)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} dice loss {loss.item():.4f}")


train()
