"""Toy translation (the target writes the source backwards through a word mapping) with a
GRU-cell decoder unrolled one token at a time. Scheduled sampling feeds the decoder its own
previous prediction (argmax) with a growing probability; the per-token losses are summed
into one sentence-batch loss inside the decode loop, and gradients are accumulated over two
micro-batches before each optimizer step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_WORDS, BOS, DIM, MAX_LEN, MICRO, ACCUM, UPDATES = 8, 8, 24, 5, 8, 2, 4
VOCAB = N_WORDS + 1


class Translator(nn.Module):
    def __init__(self):
        super().__init__()
        self.src_embed = nn.Embedding(N_WORDS, DIM)
        self.tgt_embed = nn.Embedding(VOCAB, DIM)
        self.encoder = nn.GRU(DIM, DIM, batch_first=True)
        self.cell = nn.GRUCell(2 * DIM, DIM)
        self.generator = nn.Linear(DIM, VOCAB)

    def encode(self, src):
        memory, h = self.encoder(self.src_embed(src))
        return memory, h[0]

    def attend(self, memory, h):
        scores = torch.bmm(memory, h[:, :, None]).squeeze(2)
        return torch.bmm(scores.softmax(1)[:, None], memory).squeeze(1)


def train(model, optimizer, src, tgt):
    micro_batches = list(zip(src.split(MICRO), tgt.split(MICRO)))
    for update in range(UPDATES):
        sample_prob = 0.25 * update
        optimizer.zero_grad()
        tokens, nll_sum = 0, 0.0
        for k in range(ACCUM):
            s, t = micro_batches[(update * ACCUM + k) % len(micro_batches)]
            memory, h = model.encode(s)
            prev = torch.full((len(s),), BOS)
            loss = 0.0
            for i in range(MAX_LEN):
                x = torch.cat([model.tgt_embed(prev), model.attend(memory, h)], 1)
                h = model.cell(x, h)
                logits = model.generator(h)
                loss = loss + F.cross_entropy(logits, t[:, i])
                use_own = torch.rand(len(s)) < sample_prob
                prev = torch.where(use_own, logits.argmax(1), t[:, i])
            (loss / (MAX_LEN * ACCUM)).backward()
            nll_sum += loss.item()
            tokens += MAX_LEN
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        print(f"update {update} sampling p {sample_prob:.2f} token nll {nll_sum / tokens:.4f}")


torch.manual_seed(0)
mapping = torch.randperm(N_WORDS)
src = torch.randint(0, N_WORDS, (32, MAX_LEN))
tgt = mapping[src.flip(1)]
model = Translator()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
train(model, optimizer, src, tgt)
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
