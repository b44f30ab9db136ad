"""Spoken-digit sequence recogniser (CTC) with a callback-driven training loop.

Utterances are synthetic: each digit is a short burst of two harmonics rendered into 10
log-mel-like bands. A PERCallback collects the network outputs of the epoch and computes
a greedy-decoding phone error rate at the end of the epoch.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_DIGITS, BANDS, FRAMES_PER_DIGIT, BATCH = 10, 10, 5, 6


def edit_distance(a, b):
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]


class PERCallback:
    def __init__(self):
        self.outputs = []
        self.refs = []

    def on_batch_end(self, log_probs, targets):
        self.outputs.append(log_probs.detach())
        self.refs.extend(targets)

    def on_epoch_end(self, epoch):
        errors = words = 0
        for lp, ref in zip((o for batch in self.outputs for o in batch), self.refs):
            best = lp.argmax(-1).tolist()
            hyp = [p - 1 for k, p in enumerate(best) if p != 0 and (k == 0 or p != best[k - 1])]
            errors += edit_distance(hyp, ref)
            words += len(ref)
        print(f"epoch {epoch} PER {errors / words:.3f} over {len(self.refs)} utterances")


class ConvCTC(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Conv1d(BANDS, 32, 3, padding=1), nn.GELU(),
            nn.Conv1d(32, 32, 3, padding=2, dilation=2), nn.GELU(),
            nn.Conv1d(32, N_DIGITS + 1, 1))

    def forward(self, feats):
        return self.layers(feats).transpose(1, 2).log_softmax(-1)


def utterances(gen, n_digits=4):
    digits = torch.randint(0, N_DIGITS, (BATCH, n_digits), generator=gen)
    bands = torch.stack([F.one_hot(digits % BANDS, BANDS), F.one_hot((digits * 3 + 1) % BANDS, BANDS)]).sum(0)
    feats = bands.float().repeat_interleave(FRAMES_PER_DIGIT, dim=1)
    feats = feats + 0.3 * torch.randn(feats.shape, generator=gen)
    return feats.transpose(1, 2), digits


def fit(epochs=2, batches=5):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = ConvCTC()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    ctc = nn.CTCLoss(blank=0)
    callbacks = [PERCallback()]
    for epoch in range(epochs):
        for _ in range(batches):
            feats, digits = utterances(gen)
            log_probs = model(feats)
            frames = torch.full((BATCH,), log_probs.size(1))
            lengths = torch.full((BATCH,), digits.size(1))
            loss = ctc(log_probs.transpose(0, 1), digits + 1, frames, lengths)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            for cb in callbacks:
                cb.on_batch_end(log_probs, digits.tolist())
        print(f"epoch {epoch} ctc {loss.item():.4f}")
        for cb in callbacks:
            cb.on_epoch_end(epoch)


if __name__ == "__main__":
    fit()
