"""Grapheme-to-phoneme seq2seq with a GRU encoder, dot attention and a GRUCell decoder
unrolled step by step. The per-step losses are summed into one tensor and backpropagated
once per batch; the encoder's initial state is made fresh for every batch; teacher forcing
is mixed with the decoder's own greedy predictions."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

LETTERS = "abcdefghik"
PHONES = ["<pad>", "<s>", "</s>"] + [f"P{i}" for i in range(12)]
PAD, BOS, EOS = 0, 1, 2
EMB, HID, BATCH, STEPS = 16, 32, 8, 6


def pronounce(word):
    out = []
    for i, ch in enumerate(word):
        code = LETTERS.index(ch)
        if i + 1 < len(word) and word[i + 1] == "h":
            code = 10 + code % 2
        elif ch == "h":
            continue
        out.append(3 + code)
    return out + [EOS]


def make_batch(rng):
    words = ["".join(rng.choice(LETTERS) for _ in range(rng.randint(3, 6))) for _ in range(BATCH)]
    src = [torch.tensor([LETTERS.index(c) for c in w]) for w in words]
    tgt = [torch.tensor(pronounce(w)) for w in words]
    src = nn.utils.rnn.pad_sequence(src, batch_first=True, padding_value=0)
    tgt = nn.utils.rnn.pad_sequence(tgt, batch_first=True, padding_value=PAD)
    return src, tgt


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(len(LETTERS), EMB)
        self.rnn = nn.GRU(EMB, HID, batch_first=True)

    def init_hidden(self, batch):
        return torch.zeros(1, batch, HID)

    def forward(self, src, hidden):
        return self.rnn(self.embed(src), hidden)


class AttnDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(len(PHONES), EMB, padding_idx=PAD)
        self.cell = nn.GRUCell(EMB + HID, HID)
        self.out = nn.Linear(2 * HID, len(PHONES))

    def forward(self, token, hidden, context, memory):
        hidden = self.cell(torch.cat([self.embed(token), context], dim=-1), hidden)
        weights = torch.softmax(torch.bmm(memory, hidden.unsqueeze(2)).squeeze(2), dim=-1)
        context = torch.bmm(weights.unsqueeze(1), memory).squeeze(1)
        return self.out(torch.cat([hidden, context], dim=-1)), hidden, context


def train(steps=STEPS, teacher_forcing=0.7):
    torch.manual_seed(0)
    rng = random.Random(0)
    encoder, decoder = Encoder(), AttnDecoder()
    params = list(encoder.parameters()) + list(decoder.parameters())
    optimizer = torch.optim.Adam(params, lr=3e-3)
    history = []
    for step in range(steps):
        src, tgt = make_batch(rng)
        memory, enc_h = encoder(src, encoder.init_hidden(src.size(0)))
        hidden, context = enc_h[0], memory.mean(dim=1)
        token = torch.full((src.size(0),), BOS, dtype=torch.long)
        loss, correct = 0, 0
        for t in range(tgt.size(1)):
            logits, hidden, context = decoder(token, hidden, context, memory)
            loss += F.cross_entropy(logits, tgt[:, t], ignore_index=PAD)
            guess = logits.argmax(dim=-1)
            correct += ((guess == tgt[:, t]) & (tgt[:, t] != PAD)).sum().item()
            token = tgt[:, t] if rng.random() < teacher_forcing else guess
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(params, 5.0)
        optimizer.step()
        per_token = loss.item() / tgt.size(1)
        history.append(per_token)
        print(f"step {step} loss/token {per_token:.4f} "
              f"phone acc {correct / (tgt != PAD).sum().item():.3f}")
    checksum = sum(p.detach().sum().item() for p in params)
    print(f"param checksum {checksum:.6f}")
    return history


if __name__ == "__main__":
    train()
