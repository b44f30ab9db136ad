"""Linear evaluation of a SimCLR checkpoint on a 4-class sensor-gesture task: the encoder is
frozen, the projection head is thrown away and a linear probe is trained on the features."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES, IN_DIM, FEAT, PROJ = 4, 24, 32, 16


class SimCLR(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(IN_DIM, 64), nn.ReLU(), nn.Linear(64, FEAT), nn.ReLU())
        self.projector = nn.Sequential(nn.Linear(FEAT, FEAT), nn.ReLU(), nn.Linear(FEAT, PROJ))

    def forward(self, x):
        return F.normalize(self.projector(self.encoder(x)), dim=1)


def pretrained_simclr():
    model = SimCLR()
    g = torch.Generator().manual_seed(7)
    with torch.no_grad():
        for p in model.parameters():
            p.mul_(1.0 + 0.1 * torch.randn(p.shape, generator=g))
    return model


def gesture_windows(n, gen):
    y = torch.randint(0, N_CLASSES, (n,), generator=gen)
    centers = torch.linspace(-1.5, 1.5, N_CLASSES)[y]
    x = centers[:, None] * torch.linspace(0, 1, IN_DIM) + 0.4 * torch.randn(n, IN_DIM, generator=gen)
    return x, y


def linear_eval(model, args):
    for p in model.encoder.parameters():
        p.requires_grad = False
    model.encoder.eval()

    probe = nn.Linear(FEAT, N_CLASSES)
    probe_opt = torch.optim.SGD(model.projector.parameters(), lr=args.probe_lr, momentum=0.9)
    gen = torch.Generator().manual_seed(0)
    for epoch in range(args.epochs):
        x, y = gesture_windows(64, gen)
        feats = model.encoder(x)
        loss = F.cross_entropy(probe(feats), y)
        probe_opt.zero_grad()
        loss.backward()
        probe_opt.step()
        acc = (probe(feats).argmax(1) == y).float().mean()
        print(f"epoch {epoch} probe loss {loss.item():.4f} acc {acc.item():.3f}")
    return probe


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--probe-lr", type=float, default=0.1)
    parser.add_argument("--epochs", type=int, default=5)
    args = parser.parse_args()
    torch.manual_seed(0)
    linear_eval(pretrained_simclr(), args)


if __name__ == "__main__":
    main()
