"""Unconditional handwriting generation: an LSTM reads pen offsets (dx, dy, pen_up) and a
mixture density head predicts the distribution of the next offset. Training data are
synthetic cursive loops (prolate cycloids) cut into strokes."""
import torch
import torch.nn as nn

from mdn import MDNHead, stroke_nll

SEQ_LEN, BATCH, COMPONENTS, HIDDEN = 40, 8, 4, 32


def cursive_batch(n, length, generator):
    t = torch.linspace(0, 6 * torch.pi, length + 1).expand(n, -1)
    loop = 0.6 + 0.6 * torch.rand(n, 1, generator=generator)
    slant = 0.2 * torch.randn(n, 1, generator=generator)
    x = 0.5 * t - loop * torch.sin(t) + slant * torch.cos(t)
    y = loop * torch.cos(t)
    offsets = torch.stack([x.diff(dim=1), y.diff(dim=1)], dim=-1)
    offsets = offsets + 0.02 * torch.randn(offsets.shape, generator=generator)
    pen_up = (torch.rand(n, length, generator=generator) < 0.08).float()
    return torch.cat([offsets, pen_up.unsqueeze(-1)], dim=-1)


class StrokeModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(3, HIDDEN, batch_first=True)
        self.head = MDNHead(HIDDEN, COMPONENTS)

    def forward(self, strokes):
        h, _ = self.lstm(strokes)
        return self.head(h)


def train(steps=5):
    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(3)
    model = StrokeModel()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    for step in range(steps):
        strokes = cursive_batch(BATCH, SEQ_LEN + 1, generator)
        inputs, targets = strokes[:, :-1], strokes[:, 1:]
        params = model(inputs)
        loss = stroke_nll(params, targets)
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 10.0)
        optimizer.step()
        print(f"step {step} nll {loss.item():.4f}")
    checksum = sum(p.detach().abs().sum().item() for p in model.parameters())
    print(f"param checksum {checksum:.4f}")


if __name__ == "__main__":
    train()
