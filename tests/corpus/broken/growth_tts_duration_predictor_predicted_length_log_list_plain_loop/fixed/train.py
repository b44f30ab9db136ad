# FastSpeech-style phoneme duration predictor: conv stack over phoneme
# embeddings, predicting log-durations (in frames) per phoneme.
# The length log is used afterwards to see whether the predicted utterance
# lengths drift away from the reference lengths.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_PHONEMES = 30
EMB = 16


class DurationPredictor(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(N_PHONEMES, EMB)
        self.conv1 = nn.Conv1d(EMB, 32, 3, padding=1)
        self.norm = nn.LayerNorm(32)
        self.conv2 = nn.Conv1d(32, 32, 3, padding=1)
        self.proj = nn.Linear(32, 1)

    def forward(self, phonemes):
        x = self.embed(phonemes).transpose(1, 2)
        x = F.relu(self.conv1(x)).transpose(1, 2)
        x = self.norm(x).transpose(1, 2)
        x = F.relu(self.conv2(x)).transpose(1, 2)
        return self.proj(x).squeeze(-1)


base_frames = torch.rand(N_PHONEMES) * 8 + 2


def batch(n=12, length=20):
    phonemes = torch.randint(0, N_PHONEMES, (n, length))
    frames = base_frames[phonemes] * (1 + 0.1 * torch.randn(n, length))
    return phonemes, frames.clamp(min=1.0)


predictor = DurationPredictor()
opt = torch.optim.AdamW(predictor.parameters(), lr=2e-3)
length_log = []
ref_log = []

for it in range(10):
    phonemes, frames = batch()
    log_dur = predictor(phonemes)
    loss = F.mse_loss(log_dur, torch.log(frames))
    opt.zero_grad()
    loss.backward()
    opt.step()
    length_log.append(log_dur.exp().sum(dim=1).mean().item())
    ref_log.append(frames.sum(dim=1).mean().item())
    print(f"iter {it} loss {loss.item():.4f}")

drift = sum(float(p) - r for p, r in zip(length_log, ref_log)) / len(ref_log)
print(f"mean predicted-minus-reference length {drift:.2f} frames")
