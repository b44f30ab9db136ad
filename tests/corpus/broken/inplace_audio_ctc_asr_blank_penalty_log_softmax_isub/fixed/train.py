"""Tiny CTC speech recogniser on synthetic "phone" sequences.

Each utterance is a sequence of 3-5 tones (one per phone class), rendered as log-energy
features over 8 bands. Early in training CTC collapses to all-blank outputs, so the
recipe subtracts a small penalty from the blank log-probability (as some decoders do),
and logs greedy decodes.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_PHONES, N_BANDS, FRAMES_PER_PHONE, BATCH = 6, 8, 6, 8
BLANK, BLANK_PENALTY = 0, 0.5


def make_batch(gen):
    feats, targets, target_lens = [], [], []
    for _ in range(BATCH):
        n = int(torch.randint(3, 6, (1,), generator=gen))
        phones = torch.randint(1, N_PHONES + 1, (n,), generator=gen)
        frames = F.one_hot((phones - 1) % N_BANDS, N_BANDS).float()
        frames = frames.repeat_interleave(FRAMES_PER_PHONE, dim=0)
        feats.append(frames + 0.3 * torch.randn(frames.shape, generator=gen))
        targets.append(phones)
        target_lens.append(n)
    max_t = max(f.size(0) for f in feats)
    input_lens = torch.tensor([f.size(0) for f in feats])
    padded = torch.stack([F.pad(f, (0, 0, 0, max_t - f.size(0))) for f in feats])
    return padded, input_lens, torch.cat(targets), torch.tensor(target_lens)


class CTCRecognizer(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.conv = nn.Conv1d(N_BANDS, hidden, 3, padding=1)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, N_PHONES + 1)

    def forward(self, feats):
        h = F.relu(self.conv(feats.transpose(1, 2))).transpose(1, 2)
        h, _ = self.rnn(h)
        return self.out(h)


def greedy_decode(log_probs, length):
    best = log_probs[:length].argmax(-1).tolist()
    out, prev = [], BLANK
    for p in best:
        if p != prev and p != BLANK:
            out.append(p)
        prev = p
    return out


def train(steps=5):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = CTCRecognizer()
    ctc = nn.CTCLoss(blank=BLANK, zero_infinity=True)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    for step in range(steps):
        feats, input_lens, targets, target_lens = make_batch(gen)
        log_probs = model(feats).log_softmax(dim=-1)
        blank_shift = torch.zeros(N_PHONES + 1)
        blank_shift[BLANK] = BLANK_PENALTY
        log_probs = log_probs - blank_shift
        loss = ctc(log_probs.transpose(0, 1), targets, input_lens, target_lens)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        hyp = greedy_decode(log_probs[0].detach(), int(input_lens[0]))
        ref = targets[:int(target_lens[0])].tolist()
        print(f"step {step} ctc {loss.item():.4f} ref {ref} hyp {hyp}")


if __name__ == "__main__":
    train()
