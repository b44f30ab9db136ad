"""Fast neural style transfer (Johnson et al.) on random 16x16 "photos": a small transformer
network is trained against a frozen feature extractor with a content and a style loss. The
trainer backwards the two losses one after the other so it can log the style term separately."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def gram(feat):
    b, c, h, w = feat.shape
    f = feat.flatten(2)
    return f @ f.transpose(1, 2) / (c * h * w)


class TransformerNet(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1), nn.InstanceNorm2d(ch), nn.ReLU())
        self.res = nn.Sequential(nn.Conv2d(ch, ch, 3, padding=1), nn.InstanceNorm2d(ch), nn.ReLU())
        self.up = nn.Conv2d(ch, 3, 3, padding=1)

    def forward(self, x):
        h = self.down(x)
        return torch.sigmoid(self.up(h + self.res(h)))


class LossNet(nn.Module):
    """Stand-in for a pretrained VGG: two frozen conv stages."""

    def __init__(self):
        super().__init__()
        self.stage1 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.stage2 = nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU())
        self.requires_grad_(False)

    def forward(self, x):
        f1 = self.stage1(x)
        return f1, self.stage2(f1)


class StyleTrainer:
    def __init__(self, style_image, content_weight=1.0, style_weight=50.0):
        self.transformer = TransformerNet()
        self.loss_net = LossNet().eval()
        self.optimizer = torch.optim.Adam(self.transformer.parameters(), lr=1e-3)
        self.style_grams = [gram(f) for f in self.loss_net(style_image)]
        self.content_weight, self.style_weight = content_weight, style_weight

    def content_loss(self, stylized, content):
        return F.mse_loss(self.loss_net(stylized)[1], self.loss_net(content)[1])

    def style_loss(self, stylized):
        feats = self.loss_net(stylized)
        return sum(F.mse_loss(gram(f), g.expand(f.size(0), -1, -1))
                   for f, g in zip(feats, self.style_grams))

    def train_step(self, content):
        self.optimizer.zero_grad()
        stylized = self.transformer(content)
        c_loss = self.content_weight * self.content_loss(stylized, content)
        s_loss = self.style_weight * self.style_loss(stylized)
        (c_loss + s_loss).backward()
        self.optimizer.step()
        return c_loss.item(), s_loss.item()

    def fit(self, photos, epochs=2, batch=4):
        for epoch in range(epochs):
            for i in range(0, len(photos), batch):
                c, s = self.train_step(photos[i:i + batch])
            print(f"epoch {epoch}: content {c:.5f} style {s:.5f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    style = torch.rand(1, 3, 16, 16)
    photos = torch.rand(12, 3, 16, 16)
    trainer = StyleTrainer(style)
    trainer.fit(photos)
