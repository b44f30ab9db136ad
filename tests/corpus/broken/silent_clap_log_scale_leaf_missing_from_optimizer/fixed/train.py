"""Contrastive audio-caption pretraining (a tiny CLAP): an audio encoder over mel frames
and a bag-of-words caption encoder are trained so that matching clip/caption pairs score
highest, with a learnable log inverse temperature initialised as in CLIP."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_MELS, FRAMES, VOCAB, CAP_LEN, EMB, BATCH, N_SOUNDS = 12, 16, 30, 5, 16, 16, 6


class AudioEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(N_MELS, 32, kernel_size=3, padding=1)
        self.proj = nn.Linear(32, EMB)

    def forward(self, mel):
        return self.proj(F.relu(self.conv(mel)).mean(dim=-1))


class CaptionEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.EmbeddingBag(VOCAB, 32, mode="mean")
        self.proj = nn.Linear(32, EMB)

    def forward(self, tokens):
        return self.proj(torch.tanh(self.embed(tokens)))


def paired_batch(sound_mels, sound_words):
    """Each clip is one of N_SOUNDS sound types plus noise; its caption uses words of the
    same sound type."""
    kind = torch.randint(0, N_SOUNDS, (BATCH,))
    mel = sound_mels[kind] + 0.3 * torch.randn(BATCH, N_MELS, FRAMES)
    pick = torch.randint(0, sound_words.shape[1], (BATCH, CAP_LEN))
    return mel, torch.gather(sound_words[kind], 1, pick)


audio_enc, text_enc = AudioEncoder(), CaptionEncoder()
log_scale = torch.tensor(math.log(1 / 0.07), requires_grad=True)
optimizer = torch.optim.AdamW([
    {"params": [*audio_enc.parameters(), *text_enc.parameters()]},
    {"params": [log_scale], "weight_decay": 0.0},
], lr=3e-3)
sound_mels = torch.rand(N_SOUNDS, N_MELS, 1).expand(-1, -1, FRAMES)
sound_words = torch.randperm(VOCAB)[:N_SOUNDS * 4].view(N_SOUNDS, 4)
targets = torch.arange(BATCH)
for step in range(6):
    mel, caption = paired_batch(sound_mels, sound_words)
    a = F.normalize(audio_enc(mel), dim=-1)
    t = F.normalize(text_enc(caption), dim=-1)
    logits = log_scale.exp().clamp(max=100) * a @ t.t()
    loss = 0.5 * (F.cross_entropy(logits, targets) + F.cross_entropy(logits.t(), targets))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f} logit scale {log_scale.exp().item():.2f}")
