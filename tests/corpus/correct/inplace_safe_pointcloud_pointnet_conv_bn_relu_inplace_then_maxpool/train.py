"""PointNet segmentation-style classifier: every ReLU(inplace=True) follows a BatchNorm,
whose backward keeps its input, not its output, so the in-place activations are safe."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def shared_mlp(dims):
    layers = []
    for cin, cout in zip(dims[:-1], dims[1:]):
        layers += [nn.Conv1d(cin, cout, 1, bias=False), nn.BatchNorm1d(cout), nn.ReLU(inplace=True)]
    return nn.Sequential(*layers)


class PointNet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.local = shared_mlp([3, 16, 32])
        self.fc1 = nn.Linear(32, 32)
        self.bn = nn.BatchNorm1d(32)
        self.fc2 = nn.Linear(32, n_classes)

    def forward(self, pts):
        x = self.local(pts.transpose(1, 2))
        x = torch.max(x, dim=2).values
        x = F.relu(self.bn(self.fc1(x)), inplace=True)
        return self.fc2(x)


def cloud_batch(gen, batch=8, n=32):
    labels = torch.randint(0, 3, (batch,), generator=gen)
    pts = torch.randn(batch, n, 3, generator=gen)
    scale = torch.tensor([[1.0, 1.0, 1.0], [2.0, 0.5, 0.5], [1.0, 1.0, 0.1]])[labels]
    return pts * scale.unsqueeze(1), labels


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(13)
    model = PointNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(2):
        for it in range(3):
            pts, labels = cloud_batch(gen)
            loss = F.cross_entropy(model(pts), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
            print(f"epoch {epoch} iter {it} loss {loss.item():.6f}")
    checksum = sum(p.detach().double().sum().item() for p in model.parameters())
    print(f"checksum {checksum:.6f}")


if __name__ == "__main__":
    main()
