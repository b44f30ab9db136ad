"""Multi-task scene understanding on tiny synthetic images: one conv backbone shared by a
segmentation head, a depth head and a surface-normal head kept in an nn.ModuleDict."""
import torch
import torch.nn as nn
import torch.nn.functional as F

TASKS = ("segmentation", "depth", "normals")
TASK_WEIGHTS = {"segmentation": 1.0, "depth": 0.5, "normals": 0.2}


def make_heads(ch):
    return nn.ModuleDict({
        "segmentation": nn.Conv2d(ch, 4, 1),
        "depth": nn.Sequential(nn.Conv2d(ch, 4, 3, padding=1), nn.ReLU(), nn.Conv2d(4, 1, 1)),
        "normals": nn.Conv2d(ch, 3, 1),
    })


def task_loss(name, pred, target):
    if name == "segmentation":
        return F.cross_entropy(pred, target)
    if name == "depth":
        return F.l1_loss(pred.squeeze(1), target)
    return (1 - F.cosine_similarity(pred, target, dim=1)).mean()


def synthetic_batch(n=4, size=8):
    images = torch.rand(n, 3, size, size)
    targets = {
        "segmentation": (images[:, 0] * 4).long().clamp(max=3),
        "depth": images.mean(1) * 2.0,
        "normals": F.normalize(torch.randn(n, 3, size, size), dim=1),
    }
    return images, targets


def main():
    torch.manual_seed(3)
    backbone = nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
        nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
    )
    heads = make_heads(8)
    params = list(backbone.parameters()) + list(heads.parameters())
    optimizer = torch.optim.SGD(params, lr=0.05, momentum=0.9)

    for epoch in range(2):
        for it in range(2):
            images, targets = synthetic_batch()
            optimizer.zero_grad()
            features = backbone(images)
            log = {}
            for name in TASKS:
                pred = heads[name](features)
                loss = TASK_WEIGHTS[name] * task_loss(name, pred, targets[name])
                loss.backward()
                log[name] = loss.item()
            optimizer.step()
            print(f"epoch {epoch} it {it} " + " ".join(f"{k} {v:.4f}" for k, v in log.items()))


if __name__ == "__main__":
    main()
