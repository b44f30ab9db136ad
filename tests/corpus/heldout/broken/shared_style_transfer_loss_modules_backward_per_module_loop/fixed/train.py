"""Feed-forward style transfer trained with tutorial-style loss modules: ContentLoss and
StyleLoss layers are inserted into a frozen loss network after chosen convolutions and
record their loss during the forward pass. To weight each layer's style term separately
(and keep peak memory low, as the user thought), every module's loss is backwarded on its own."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
SIZE = 20


def gram(feats):
    b, c, h, w = feats.shape
    flat = feats.reshape(b, c, h * w)
    return flat @ flat.transpose(1, 2) / (c * h * w)


class ContentLoss(nn.Module):
    def __init__(self, weight):
        super().__init__()
        self.weight, self.target, self.loss = weight, None, None

    def forward(self, x):
        if self.target is not None:
            self.loss = self.weight * F.mse_loss(x, self.target.expand_as(x))
        return x


class StyleLoss(nn.Module):
    def __init__(self, target_gram, weight):
        super().__init__()
        self.register_buffer("target", target_gram)
        self.weight, self.loss = weight, None

    def forward(self, x):
        self.loss = self.weight * F.mse_loss(gram(x), self.target.expand(x.shape[0], -1, -1))
        return x


def build_loss_net(style_img):
    convs = [nn.Conv2d(3, 8, 3, padding=1), nn.Conv2d(8, 12, 3, padding=1), nn.Conv2d(12, 16, 3, padding=1)]
    for conv in convs:
        conv.requires_grad_(False)
    layers, style_losses, x = [], [], style_img
    for i, conv in enumerate(convs):
        layers += [conv, nn.ReLU()]
        with torch.no_grad():
            x = F.relu(conv(x))
        style_losses.append(StyleLoss(gram(x), weight=[4e2, 2e2, 1e2][i]))
        layers.append(style_losses[-1])
    content_loss = ContentLoss(weight=1.0)
    layers.insert(4, content_loss)
    return nn.Sequential(*layers), content_loss, style_losses


stylizer = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1), nn.InstanceNorm2d(16, affine=True), nn.ReLU(),
    nn.Conv2d(16, 16, 3, padding=1), nn.InstanceNorm2d(16, affine=True), nn.ReLU(),
    nn.Conv2d(16, 3, 3, padding=1), nn.Sigmoid())
style_img = (torch.sin(torch.linspace(0, 10, SIZE))[:, None] * torch.ones(SIZE)).expand(1, 3, SIZE, SIZE) * 0.5 + 0.5
loss_net, content_module, style_modules = build_loss_net(style_img)
optimizer = torch.optim.Adam(stylizer.parameters(), lr=2e-3)

for step in range(5):
    content = torch.rand(3, 3, SIZE, SIZE)
    with torch.no_grad():
        content_module.target = loss_net[:4](content)
    stylized = stylizer(content)
    loss_net(stylized)
    optimizer.zero_grad()
    total = content_module.loss + sum(module.loss for module in style_modules)
    total.backward()
    optimizer.step()
    style_total = sum(m.loss.item() for m in style_modules)
    print(f"step {step} content {content_module.loss.item():.5f} style {style_total:.5f}")
