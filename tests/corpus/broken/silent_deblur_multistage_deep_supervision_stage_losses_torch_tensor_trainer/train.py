"""Three-stage deblurring network with deep supervision: every stage refines a shared feature
map, a light per-stage head turns the stage's features into an intermediate sharp estimate
(supervised only by the deep-supervision loss), and the last stage's features go through the
output head. Synthetic data: smooth random images blurred with a box kernel."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from losses import charbonnier, edge_loss

torch.manual_seed(0)
STAGES, CH, SIZE, BATCH, STEPS = 3, 8, 16, 4, 6


class MultiStageDeblur(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(1, CH, 3, padding=1)
        self.stages = nn.ModuleList(
            nn.Sequential(nn.Conv2d(CH + 1, CH, 3, padding=1), nn.GELU()) for _ in range(STAGES))
        self.aux_heads = nn.ModuleList(nn.Conv2d(CH, 1, 3, padding=1) for _ in range(STAGES - 1))
        self.out_head = nn.Conv2d(CH, 1, 3, padding=1)

    def forward(self, blurred):
        feats = self.stem(blurred)
        intermediates = []
        for j, stage in enumerate(self.stages):
            feats = feats + stage(torch.cat([feats, blurred], dim=1))
            if j < STAGES - 1:
                intermediates.append(blurred + self.aux_heads[j](feats))
        return blurred + self.out_head(feats), intermediates


def make_pair(n):
    sharp = F.avg_pool2d(torch.rand(n, 1, SIZE * 2, SIZE * 2), 2)
    blurred = F.avg_pool2d(F.pad(sharp, (2, 2, 2, 2), mode="replicate"), 5, stride=1)
    return blurred, sharp


class DeblurTrainer:
    def __init__(self, model, lr=2e-3, edge_weight=0.05):
        self.model = model
        self.edge_weight = edge_weight
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def criterion(self, restored, intermediates, sharp):
        main = charbonnier(restored, sharp) + self.edge_weight * edge_loss(restored, sharp)
        # np.sum over the per-stage losses broke on CUDA tensors; build one tensor instead
        stage_char = torch.tensor([charbonnier(o, sharp) for o in intermediates], requires_grad=True).sum()
        stage_edge = torch.tensor([edge_loss(o, sharp) for o in intermediates], requires_grad=True).sum()
        return main + stage_char + self.edge_weight * stage_edge

    def step(self, blurred, sharp):
        restored, intermediates = self.model(blurred)
        loss = self.criterion(restored, intermediates, sharp)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item(), restored.detach()


trainer = DeblurTrainer(MultiStageDeblur())
for it in range(STEPS):
    blurred, sharp = make_pair(BATCH)
    loss, restored = trainer.step(blurred, sharp)
    psnr = -10 * torch.log10(F.mse_loss(restored.clamp(0, 1), sharp))
    print(f"iter {it} loss {loss:.4f} psnr {psnr.item():.2f}")
print(f"aux head checksum {sum(p.sum() for p in trainer.model.aux_heads.parameters()).item():.4f}")
