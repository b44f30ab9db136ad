"""Active learning with a loss-prediction module ("learning loss"): a small CNN classifies
8x8 glyphs, and a LossNet reads the backbone features and learns to predict the CNN's
per-sample loss. After each cycle the unlabelled samples with the largest predicted loss
are sent for labelling. The target loss and the loss-prediction loss are backwarded one
after the other, each with its own optimizer stepping afterwards."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES, SIZE, BATCH, MARGIN, LOSS_WEIGHT = 4, 8, 16, 1.0, 0.5


class GlyphCNN(nn.Module):
    def __init__(self, width=12):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(2), nn.Flatten())
        self.classifier = nn.Linear(4 * width, N_CLASSES)


class LossNet(nn.Module):
    def __init__(self, in_dim=48, hidden=16):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1, bias=False))

    def forward(self, feats):
        return self.mlp(feats).squeeze(1)


def ranking_loss(pred_loss, target_loss):
    """Pairwise margin ranking between the first and second half of the batch."""
    half = pred_loss.size(0) // 2
    target_loss = target_loss.detach()
    sign = torch.sign(target_loss[:half] - target_loss[half:])
    return F.relu(MARGIN - sign * (pred_loss[:half] - pred_loss[half:])).mean()


def make_pool(n):
    protos = torch.randn(N_CLASSES, 1, SIZE, SIZE)
    y = torch.randint(0, N_CLASSES, (n,))
    return protos[y] + 0.8 * torch.randn(n, 1, SIZE, SIZE), y


def train(model, loss_net, x, y, steps, opt_model, opt_module):
    for step in range(steps):
        idx = torch.randperm(len(y))[:BATCH]
        feats = model.backbone(x[idx])
        target_loss = F.cross_entropy(model.classifier(feats), y[idx], reduction="none")
        module_loss = LOSS_WEIGHT * ranking_loss(loss_net(feats), target_loss)
        task_loss = target_loss.mean()
        opt_model.zero_grad()
        opt_module.zero_grad()
        task_loss.backward()
        module_loss.backward()
        opt_model.step()
        opt_module.step()
        print(f"  step {step} task {task_loss.item():.4f} rank {module_loss.item():.4f}")


@torch.no_grad()
def query(model, loss_net, pool_x, k):
    return loss_net(model.backbone(pool_x)).topk(k).indices


def main(cycles=2, steps=3, budget=16):
    torch.manual_seed(0)
    pool_x, pool_y = make_pool(160)
    labelled = torch.arange(32)
    unlabelled = torch.arange(32, 160)
    model, loss_net = GlyphCNN(), LossNet()
    opt_model = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    opt_module = torch.optim.SGD(loss_net.parameters(), lr=0.05, momentum=0.9)
    for cycle in range(cycles):
        print(f"cycle {cycle}: {len(labelled)} labelled")
        train(model, loss_net, pool_x[labelled], pool_y[labelled], steps, opt_model, opt_module)
        picked = unlabelled[query(model, loss_net, pool_x[unlabelled], budget)]
        labelled = torch.cat([labelled, picked])
        unlabelled = unlabelled[~torch.isin(unlabelled, picked)]
    return model


if __name__ == "__main__":
    main()
