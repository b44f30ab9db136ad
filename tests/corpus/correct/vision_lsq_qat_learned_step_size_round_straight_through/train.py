"""Quantization-aware training of a small classifier for 8x8 sensor images with learned step
size quantization (LSQ): weights are fake-quantized to signed 4 bit and activations to
unsigned 4 bit. Rounding uses the straight-through trick x + (round(x) - x).detach(), and
the step-size gradient is rescaled with the same detach trick."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(31)
N_CLASSES, STEPS = 4, 7


def round_ste(x):
    return x + (x.round() - x).detach()


def grad_scale(x, scale):
    return x * scale + (x - x * scale).detach()


class LSQQuantizer(nn.Module):
    def __init__(self, bits, signed, init_step):
        super().__init__()
        self.qn = 2 ** (bits - 1) if signed else 0
        self.qp = 2 ** (bits - 1) - 1 if signed else 2 ** bits - 1
        self.step = nn.Parameter(torch.tensor(float(init_step)))

    def forward(self, x):
        s = grad_scale(self.step, 1.0 / math.sqrt(x.numel() * self.qp))
        return round_ste(torch.clamp(x / s, -self.qn, self.qp)) * s


class QuantLinear(nn.Linear):
    def __init__(self, d_in, d_out, act_signed):
        super().__init__(d_in, d_out)
        self.w_quant = LSQQuantizer(4, signed=True, init_step=2 * self.weight.abs().mean().item() / math.sqrt(7))
        self.a_quant = LSQQuantizer(4, signed=act_signed, init_step=0.25)

    def forward(self, x):
        return F.linear(self.a_quant(x), self.w_quant(self.weight), self.bias)


class QuantMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([QuantLinear(64, 32, act_signed=True),
                                     QuantLinear(32, 32, act_signed=False),
                                     QuantLinear(32, N_CLASSES, act_signed=False)])

    def forward(self, x):
        h = x.flatten(1)
        for i, layer in enumerate(self.layers):
            h = layer(h)
            if i < len(self.layers) - 1:
                h = F.relu(h)
        return h


def sensor_images(n):
    labels = torch.randint(0, N_CLASSES, (n,))
    img = 0.4 * torch.randn(n, 8, 8)
    for c in range(N_CLASSES):
        img[labels == c, 2 * c:2 * c + 2, :] += 1.5
    return img, labels


if __name__ == "__main__":
    model = QuantMLP()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    x, y = sensor_images(128)
    for step in range(STEPS):
        batch = slice((step % 2) * 64, (step % 2) * 64 + 64)
        logits = model(x[batch])
        loss = F.cross_entropy(logits, y[batch])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (logits.argmax(1) == y[batch]).float().mean().item()
        steps = [round(layer.w_quant.step.item(), 5) for layer in model.layers]
        print(f"step {step} loss {loss.item():.4f} acc {acc:.3f} weight steps {steps}")
    print(f"checksum {sum(p.sum().item() for p in model.parameters()):.4f}")
