"""Symbolic-music language model in the Transformer-XL style: each piece (a stream of MIDI
events: note-on, note-off, time-shift) is cut into fixed-length segments, and every layer
attends over its own cached hidden states from the previous segment as well as the current
one, so the model can see further back than one segment."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_EVENTS, D_MODEL, N_LAYERS, SEG_LEN, MEM_LEN = 24, 16, 2, 6, 6


class MemoryAttentionLayer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
        self.norm1 = nn.LayerNorm(d)
        self.norm2 = nn.LayerNorm(d)

    def forward(self, h, mem):
        context = h if mem is None else torch.cat([mem, h], dim=1)
        q = self.qkv(h).chunk(3, dim=-1)[0]
        _, k, v = self.qkv(context).chunk(3, dim=-1)
        scores = q @ k.transpose(1, 2) / h.size(-1) ** 0.5
        n_mem = context.size(1) - h.size(1)
        causal = torch.ones(h.size(1), context.size(1), dtype=torch.bool).triu(n_mem + 1)
        attn = scores.masked_fill(causal, float("-inf")).softmax(-1)
        h = self.norm1(h + self.out(attn @ v))
        return self.norm2(h + self.ff(h))


class EventXL(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(N_EVENTS, D_MODEL)
        self.layers = nn.ModuleDict({f"block{i}": MemoryAttentionLayer(D_MODEL)
                                     for i in range(N_LAYERS)})
        self.head = nn.Linear(D_MODEL, N_EVENTS)

    def forward(self, events, mems):
        h = self.embed(events)
        layer_inputs = {}
        for name, layer in self.layers.items():
            layer_inputs[name] = h
            h = layer(h, mems.get(name))
        return self.head(h), layer_inputs


def make_pieces(n_pieces, n_segments, generator):
    """Arpeggio-like event streams: a repeating pattern with random ornaments."""
    base = torch.tensor([0, 4, 7, 12, 7, 4])
    pieces = []
    for _ in range(n_pieces):
        length = n_segments * SEG_LEN + 1
        pattern = base.repeat(length // len(base) + 1)[:length]
        noise = torch.randint(0, 3, (length,), generator=generator)
        pieces.append((pattern + noise) % N_EVENTS)
    return torch.stack(pieces)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    model = EventXL()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
    pieces = make_pieces(n_pieces=3, n_segments=4, generator=gen)
    for epoch in range(2):
        mems = {}
        for s in range(4):
            chunk = pieces[:, s * SEG_LEN:(s + 1) * SEG_LEN + 1]
            inputs, targets = chunk[:, :-1], chunk[:, 1:]
            logits, layer_inputs = model(inputs, mems)
            loss = F.cross_entropy(logits.reshape(-1, N_EVENTS), targets.reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            for name, h in layer_inputs.items():
                mems[name] = h[:, -MEM_LEN:]
            print(f"epoch {epoch} segment {s} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
