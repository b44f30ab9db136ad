"""Tiny FastSpeech-style acoustic model: phoneme encoder, a duration predictor, a length
regulator that repeats each phoneme's encoding for its number of frames, and a mel
decoder. Training feeds ground-truth durations to the length regulator; the duration
predictor learns from a log-duration loss (losses.py) for use at inference."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence

from losses import duration_loss, mel_loss

torch.manual_seed(0)
N_PHONEMES, N_MELS, DIM, SEQ, BATCH, DUR_WEIGHT = 20, 10, 32, 6, 8, 1.0


class TinyFastSpeech(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(N_PHONEMES, DIM)
        self.encoder = nn.Conv1d(DIM, DIM, kernel_size=3, padding=1)
        self.duration_predictor = nn.Sequential(nn.Linear(DIM, 16), nn.ReLU(), nn.Linear(16, 1))
        self.decoder = nn.Sequential(nn.Linear(DIM, DIM), nn.ReLU(), nn.Linear(DIM, N_MELS))

    def forward(self, phonemes, durations):
        h = F.relu(self.encoder(self.embed(phonemes).transpose(1, 2))).transpose(1, 2)
        log_dur_pred = self.duration_predictor(h).squeeze(-1)
        frames = pad_sequence([seq.repeat_interleave(d, dim=0) for seq, d in zip(h, durations)],
                              batch_first=True)
        return self.decoder(frames), log_dur_pred


def utterance_batch(phone_mels, phone_durs):
    """Every phoneme has a typical duration and a mel template; frames are the template
    repeated for the phoneme's duration, plus noise."""
    phonemes = torch.randint(0, N_PHONEMES, (BATCH, SEQ))
    durations = (phone_durs[phonemes] + torch.randint(0, 2, (BATCH, SEQ))).clamp(min=1)
    mels = [phone_mels[p].repeat_interleave(d, dim=0) for p, d in zip(phonemes, durations)]
    mel = pad_sequence(mels, batch_first=True)
    lengths = durations.sum(dim=1)
    frame_mask = (torch.arange(mel.shape[1])[None] < lengths[:, None]).float()
    return phonemes, durations, mel + 0.05 * torch.randn_like(mel), frame_mask


phone_mels = torch.randn(N_PHONEMES, N_MELS)
phone_durs = torch.randint(1, 5, (N_PHONEMES,))
model = TinyFastSpeech()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(6):
    phonemes, durations, mel, frame_mask = utterance_batch(phone_mels, phone_durs)
    mel_pred, log_dur_pred = model(phonemes, durations)
    l_mel = mel_loss(mel_pred, mel, frame_mask)
    l_dur = duration_loss(log_dur_pred, durations)
    loss = l_mel + DUR_WEIGHT * l_dur
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} mel {l_mel.item():.4f} duration {float(l_dur):.4f}")
