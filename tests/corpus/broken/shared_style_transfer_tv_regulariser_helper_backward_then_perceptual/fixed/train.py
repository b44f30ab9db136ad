"""Feed-forward (Johnson-style) style transfer on random 12x12 "photos": a small transformer
network is trained against a frozen random conv loss network, plus a total-variation prior."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from regularisers import apply_tv_regulariser

CONTENT_W, STYLE_W, TV_W = 1.0, 5.0, 0.1


class TransformerNet(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.encode = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1), nn.InstanceNorm2d(ch, affine=True),
                                    nn.ReLU())
        self.res = nn.Sequential(nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(ch, ch, 3, padding=1))
        self.decode = nn.Conv2d(ch, 3, 3, padding=1)

    def forward(self, x):
        h = self.encode(x)
        h = h + self.res(h)
        return torch.sigmoid(self.decode(h))


def loss_network():
    net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                        nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU())
    for p in net.parameters():
        p.requires_grad_(False)
    return net.eval()


def gram(feat):
    b, c, h, w = feat.shape
    f = feat.flatten(2)
    return f @ f.transpose(1, 2) / (c * h * w)


def train(steps=4):
    torch.manual_seed(11)
    transformer = TransformerNet()
    vgg = loss_network()
    optimizer = torch.optim.Adam(transformer.parameters(), lr=1e-3)
    style_image = torch.rand(1, 3, 12, 12)
    with torch.no_grad():
        style_gram = gram(vgg(style_image))

    for step in range(steps):
        content = torch.rand(2, 3, 12, 12)
        with torch.no_grad():
            content_feat = vgg(content)
        optimizer.zero_grad()
        stylized = transformer(content)
        tv_term = apply_tv_regulariser(stylized, TV_W)
        feat = vgg(stylized)
        content_loss = F.mse_loss(feat, content_feat)
        style_loss = F.mse_loss(gram(feat), style_gram.expand(feat.size(0), -1, -1))
        perceptual = CONTENT_W * content_loss + STYLE_W * style_loss
        (perceptual + tv_term).backward()
        optimizer.step()
        print(f"step {step} content {content_loss.item():.5f} style {style_loss.item():.6f} tv {tv_term.item() / TV_W:.5f}")


if __name__ == "__main__":
    train()
