"""Train a tiny image transformation network to render content images in one fixed style.
Only the transformation network is optimised; the loss network is a fixed extractor."""
import torch
import torch.nn as nn

from losses import PerceptualLoss


class TransformNet(nn.Module):
    def __init__(self, channels=16):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, channels, 3, padding=1), nn.InstanceNorm2d(channels, affine=True), nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1), nn.InstanceNorm2d(channels, affine=True), nn.ReLU(),
            nn.Conv2d(channels, 3, 3, padding=1),
        )

    def forward(self, x):
        return torch.sigmoid(self.body(x) + x)


def main():
    torch.manual_seed(0)
    extractor = nn.Sequential(  # stand-in for pretrained VGG relu1_2 / relu2_2
        nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
        nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AvgPool2d(2),
    )
    xs = torch.linspace(0, 6.28, 24)
    style_image = (0.5 + 0.5 * torch.sin(3 * xs[None, :] + xs[:, None])).expand(1, 3, 24, 24)
    criterion = PerceptualLoss(extractor, style_image)

    net = TransformNet()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-2)
    for step in range(5):
        content = torch.rand(4, 3, 24, 24)
        loss, content_loss, style_loss = criterion(net(content), content)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.5f} content {content_loss.item():.5f} "
              f"style {style_loss.item():.3e}")


if __name__ == "__main__":
    main()
