"""Small CTC phone recogniser on synthetic filterbank features: each phone is a short
segment with its own spectral template. The step returns its outputs in a dataclass and
the loop logs the greedy-decoding phone error rate."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from decode import error_rate, greedy_from_ctc

N_FEATS, N_PHONES, HIDDEN, BATCH = 16, 6, 32, 8  # symbol 0 is the CTC blank


@dataclass
class StepOutputs:
    loss: float
    per_utt: torch.Tensor
    input_lengths: torch.Tensor


class PhoneRecognizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(N_FEATS, HIDDEN, kernel_size=3, padding=1)
        self.rnn = nn.GRU(HIDDEN, HIDDEN, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * HIDDEN, N_PHONES + 1)

    def forward(self, feats):
        x = F.relu(self.conv(feats.transpose(1, 2))).transpose(1, 2)
        x, _ = self.rnn(x)
        return self.out(x).log_softmax(-1)


def synthetic_batch(gen, templates):
    n_phones = torch.randint(2, 5, (BATCH,), generator=gen)
    targets = torch.zeros(BATCH, 4, dtype=torch.long)
    feats, lengths = [], []
    for b in range(BATCH):
        phones = torch.randint(1, N_PHONES + 1, (int(n_phones[b]),), generator=gen)
        targets[b, :len(phones)] = phones
        segs = [templates[p].expand(int(torch.randint(3, 6, (1,), generator=gen)), -1) for p in phones]
        utt = torch.cat(segs) + 0.3 * torch.randn(sum(len(s) for s in segs), N_FEATS, generator=gen)
        feats.append(utt)
        lengths.append(len(utt))
    padded = nn.utils.rnn.pad_sequence(feats, batch_first=True)
    return padded, torch.tensor(lengths), targets, n_phones


def train_step(model, optimizer, batch):
    feats, input_lengths, targets, target_lengths = batch
    log_probs = model(feats).transpose(0, 1)  # (frames, batch, symbols)
    per_utt = F.ctc_loss(log_probs, targets, input_lengths, target_lengths,
                         blank=0, reduction="none")
    loss = (per_utt / target_lengths).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return StepOutputs(loss.item(), per_utt, input_lengths)


if __name__ == "__main__":
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(9)
    templates = torch.randn(N_PHONES + 1, N_FEATS, generator=gen)
    model = PhoneRecognizer()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    for step in range(6):
        batch = synthetic_batch(gen, templates)
        out = train_step(model, optimizer, batch)
        hyps = greedy_from_ctc(out.per_utt, out.input_lengths)
        per = error_rate(hyps, batch[2], batch[3])
        print(f"step {step} ctc {out.loss:.4f} PER {per:.3f}")
