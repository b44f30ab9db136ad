"""Multi-task dense prediction on synthetic 8x8 scenes: a small conv net predicts a 3-class
segmentation map and a depth map from a shared trunk; a deep-supervision callback adds an
auxiliary segmentation head on the mid-level features."""
import torch
import torch.nn as nn

from callbacks import DeepSupervision, EpochLogger
from trainer import MultiTaskTrainer

torch.manual_seed(0)
N_CLASSES, C, H, W, BATCH = 3, 16, 8, 8, 4


class SceneNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, C, 3, padding=1), nn.ReLU())
        self.mid = nn.Sequential(nn.Conv2d(C, C, 3, padding=1), nn.BatchNorm2d(C), nn.ReLU())
        self.top = nn.Sequential(nn.Conv2d(C, C, 3, padding=1), nn.ReLU())
        self.seg_head = nn.Conv2d(C, N_CLASSES, 1)
        self.depth_head = nn.Conv2d(C, 1, 1)

    def forward(self, x):
        low = self.stem(x)
        mid = self.mid(low)
        top = self.top(mid)
        return {"seg": self.seg_head(top), "depth": self.depth_head(top).squeeze(1)}


def make_batches(n_batches):
    batches = []
    for _ in range(n_batches):
        seg = torch.randint(0, N_CLASSES, (BATCH, H, W))
        depth = seg.float() * 0.5 + 0.1 * torch.randn(BATCH, H, W)
        images = nn.functional.one_hot(seg, 3).permute(0, 3, 1, 2).float()
        images = images + 0.3 * torch.randn(BATCH, 3, H, W)
        batches.append((images, seg, depth))
    return batches


def main():
    model = SceneNet()
    aux = DeepSupervision(model.mid, C, N_CLASSES)
    params = list(model.parameters()) + list(aux.head.parameters())
    optimizer = torch.optim.SGD(params, lr=0.05, momentum=0.9)
    trainer = MultiTaskTrainer(model, optimizer, callbacks=[aux, EpochLogger(aux)])
    trainer.fit(make_batches(3), epochs=2)


if __name__ == "__main__":
    main()
