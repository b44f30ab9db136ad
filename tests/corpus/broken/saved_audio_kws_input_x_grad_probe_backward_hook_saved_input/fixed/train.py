"""Keyword spotting on 40-band log-mel frames with a 1-D CNN. An attribution probe on the
second conv computes gradient x input saliency per input channel during every backward pass,
to watch which first-layer feature maps the classifier starts to rely on."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_MELS, N_FRAMES, KEYWORDS = 40, 32, ["yes", "no", "up", "down", "stop"]


class InputXGradProbe:
    """Forward hook keeps the layer input; the full backward hook receives the gradient
    w.r.t. the layer input and multiplies it with that input."""

    def __init__(self, layer):
        self.layer_input = None
        self.channel_saliency = []
        layer.register_forward_hook(self.on_forward)
        layer.register_full_backward_hook(self.on_backward)

    def on_forward(self, module, inputs, output):
        self.layer_input = inputs[0].detach()

    def on_backward(self, module, grad_input, grad_output):
        saliency = (grad_input[0] * self.layer_input).abs().mean(dim=(0, 2))
        self.channel_saliency.append(saliency.detach())


def kws_model():
    return nn.Sequential(
        nn.Conv1d(N_MELS, 32, 5, padding=2),
        nn.BatchNorm1d(32),
        nn.ReLU(),
        nn.Conv1d(32, 32, 5, padding=2),
        nn.ReLU(),
        nn.AdaptiveMaxPool1d(1),
        nn.Flatten(),
        nn.Linear(32, len(KEYWORDS)),
    )


def fake_utterances(n, gen):
    labels = torch.randint(0, len(KEYWORDS), (n,), generator=gen)
    mels = torch.randn(n, N_MELS, N_FRAMES, generator=gen) * 0.5
    for row, label in enumerate(labels.tolist()):
        band = 6 * label + 4
        mels[row, band:band + 4, 8:24] += 2.0
    return mels, labels


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(7)
    model = kws_model()
    probe = InputXGradProbe(model[3])
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for step in range(5):
        mels, labels = fake_utterances(24, gen)
        loss = F.cross_entropy(model(mels), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        top = probe.channel_saliency[-1].topk(3).indices.tolist()
        print(f"step {step} loss {loss.item():.4f} most salient channels {top}")


if __name__ == "__main__":
    main()
