"""Train a tiny mel-to-waveform vocoder on synthetic harmonic tones."""
import torch
import torch.nn.functional as F

from model import TinyVocoder

SR_FRAMES, HOP, N_MELS = 12, 4, 16


def tone_batch(gen, batch=6):
    n = SR_FRAMES * HOP
    t = torch.arange(n).float()
    f0 = 0.05 + 0.1 * torch.rand(batch, 1, generator=gen)
    wave = 0.5 * torch.sin(2 * torch.pi * f0 * t) + 0.2 * torch.sin(4 * torch.pi * f0 * t)
    frames = wave.unfold(1, HOP, HOP)                        # (B, frames, HOP)
    bands = torch.linspace(0.5, 2.0, N_MELS)
    mel = torch.log1p((frames.abs().mean(-1, keepdim=True) * bands).transpose(1, 2))
    return mel, wave.unsqueeze(1)


class VocoderTrainer:
    def __init__(self):
        self.model = TinyVocoder(N_MELS, upsample=HOP)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=2e-3)
        self.gen = torch.Generator().manual_seed(4)
        self.history = []

    def spectral_l1(self, pred, target):
        window = torch.hann_window(16)
        p = torch.stft(pred.squeeze(1), 16, hop_length=4, window=window, return_complex=True).abs()
        t = torch.stft(target.squeeze(1), 16, hop_length=4, window=window, return_complex=True).abs()
        return F.l1_loss(p, t)

    def train_step(self):
        mel, wave = tone_batch(self.gen)
        pred = self.model(mel)[..., : wave.shape[-1]]
        loss = F.l1_loss(pred, wave) + self.spectral_l1(pred, wave)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.history.append(loss.item())

    def run(self, steps):
        for i in range(steps):
            self.train_step()
            print(f"step {i}: loss={self.history[-1]:.4f}")


if __name__ == "__main__":
    torch.manual_seed(4)
    VocoderTrainer().run(5)
