"""Fast (feed-forward) style transfer, Johnson et al. style: a transformation network is
trained against a frozen feature network with a content loss and Gram-matrix style losses."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from norm_layers import ConvINReLU, ResidualBlock

torch.manual_seed(0)
STYLE_WEIGHT, CONTENT_WEIGHT, TV_WEIGHT = 5.0, 1.0, 1e-3


class TransformerNet(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.down = nn.Sequential(ConvINReLU(3, ch, 5), ConvINReLU(ch, 2 * ch, 3, stride=2))
        self.res = ResidualBlock(2 * ch)
        self.up = ConvINReLU(2 * ch, ch, 3, upsample=True)
        self.out = nn.Conv2d(ch, 3, 5, padding=2)

    def forward(self, x):
        return torch.sigmoid(self.out(self.up(self.res(self.down(x)))))


class FeatureNet(nn.Module):
    """Stand-in for the pretrained VGG: frozen, returns activations at two depths."""

    def __init__(self):
        super().__init__()
        self.block1 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.block2 = nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU())
        self.requires_grad_(False)

    def forward(self, x):
        f1 = self.block1(x)
        return f1, self.block2(f1)


def gram(f):
    b, c, h, w = f.shape
    f = f.view(b, c, h * w)
    return f @ f.transpose(1, 2) / (c * h * w)


def main():
    net, features = TransformerNet(), FeatureNet().eval()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    style_image = torch.rand(1, 3, 16, 16)
    with torch.no_grad():
        style_grams = [gram(f) for f in features(style_image)]
    contents = torch.rand(12, 3, 16, 16)
    for epoch in range(2):
        for content in contents.split(4):
            stylised = net(content)
            out_feats, content_feats = features(stylised), features(content)
            content_loss = F.mse_loss(out_feats[1], content_feats[1])
            style_loss = sum(F.mse_loss(gram(f), g.expand(f.size(0), -1, -1)) for f, g in zip(out_feats, style_grams))
            tv = (stylised[..., 1:, :] - stylised[..., :-1, :]).abs().mean() + (stylised[..., 1:] - stylised[..., :-1]).abs().mean()
            loss = CONTENT_WEIGHT * content_loss + STYLE_WEIGHT * style_loss + TV_WEIGHT * tv
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} content {content_loss.item():.5f} style {style_loss.item():.6f}")


main()
