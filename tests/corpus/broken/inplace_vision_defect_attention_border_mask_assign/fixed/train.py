"""Surface-defect classifier for small grayscale tiles (scratch / pit / clean).
A conv stem is followed by spatial-attention pooling; the attention map is zeroed on a
one-pixel border because zero padding made the model stare at the tile edges."""
import torch
import torch.nn as nn
import torch.nn.functional as F

TILE, CLASSES = 16, 3


class AttentionPoolNet(nn.Module):
    def __init__(self, width=12):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU())
        self.att_conv = nn.Conv2d(width, 1, 1)
        self.classifier = nn.Linear(width, CLASSES)
        border = torch.ones(TILE, TILE, dtype=torch.bool)
        border[1:-1, 1:-1] = False
        self.register_buffer("border", border)

    def forward(self, x):
        feat = self.stem(x)
        att = torch.sigmoid(self.att_conv(feat))
        att = att.masked_fill(self.border, 0.0)  # ignore padding artefacts on the tile edge
        pooled = (feat * att).sum(dim=(2, 3)) / (att.sum(dim=(2, 3)) + 1e-6)
        return self.classifier(pooled), att


def make_tiles(n, gen):
    labels = torch.randint(0, CLASSES, (n,), generator=gen)
    tiles = 0.2 * torch.randn(n, 1, TILE, TILE, generator=gen)
    for i, y in enumerate(labels.tolist()):
        r, c = torch.randint(3, TILE - 3, (2,), generator=gen).tolist()
        if y == 1:  # scratch: a bright diagonal streak
            for k in range(-3, 4):
                tiles[i, 0, r + k, c + k] += 1.5
        elif y == 2:  # pit: a dark blob
            tiles[i, 0, r - 1:r + 2, c - 1:c + 2] -= 1.5
    return tiles, labels


def main(epochs=2, batches_per_epoch=3, batch_size=24):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(7)
    model = AttentionPoolNet()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    history = []
    for epoch in range(epochs):
        model.train()
        for step in range(batches_per_epoch):
            tiles, labels = make_tiles(batch_size, gen)
            logits, att = model(tiles)
            loss = F.cross_entropy(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            acc = (logits.argmax(1) == labels).float().mean().item()
            history.append(loss.item())
            print(f"epoch {epoch} step {step} loss {loss.item():.4f} acc {acc:.2f} "
                  f"att-max {att.max().item():.3f}")
    return history


if __name__ == "__main__":
    losses = main()
    print(f"final loss {losses[-1]:.4f}")
