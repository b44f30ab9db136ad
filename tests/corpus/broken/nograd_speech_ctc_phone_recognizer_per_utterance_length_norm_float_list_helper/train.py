"""Tiny CTC phone recogniser on synthetic filterbank frames (TIMIT-like toy setup)."""
import torch
import torch.nn as nn

from losses import length_normalised_ctc

N_PHONES = 8        # + blank at index 0
N_MELS = 20
FRAMES_PER_PHONE = 4


class PhoneRecognizer(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.frontend = nn.Sequential(nn.Conv1d(N_MELS, hidden, kernel_size=3, padding=1), nn.ReLU())
        self.rnn = nn.GRU(hidden, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, N_PHONES + 1)

    def forward(self, feats):                      # feats: (B, T, N_MELS)
        h = self.frontend(feats.transpose(1, 2)).transpose(1, 2)
        h, _ = self.rnn(h)
        return self.out(h).log_softmax(dim=-1)     # (B, T, C)


def make_batch(batch, gen, phone_templates):
    lengths = torch.randint(3, 7, (batch,), generator=gen)
    max_frames = int(lengths.max()) * FRAMES_PER_PHONE
    feats = 0.3 * torch.randn(batch, max_frames, N_MELS, generator=gen)
    targets = []
    for b in range(batch):
        phones = torch.randint(1, N_PHONES + 1, (int(lengths[b]),), generator=gen)
        frames = phone_templates[phones].repeat_interleave(FRAMES_PER_PHONE, dim=0)
        feats[b, : len(frames)] += frames
        targets.append(phones)
    return feats, torch.cat(targets), lengths * FRAMES_PER_PHONE, lengths


def train_one_epoch(model, optimizer, batches):
    total = 0.0
    for feats, targets, input_lengths, target_lengths in batches:
        log_probs = model(feats).transpose(0, 1)   # (T, B, C) for ctc_loss
        loss = length_normalised_ctc(log_probs, targets, input_lengths, target_lengths)
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimizer.step()
        total += loss.item()
    return total / len(batches)


torch.manual_seed(0)
gen = torch.Generator().manual_seed(0)
templates = torch.randn(N_PHONES + 1, N_MELS, generator=gen)
model = PhoneRecognizer()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(3):
    batches = [make_batch(8, gen, templates) for _ in range(2)]
    print(f"epoch {epoch} ctc per phone {train_one_epoch(model, optimizer, batches):.4f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
