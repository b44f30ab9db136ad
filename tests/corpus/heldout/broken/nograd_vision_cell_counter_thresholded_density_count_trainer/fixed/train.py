"""Cell counting in microscopy tiles: a small fully convolutional net predicts a per-pixel
cell map and is supervised only with the number of cells in each tile."""
import torch
import torch.nn as nn
import torch.nn.functional as F

TILE = 16


def make_tiles(n, generator):
    images = 0.1 * torch.randn(n, 1, TILE, TILE, generator=generator)
    counts = torch.randint(1, 6, (n,), generator=generator)
    for k in range(n):
        ys = torch.randint(2, TILE - 2, (int(counts[k]),), generator=generator)
        xs = torch.randint(2, TILE - 2, (int(counts[k]),), generator=generator)
        images[k, 0, ys, xs] += 1.0
    return images, counts.float()


class CellMapNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 1, 1),
        )

    def forward(self, x):
        return torch.sigmoid(self.body(x))


class CountingTrainer:
    def __init__(self, model, lr=3e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.history = []

    def predict_counts(self, images):
        cell_map = self.model(images)
        return cell_map.sum(dim=(1, 2, 3))

    def step(self, images, counts):
        self.model.train()
        pred = self.predict_counts(images)
        loss = F.smooth_l1_loss(pred, counts)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.history.append(loss.item())
        return loss.item()

    def mae(self, images, counts):
        self.model.eval()
        with torch.no_grad():
            return (self.predict_counts(images) - counts).abs().mean().item()


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    images, counts = make_tiles(40, gen)
    trainer = CountingTrainer(CellMapNet())
    for epoch in range(2):
        for start in range(0, 30, 10):
            trainer.step(images[start:start + 10], counts[start:start + 10])
        print(f"epoch {epoch} loss {trainer.history[-1]:.4f} "
              f"val mae {trainer.mae(images[30:], counts[30:]):.3f}")


if __name__ == "__main__":
    main()
