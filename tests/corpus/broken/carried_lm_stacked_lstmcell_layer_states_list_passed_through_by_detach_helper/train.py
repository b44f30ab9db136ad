"""Truncated-BPTT training of a stacked-LSTMCell word LM on a small synthetic corpus.
The corpus is one long stream cut into parallel columns; the recurrent state flows from
one segment into the next and detach_state() is meant to cut it at each boundary."""
import torch
import torch.nn.functional as F

from lm_utils import batchify, detach_state, get_segment
from model import StackedCellLM

torch.manual_seed(0)
VOCAB, N_STREAMS, BPTT = 12, 4, 6


def synthetic_corpus(n_tokens=120):
    """Sentences from a tiny grammar: subject verb object '.'"""
    ids = []
    while len(ids) < n_tokens:
        ids += [int(torch.randint(0, 4, ())), 4 + int(torch.randint(0, 3, ())),
                7 + int(torch.randint(0, 4, ())), 11]
    return torch.tensor(ids[:n_tokens])


def train_epoch(model, optimizer, source, epoch):
    model.train()
    state = model.init_state(N_STREAMS)
    for batch, i in enumerate(range(0, source.size(0) - 1, BPTT)):
        inputs, targets = get_segment(source, i, BPTT)
        state = detach_state(state)
        logits, state = model(inputs, state)
        loss = F.cross_entropy(logits.view(-1, VOCAB), targets.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        print(f"epoch {epoch} segment {batch} loss {loss.item():.4f}")


source = batchify(synthetic_corpus(), N_STREAMS)
model = StackedCellLM(VOCAB)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(2):
    train_epoch(model, optimizer, source, epoch)
