"""Two-stage convolutional pose machine for 4 keypoints on 16x16 silhouettes. Stage 1 sees
the backbone features; stage 2 sees the features concatenated with stage 1's heatmaps.
Intermediate supervision: every stage is trained on its own heatmap loss, with its own
optimizer (the backbone is updated together with stage 1)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
SIZE, JOINTS, FEATS = 16, 4, 12


def gaussian_heatmaps(coords, sigma=1.5):
    grid = torch.arange(SIZE).float()
    dy = (grid[None, None, :, None] - coords[..., 0, None, None]) ** 2
    dx = (grid[None, None, None, :] - coords[..., 1, None, None]) ** 2
    return torch.exp(-(dx + dy) / (2 * sigma ** 2))


def make_batch(n=8):
    coords = torch.randint(2, SIZE - 2, (n, JOINTS, 2)).float()
    heat = gaussian_heatmaps(coords)
    images = heat.sum(1, keepdim=True).clamp(max=1) + 0.1 * torch.randn(n, 1, SIZE, SIZE)
    return images, heat


def stage(in_ch):
    return nn.Sequential(nn.Conv2d(in_ch, 16, 3, padding=1), nn.ReLU(),
                         nn.Conv2d(16, 16, 3, padding=2, dilation=2), nn.ReLU(),
                         nn.Conv2d(16, JOINTS, 1))


class PoseMachine(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(1, FEATS, 3, padding=1), nn.ReLU())
        self.stages = nn.ModuleList([stage(FEATS), stage(FEATS + JOINTS)])


model = PoseMachine()
optimizers = [
    torch.optim.Adam(list(model.backbone.parameters()) + list(model.stages[0].parameters()), lr=2e-3),
    torch.optim.Adam(model.stages[1].parameters(), lr=2e-3),
]

for epoch in range(2):
    for it in range(3):
        images, target = make_batch()
        feats = model.backbone(images)
        heat = None
        stage_losses = []
        for s in range(len(model.stages)):
            inputs = feats if heat is None else torch.cat([feats, heat], dim=1)
            heat = model.stages[s](inputs)
            loss = F.mse_loss(heat, target)
            optimizers[s].zero_grad()
            loss.backward(retain_graph=True)
            optimizers[s].step()
            stage_losses.append(loss.item())
    print(f"epoch {epoch} stage losses " + " ".join(f"{l:.5f}" for l in stage_losses))
