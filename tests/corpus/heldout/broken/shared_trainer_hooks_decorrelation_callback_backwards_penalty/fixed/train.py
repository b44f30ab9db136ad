"""Image classifier with plug-in regularisers.

The Trainer calls every callback's on_after_forward(trainer, features) right after the
forward pass. FeatureDecorrelation is such a plug-in: it penalises the off-diagonal
covariance of the backbone features (a DeCov-style regulariser) so it can be switched on
from the config without touching the training step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES, BATCH, FEAT = 6, 24, 32


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.convs = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, FEAT, 3, stride=2, padding=1), nn.BatchNorm2d(FEAT), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )

    def forward(self, x):
        return self.convs(x)


class Callback:
    def on_after_forward(self, trainer, features):
        pass

    def on_step_end(self, trainer, step, loss):
        pass


class FeatureDecorrelation(Callback):
    def __init__(self, weight=0.05):
        self.weight = weight

    def on_after_forward(self, trainer, features):
        centered = features - features.mean(dim=0, keepdim=True)
        cov = centered.T @ centered / (features.shape[0] - 1)
        off_diag = cov - torch.diag_embed(cov.diagonal())
        penalty = self.weight * 0.5 * off_diag.pow(2).sum()
        trainer.log["decov"] = penalty.item()
        return penalty


class PrintLogger(Callback):
    def on_step_end(self, trainer, step, loss):
        extras = "  ".join(f"{k} {v:.4f}" for k, v in trainer.log.items())
        print(f"step {step}  ce {loss:.4f}  {extras}")


class Trainer:
    def __init__(self, backbone, head, callbacks):
        self.backbone, self.head, self.callbacks = backbone, head, callbacks
        params = list(backbone.parameters()) + list(head.parameters())
        self.optimizer = torch.optim.SGD(params, lr=0.05, momentum=0.9, weight_decay=5e-4)
        self.log = {}

    def step(self, step, images, labels):
        self.optimizer.zero_grad()
        features = self.backbone(images)
        penalties = [cb.on_after_forward(self, features) for cb in self.callbacks]
        loss = F.cross_entropy(self.head(features), labels)
        total = loss + sum(p for p in penalties if p is not None)
        total.backward()
        self.optimizer.step()
        for cb in self.callbacks:
            cb.on_step_end(self, step, loss.item())
        return loss.item()


def main(steps=5):
    torch.manual_seed(0)
    colors = torch.rand(N_CLASSES, 3, 1, 1)
    trainer = Trainer(Backbone(), nn.Linear(FEAT, N_CLASSES), [FeatureDecorrelation(), PrintLogger()])
    losses = []
    for step in range(steps):
        labels = torch.randint(0, N_CLASSES, (BATCH,))
        images = colors[labels] + 0.2 * torch.randn(BATCH, 3, 10, 10)
        losses.append(trainer.step(step, images, labels))
    return losses


if __name__ == "__main__":
    final = main()
    print(f"final ce {final[-1]:.4f}")
