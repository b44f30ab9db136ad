"""Arbitrary style transfer with a meta network: a trainable style encoder turns each style
image into conditional-instance-norm parameters (per-channel scale and shift) for a small
feed-forward stylizer. The loss network is a frozen random-feature CNN. Style codes are
cached per style name so that the encoder runs once per style."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
SIZE, CH = 24, 16


def make_styles():
    grid = torch.linspace(0, 6.283, SIZE)
    stripes = torch.sin(3 * grid).expand(3, SIZE, SIZE)
    checks = torch.sign(torch.sin(2 * grid)[:, None] * torch.sin(2 * grid)[None, :]).expand(3, SIZE, SIZE)
    waves = torch.sin(grid[:, None] + 2 * grid[None, :]).expand(3, SIZE, SIZE)
    return {"stripes": stripes.unsqueeze(0) * 0.5 + 0.5, "checks": checks.unsqueeze(0) * 0.5 + 0.5,
            "waves": waves.unsqueeze(0) * 0.5 + 0.5}


def gram(feats):
    b, c, h, w = feats.shape
    flat = feats.reshape(b, c, h * w)
    return flat @ flat.transpose(1, 2) / (c * h * w)


class StyleEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, CH, 3, stride=2, padding=1), nn.ReLU(),
                                  nn.Conv2d(CH, CH, 3, stride=2, padding=1), nn.ReLU())
        self.to_params = nn.Linear(CH, 2 * CH)

    def forward(self, style):
        return self.to_params(self.conv(style).mean(dim=(2, 3)))


class Stylizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Conv2d(3, CH, 3, padding=1)
        self.norm = nn.InstanceNorm2d(CH, affine=False)
        self.dec = nn.Conv2d(CH, 3, 3, padding=1)

    def forward(self, x, code):
        scale, shift = code.chunk(2, dim=1)
        h = self.norm(F.relu(self.enc(x)))
        h = h * (1 + scale[..., None, None]) + shift[..., None, None]
        return torch.sigmoid(self.dec(h))


class MetaStyleTrainer:
    def __init__(self, styles):
        self.styles = styles
        self.encoder, self.stylizer = StyleEncoder(), Stylizer()
        self.loss_net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                                      nn.Conv2d(8, 8, 3, padding=1), nn.ReLU()).requires_grad_(False)
        params = list(self.encoder.parameters()) + list(self.stylizer.parameters())
        self.optimizer = torch.optim.Adam(params, lr=1e-3)
        with torch.no_grad():
            self.style_grams = {name: gram(self.loss_net(img)) for name, img in styles.items()}

    def code_for(self, name):
        return self.encoder(self.styles[name])

    def train_step(self, content, name):
        code = self.code_for(name).expand(content.shape[0], -1)
        out = self.stylizer(content, code)
        feats = self.loss_net(out)
        with torch.no_grad():
            content_feats = self.loss_net(content)
        style_loss = F.mse_loss(gram(feats), self.style_grams[name].expand(content.shape[0], -1, -1))
        content_loss = F.mse_loss(feats, content_feats)
        loss = 1e3 * style_loss + content_loss
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return style_loss.item(), content_loss.item()


trainer = MetaStyleTrainer(make_styles())
names = list(trainer.styles)
for step in range(6):
    content = torch.rand(4, 3, SIZE, SIZE)
    name = names[step % len(names)]
    s, c = trainer.train_step(content, name)
    print(f"step {step} style={name:8s} style_loss {s:.5f} content_loss {c:.5f}")
