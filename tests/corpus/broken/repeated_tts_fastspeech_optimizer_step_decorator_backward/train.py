"""A tiny FastSpeech: phoneme encoder, duration predictor, length regulator driven by the
ground-truth durations, and a conv decoder to 8-bin mel frames. Synthetic corpus: every
phoneme has a fixed spectral template and a typical duration."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from train_utils import optimizer_step

N_PHONEMES, N_MELS, HIDDEN = 12, 8, 32


def synthetic_utterance(gen, length=7):
    phonemes = torch.randint(0, N_PHONEMES, (length,), generator=gen)
    templates = torch.linspace(-1, 1, N_PHONEMES)[:, None] * torch.linspace(0.5, 2, N_MELS)
    durations = 1 + (phonemes % 3) + torch.randint(0, 2, (length,), generator=gen)
    mel = templates[phonemes].repeat_interleave(durations, dim=0)
    return phonemes, durations, mel + 0.05 * torch.randn(mel.shape, generator=gen)


class TinyFastSpeech(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(N_PHONEMES, HIDDEN)
        self.encoder = nn.Sequential(nn.Conv1d(HIDDEN, HIDDEN, 3, padding=1), nn.ReLU(),
                                     nn.Conv1d(HIDDEN, HIDDEN, 3, padding=1), nn.ReLU())
        self.duration = nn.Sequential(nn.Linear(HIDDEN, 16), nn.ReLU(), nn.Linear(16, 1))
        self.decoder = nn.Sequential(nn.Conv1d(HIDDEN, HIDDEN, 3, padding=1), nn.ReLU(),
                                     nn.Conv1d(HIDDEN, N_MELS, 1))

    def forward(self, phonemes, durations):
        h = self.encoder(self.embed(phonemes).T[None])[0].T          # (L, HIDDEN)
        log_dur = self.duration(h).squeeze(-1)
        frames = h.repeat_interleave(durations, dim=0)                # length regulator
        mel = self.decoder(frames.T[None])[0].T
        return mel, log_dur


def main(steps=5):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(11)
    model = TinyFastSpeech()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)

    @optimizer_step(optimizer, max_grad_norm=1.0)
    def train_step(phonemes, durations, mel):
        mel_pred, log_dur = model(phonemes, durations)
        mel_loss = F.l1_loss(mel_pred, mel)
        dur_loss = F.mse_loss(log_dur, torch.log1p(durations.float()))
        loss = mel_loss + dur_loss
        loss.backward()
        return {"loss": loss, "mel": mel_loss, "dur": dur_loss}

    for step in range(steps):
        logs = train_step(*synthetic_utterance(gen))
        print(f"step {step} " + " ".join(f"{k} {v:.4f}" for k, v in logs.items()))
    return model


if __name__ == "__main__":
    main()
