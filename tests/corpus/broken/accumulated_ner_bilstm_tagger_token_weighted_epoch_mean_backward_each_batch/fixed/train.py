"""BiLSTM named-entity tagger (BIO tags) on synthetic sentences of varying length.
The epoch loss is reported as a token-weighted mean, so long and short batches count fairly."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

VOCAB, PAD, PAD_TAG = 40, 0, -100
TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]


class BiLSTMTagger(nn.Module):
    def __init__(self, vocab, n_tags, emb=16, hidden=24):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(2 * hidden, n_tags)

    def forward(self, tokens, lengths):
        packed = pack_padded_sequence(self.embed(tokens), lengths, batch_first=True, enforce_sorted=False)
        out, _ = self.lstm(packed)
        out, _ = pad_packed_sequence(out, batch_first=True, total_length=tokens.size(1))
        return self.proj(out)


def tag_of(prev_tok, tok):
    if 1 <= tok <= 8:
        return 2 if 1 <= prev_tok <= 8 else 1
    if 9 <= tok <= 14:
        return 4 if 9 <= prev_tok <= 14 else 3
    return 0


def make_batches(n_batches, batch_size, gen):
    batches = []
    for _ in range(n_batches):
        sents, tags = [], []
        for _ in range(batch_size):
            length = int(torch.randint(4, 12, (1,), generator=gen))
            toks = torch.randint(1, VOCAB, (length,), generator=gen)
            sents.append(toks)
            tags.append(torch.tensor([tag_of(int(toks[i - 1]) if i else 0, int(t)) for i, t in enumerate(toks)]))
        lengths = torch.tensor([len(s) for s in sents])
        batches.append((pad_sequence(sents, batch_first=True, padding_value=PAD),
                        pad_sequence(tags, batch_first=True, padding_value=PAD_TAG), lengths))
    return batches


def train_epoch(model, optimizer, batches):
    model.train()
    epoch_loss, n_tokens = 0.0, 0
    for tokens, tags, lengths in batches:
        emissions = model(tokens, lengths)
        loss = F.cross_entropy(emissions.reshape(-1, len(TAGS)), tags.reshape(-1), ignore_index=PAD_TAG)
        n = int((tags != PAD_TAG).sum())
        epoch_loss += loss.item() * n
        n_tokens += n
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimizer.step()
    return epoch_loss / n_tokens


if __name__ == "__main__":
    torch.manual_seed(0)
    batches = make_batches(4, 6, torch.Generator().manual_seed(0))
    model = BiLSTMTagger(VOCAB, len(TAGS))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(2):
        mean_loss = train_epoch(model, optimizer, batches)
        print(f"epoch {epoch} token-weighted loss {float(mean_loss):.4f}")
