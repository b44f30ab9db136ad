"""Fast style transfer with a colour-drift check: a forward hook on the stylizer's last
layer records every output of the epoch, and at the end of the epoch the mean colour of the
stylized images is compared with the mean colour of the content images."""
import torch
import torch.nn as nn
import torch.nn.functional as F

SIZE, BATCH, STEPS_PER_EPOCH, EPOCHS = 16, 4, 8, 1


class OutputRecorder:
    """Forward hook that keeps the module's outputs until the epoch ends."""

    def __init__(self, module):
        self.outputs = []
        self.handle = module.register_forward_hook(self)

    def __call__(self, module, inputs, output):
        self.outputs.append(output.detach())

    def channel_means(self):
        return torch.cat(self.outputs).mean(dim=(0, 2, 3))

    def reset(self):
        self.outputs = []


def gram(feats):
    b, c, h, w = feats.shape
    flat = feats.reshape(b, c, h * w)
    return flat @ flat.transpose(1, 2) / (c * h * w)


def build_stylizer(ch=12):
    return nn.Sequential(
        nn.Conv2d(3, ch, 3, padding=1), nn.InstanceNorm2d(ch, affine=True), nn.ReLU(),
        nn.Conv2d(ch, ch, 3, padding=1), nn.InstanceNorm2d(ch, affine=True), nn.ReLU(),
        nn.Conv2d(ch, 3, 3, padding=1), nn.Sigmoid())


def train():
    torch.manual_seed(0)
    stylizer = build_stylizer()
    loss_net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                             nn.Conv2d(8, 8, 3, padding=1), nn.ReLU()).requires_grad_(False)
    grid = torch.linspace(0, 6, SIZE)
    style = torch.stack([torch.sin(2 * grid)[:, None].expand(SIZE, SIZE),
                         torch.cos(grid)[None, :].expand(SIZE, SIZE),
                         torch.sin(grid[:, None] + grid[None, :])]).unsqueeze(0) * 0.5 + 0.5
    with torch.no_grad():
        style_gram = gram(loss_net(style))
    recorder = OutputRecorder(stylizer[-1])
    optimizer = torch.optim.Adam(stylizer.parameters(), lr=2e-3)
    for epoch in range(EPOCHS):
        content_means = []
        for step in range(STEPS_PER_EPOCH):
            content = torch.rand(BATCH, 3, SIZE, SIZE) * torch.rand(1, 3, 1, 1)
            content_means.append(content.mean(dim=(0, 2, 3)))
            out = stylizer(content)
            feats = loss_net(out)
            with torch.no_grad():
                target = loss_net(content)
            loss = F.mse_loss(feats, target) + 3e2 * F.mse_loss(gram(feats), style_gram.expand(BATCH, -1, -1))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"epoch {epoch} step {step} loss {loss.item():.5f}")
        drift = (recorder.channel_means() - torch.stack(content_means).mean(0)).abs().max()
        print(f"epoch {epoch} colour drift {drift.item():.4f}")
        recorder.reset()
    return stylizer


if __name__ == "__main__":
    train()
