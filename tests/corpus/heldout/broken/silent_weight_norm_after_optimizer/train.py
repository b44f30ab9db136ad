"""Train the tiny vocoder on synthetic harmonic signals with an L1 + STFT magnitude loss."""
import torch
import torch.nn.functional as F

from model import TinyVocoder

torch.manual_seed(0)
FRAMES, HOP = 16, 4


def make_batch(n):
    t = torch.arange(FRAMES * HOP) / 1000
    f0 = torch.randint(40, 120, (n, 1)).float()
    wave = 0.6 * torch.sin(2 * torch.pi * f0 * t) + 0.2 * torch.sin(4 * torch.pi * f0 * t)
    frames = wave.view(n, FRAMES, HOP)
    feats = torch.cat([frames, frames.abs()], dim=2).transpose(1, 2)  # 8 "mel" channels
    return feats, wave


def stft_mag(x):
    window = torch.hann_window(16)
    return torch.stft(x, 16, hop_length=4, window=window, return_complex=True).abs()


class Trainer:
    def __init__(self, model, lr=2e-3):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr, betas=(0.8, 0.99))

    def fit(self, steps):
        self.model.on_train_start()
        for step in range(steps):
            feats, wave = make_batch(8)
            pred = self.model(feats)
            loss = F.l1_loss(pred, wave) + F.l1_loss(stft_mag(pred), stft_mag(wave))
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            print(f"step {step} loss {loss.item():.4f}")


Trainer(TinyVocoder()).fit(steps=6)
