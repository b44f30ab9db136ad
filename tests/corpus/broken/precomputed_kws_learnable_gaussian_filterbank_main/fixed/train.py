"""Keyword spotting from raw audio frames with a learnable frontend: a bank of Gaussian band
filters over the FFT bins, whose centre frequencies and bandwidths are trained together with
the classifier (a frequency-domain take on SincNet / LEAF)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

SAMPLE_RATE, FRAME, N_FRAMES, N_FILTERS, N_KEYWORDS = 4000, 64, 12, 10, 3


class GaussianFilterbank(nn.Module):
    def __init__(self, n_filters, n_bins):
        super().__init__()
        self.centers = nn.Parameter(torch.linspace(0.05, 0.95, n_filters))
        self.log_widths = nn.Parameter(torch.full((n_filters,), math.log(0.06)))
        self.register_buffer("bins", torch.linspace(0.0, 1.0, n_bins))

    def matrix(self):
        """(n_filters, n_bins) filter responses over normalised frequency."""
        width = self.log_widths.exp()[:, None]
        return torch.exp(-0.5 * ((self.bins[None, :] - self.centers[:, None]) / width) ** 2)


def synth_keywords(batch):
    """Each keyword is a pair of tones; the clips are framed for the FFT."""
    tones = torch.tensor([[300.0, 900.0], [600.0, 1500.0], [1100.0, 1800.0]])
    labels = torch.randint(0, N_KEYWORDS, (batch,))
    t = torch.arange(FRAME * N_FRAMES) / SAMPLE_RATE
    f = tones[labels]
    wave = (torch.sin(2 * math.pi * f[:, :1] * t) + 0.7 * torch.sin(2 * math.pi * f[:, 1:] * t)
            + 0.3 * torch.randn(batch, t.numel()))
    return wave.view(batch, N_FRAMES, FRAME), labels


def main(steps=6):
    torch.manual_seed(0)
    n_bins = FRAME // 2 + 1
    frontend = GaussianFilterbank(N_FILTERS, n_bins)
    classifier = nn.Sequential(nn.Conv1d(N_FILTERS, 16, 3, padding=1), nn.ReLU(),
                               nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(16, N_KEYWORDS))
    optimizer = torch.optim.Adam([*frontend.parameters(), *classifier.parameters()], lr=5e-3)
    window = torch.hann_window(FRAME)

    losses = []
    for step in range(steps):
        fbank = frontend.matrix()  # rebuilt every step: its parameters change at each update
        frames, labels = synth_keywords(16)
        power = torch.fft.rfft(frames * window).abs() ** 2
        feats = torch.log1p(power @ fbank.t())
        logits = classifier(feats.transpose(1, 2))
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        print(f"step {step} loss {loss.item():.4f} centres[0] {frontend.centers[0].item():.4f}")
    return losses


if __name__ == "__main__":
    main()
