"""Two-landmark localisation on 12x12 images: a fully convolutional network predicts one
heatmap per landmark, the trainer decodes each heatmap to (x, y) pixel coordinates and
regresses them onto the annotated coordinates with a smooth-L1 loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F

SIZE, N_LANDMARKS = 12, 2


def make_faces(n):
    coords = torch.randint(2, SIZE - 2, (n, N_LANDMARKS, 2)).float()
    grid = torch.arange(SIZE, dtype=torch.float32)
    gx = torch.exp(-0.5 * (grid - coords[..., 0:1]) ** 2)          # (n, L, SIZE)
    gy = torch.exp(-0.5 * (grid - coords[..., 1:2]) ** 2)
    blobs = (gy.unsqueeze(-1) * gx.unsqueeze(-2)).sum(1, keepdim=True)
    return blobs + 0.1 * torch.randn(n, 1, SIZE, SIZE), coords


class HeatmapNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(16, N_LANDMARKS, 1))

    def forward(self, images):
        return self.body(images)


class LandmarkTrainer:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.step = 0

    @staticmethod
    def decode(heatmaps):
        """Heatmaps (B, L, H, W) -> pixel coordinates (B, L, 2) as (x, y), by soft-argmax."""
        height, width = heatmaps.shape[-2:]
        probs = heatmaps.flatten(2).softmax(dim=2).view_as(heatmaps)
        xs = (probs.sum(dim=2) * torch.arange(width, dtype=probs.dtype)).sum(-1)
        ys = (probs.sum(dim=3) * torch.arange(height, dtype=probs.dtype)).sum(-1)
        return torch.stack([xs, ys], dim=-1)

    def train_step(self, images, coords):
        heatmaps = self.model(images)
        pred = self.decode(heatmaps)
        loss = F.smooth_l1_loss(pred, coords)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.step += 1
        return loss.item()


torch.manual_seed(0)
trainer = LandmarkTrainer(HeatmapNet())
for epoch in range(2):
    for _ in range(3):
        images, coords = make_faces(16)
        loss = trainer.train_step(images, coords)
    print(f"epoch {epoch} step {trainer.step} landmark error {loss:.4f}")
