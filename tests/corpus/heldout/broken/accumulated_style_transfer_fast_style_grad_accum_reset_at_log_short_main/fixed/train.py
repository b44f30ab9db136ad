"""Feed-forward (Johnson-style) style transfer network trained with gradient accumulation:
two content batches per optimizer step. Perceptual losses come from a frozen random-feature
loss network; the accumulated loss is printed every LOG_EVERY batches."""
import torch
import torch.nn as nn
import torch.nn.functional as F

ACCUM, LOG_EVERY, BATCHES, SIZE = 2, 4, 6, 20
STYLE_WEIGHT, CONTENT_WEIGHT, TV_WEIGHT = 5e2, 1.0, 1e-3


def gram(feats):
    b, c, h, w = feats.shape
    flat = feats.reshape(b, c, h * w)
    return torch.bmm(flat, flat.transpose(1, 2)) / (c * h * w)


class ResidualBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv1 = nn.Conv2d(ch, ch, 3, padding=1)
        self.in1 = nn.InstanceNorm2d(ch, affine=True)
        self.conv2 = nn.Conv2d(ch, ch, 3, padding=1)
        self.in2 = nn.InstanceNorm2d(ch, affine=True)

    def forward(self, x):
        return x + self.in2(self.conv2(F.relu(self.in1(self.conv1(x)))))


class TransformerNet(nn.Module):
    def __init__(self, ch=12):
        super().__init__()
        self.head = nn.Sequential(nn.Conv2d(3, ch, 5, padding=2), nn.InstanceNorm2d(ch, affine=True), nn.ReLU())
        self.res = nn.Sequential(ResidualBlock(ch), ResidualBlock(ch))
        self.tail = nn.Conv2d(ch, 3, 5, padding=2)

    def forward(self, x):
        return torch.sigmoid(self.tail(self.res(self.head(x))))


def total_variation(img):
    return (img[..., 1:, :] - img[..., :-1, :]).abs().mean() + (img[..., :, 1:] - img[..., :, :-1]).abs().mean()


def main():
    torch.manual_seed(0)
    net = TransformerNet()
    vgg_like = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                             nn.Conv2d(8, 16, 3, padding=1), nn.ReLU()).requires_grad_(False)
    style_img = torch.cos(torch.linspace(0, 9, SIZE))[None, :].expand(SIZE, SIZE).expand(1, 3, SIZE, SIZE) * 0.5 + 0.5
    with torch.no_grad():
        style_gram = gram(vgg_like(style_img))
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)

    accum_loss = 0.0
    for batch_idx in range(BATCHES):
        content = torch.rand(2, 3, SIZE, SIZE)
        stylized = net(content)
        feats = vgg_like(stylized)
        with torch.no_grad():
            target = vgg_like(content)
        loss = (CONTENT_WEIGHT * F.mse_loss(feats, target)
                + STYLE_WEIGHT * F.mse_loss(gram(feats), style_gram.expand(2, -1, -1))
                + TV_WEIGHT * total_variation(stylized))
        accum_loss = accum_loss + loss / ACCUM
        if (batch_idx + 1) % ACCUM == 0:
            optimizer.zero_grad()
            accum_loss.backward()
            optimizer.step()
            window_loss = accum_loss.item()
            accum_loss = 0.0
        if (batch_idx + 1) % LOG_EVERY == 0:
            print(f"batch {batch_idx + 1} accumulated loss {window_loss:.5f}")
    print(f"checksum {sum(p.sum().item() for p in net.parameters()):.4f}")
    return net


if __name__ == "__main__":
    main()
