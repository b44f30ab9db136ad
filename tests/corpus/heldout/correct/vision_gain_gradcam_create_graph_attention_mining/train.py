"""Guided Attention Inference Network (GAIN)-style training on synthetic scenes.

Grad-CAM of the true class is computed with autograd.grad(create_graph=True) so that it
stays differentiable; the image is soft-masked by that attention map and an
attention-mining loss pushes the class score on the masked image down, forcing the
network to attend to the whole object."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES, IMG, BATCH = 3, 16, 12


class CamNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
        )
        self.fc = nn.Linear(32, N_CLASSES)

    def forward(self, x):
        fmap = self.features(x)
        return self.fc(fmap.mean(dim=(2, 3))), fmap


def grad_cam(logits, fmap, labels):
    score = logits.gather(1, labels[:, None]).sum()
    grads, = torch.autograd.grad(score, fmap, create_graph=True)
    weights = grads.mean(dim=(2, 3), keepdim=True)
    cam = F.relu((weights * fmap).sum(dim=1, keepdim=True))
    cam = cam / (cam.amax(dim=(2, 3), keepdim=True) + 1e-6)
    return F.interpolate(cam, size=(IMG, IMG), mode="bilinear", align_corners=False)


def scenes(gen):
    y = torch.randint(0, N_CLASSES, (BATCH,), generator=gen)
    img = 0.2 * torch.randn(BATCH, 3, IMG, IMG, generator=gen)
    for i, c in enumerate(y.tolist()):
        r0 = int(torch.randint(0, IMG - 8, (1,), generator=gen))
        img[i, c, r0:r0 + 8, 4:12] += 1.0
    return img, y


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(17)
    model = CamNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    for step in range(6):
        images, labels = scenes(gen)
        logits, fmap = model(images)
        cls_loss = F.cross_entropy(logits, labels)
        cam = grad_cam(logits, fmap, labels)
        soft_mask = torch.sigmoid(10.0 * (cam - 0.5))
        masked_logits, _ = model(images * (1 - soft_mask))
        am_loss = masked_logits.softmax(1).gather(1, labels[:, None]).mean()
        loss = cls_loss + 0.5 * am_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}  cls {cls_loss.item():.4f}  attention-mining {am_loss.item():.4f}  "
              f"cam mean {cam.mean().item():.4f}")
    print(f"parameter checksum {sum(p.double().sum().item() for p in model.parameters()):.6f}")


if __name__ == "__main__":
    main()
