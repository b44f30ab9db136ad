"""Toy machine translation with a GRU encoder-decoder: the "target language" writes the
source sentence backwards through a fixed word mapping. Sentences have different lengths
and are padded; the decoder is trained with teacher forcing and a length-normalised loss
from losses.py."""
import torch
import torch.nn as nn

from losses import exact_match, greedy_translate, length_normalised_nll, token_accuracy

N_WORDS, PAD, BOS, DIM, BATCH, EPOCHS = 10, 10, 11, 32, 16, 3
VOCAB = N_WORDS + 2


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.src_embed = nn.Embedding(VOCAB, DIM, padding_idx=PAD)
        self.tgt_embed = nn.Embedding(VOCAB, DIM, padding_idx=PAD)
        self.encoder = nn.GRU(DIM, DIM, batch_first=True)
        self.decoder = nn.GRU(DIM, DIM, batch_first=True)
        self.generator = nn.Linear(DIM, VOCAB)

    def forward(self, src, tgt_in):
        _, h = self.encoder(self.src_embed(src))
        out, _ = self.decoder(self.tgt_embed(tgt_in), h)
        return self.generator(out)


def make_corpus(n, mapping):
    lengths = torch.randint(3, 7, (n,))
    src = torch.full((n, 6), PAD)
    tgt = torch.full((n, 6), PAD)
    for i, L in enumerate(lengths.tolist()):
        words = torch.randint(0, N_WORDS, (L,))
        src[i, :L] = words
        tgt[i, :L] = mapping[words.flip(0)]
    return src, tgt, lengths


def main():
    torch.manual_seed(0)
    mapping = torch.randperm(N_WORDS)
    src, tgt, lengths = make_corpus(48, mapping)
    tgt_in = torch.cat([torch.full((len(tgt), 1), BOS), tgt[:, :-1]], 1)
    model = Seq2Seq()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(EPOCHS):
        for start in range(0, len(src), BATCH):
            sl = slice(start, start + BATCH)
            logits = model(src[sl], tgt_in[sl])
            loss = length_normalised_nll(logits, tgt[sl], lengths[sl])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        acc = token_accuracy(logits, tgt[sl], lengths[sl])
        em = exact_match(logits, tgt[sl], lengths[sl])
        print(f"epoch {epoch} nll {loss.item():.4f} token acc {acc:.3f} exact {em:.3f}")
    sample = greedy_translate(model, src[:2], BOS, 6)
    print("greedy:", sample.tolist(), "reference:", tgt[:2].tolist())


if __name__ == "__main__":
    main()
