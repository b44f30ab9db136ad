"""Tiny CLAP-style audio-caption contrastive training with three things that often go
wrong, done right: the learnable log inverse temperature is an nn.Parameter of the model
(so model.parameters() hands it to AdamW), an EMA copy is kept with AveragedModel and
updated from the trained model after each step, and a linear probe tracks sound-type
accuracy on detached audio embeddings (it trains, the encoders do not see its loss)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

torch.manual_seed(0)
N_MELS, FRAMES, VOCAB, CAP_LEN, EMB, BATCH, N_SOUNDS = 12, 16, 30, 5, 16, 16, 6


class TinyCLAP(nn.Module):
    def __init__(self):
        super().__init__()
        self.audio_conv = nn.Conv1d(N_MELS, 32, kernel_size=3, padding=1)
        self.audio_proj = nn.Linear(32, EMB)
        self.text_embed = nn.EmbeddingBag(VOCAB, 32, mode="mean")
        self.text_proj = nn.Linear(32, EMB)
        self.log_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))

    def encode_audio(self, mel):
        return F.normalize(self.audio_proj(F.relu(self.audio_conv(mel)).mean(dim=-1)), dim=-1)

    def encode_text(self, tokens):
        return F.normalize(self.text_proj(torch.tanh(self.text_embed(tokens))), dim=-1)

    def forward(self, mel, tokens):
        a, t = self.encode_audio(mel), self.encode_text(tokens)
        return self.log_scale.exp().clamp(max=100) * a @ t.t(), a


def paired_batch(sound_mels, sound_words):
    kind = torch.randint(0, N_SOUNDS, (BATCH,))
    mel = sound_mels[kind] + 0.3 * torch.randn(BATCH, N_MELS, FRAMES)
    pick = torch.randint(0, sound_words.shape[1], (BATCH, CAP_LEN))
    return mel, torch.gather(sound_words[kind], 1, pick), kind


model = TinyCLAP()
probe = nn.Linear(EMB, N_SOUNDS)
optimizer = torch.optim.AdamW([*model.parameters(), *probe.parameters()], lr=3e-3)
ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
sound_mels = torch.rand(N_SOUNDS, N_MELS, 1).expand(-1, -1, FRAMES)
sound_words = torch.randperm(VOCAB)[:N_SOUNDS * 4].view(N_SOUNDS, 4)
targets = torch.arange(BATCH)
for step in range(6):
    mel, caption, kind = paired_batch(sound_mels, sound_words)
    logits, audio_emb = model(mel, caption)
    clip_loss = 0.5 * (F.cross_entropy(logits, targets) + F.cross_entropy(logits.t(), targets))
    probe_loss = F.cross_entropy(probe(audio_emb.detach()), kind)
    optimizer.zero_grad()
    (clip_loss + probe_loss).backward()
    optimizer.step()
    ema.update_parameters(model)
    print(f"step {step} clip loss {clip_loss.item():.4f} probe loss {probe_loss.item():.4f} "
          f"logit scale {model.log_scale.exp().item():.3f}")

with torch.no_grad():
    mel, caption, kind = paired_batch(sound_mels, sound_words)
    ema_logits, _ = ema(mel, caption)
    retrieval = (ema_logits.argmax(dim=1) == targets).float().mean().item()
checksum = sum(p.sum().item() for p in [*model.parameters(), *probe.parameters()])
print(f"ema retrieval@1 {retrieval:.3f} param checksum {checksum:.6f}")
