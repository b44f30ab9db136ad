"""Character-level LSTM language model trained over consecutive BPTT windows of one text.
The hidden state is carried from window to window so the model sees long context;
retain_graph=True was added after "Trying to backward through the graph a second time"."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
TEXT = ("the quick brown fox jumps over the lazy dog while the cat sleeps on the warm mat "
        "and the bird sings a song about the long summer days near the quiet river bank ") * 2
VOCAB = sorted(set(TEXT))
STOI = {c: i for i, c in enumerate(VOCAB)}
BPTT, BATCH, EMB, HIDDEN = 12, 4, 10, 24


class CharLSTM(nn.Module):
    def __init__(self, vocab_size):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, EMB)
        self.lstm = nn.LSTM(EMB, HIDDEN, batch_first=True)
        self.decoder = nn.Linear(HIDDEN, vocab_size)

    def forward(self, tokens, hidden):
        out, hidden = self.lstm(self.embed(tokens), hidden)
        return self.decoder(out), hidden


def batchify(text):
    ids = torch.tensor([STOI[c] for c in text])
    n = len(ids) // BATCH
    return ids[: n * BATCH].view(BATCH, n)


data = batchify(TEXT)
model = CharLSTM(len(VOCAB))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
hidden = (torch.zeros(1, BATCH, HIDDEN), torch.zeros(1, BATCH, HIDDEN))

for i, start in enumerate(range(0, data.shape[1] - BPTT - 1, BPTT)):
    inputs = data[:, start:start + BPTT]
    targets = data[:, start + 1:start + BPTT + 1]
    hidden = tuple(h.detach() for h in hidden)
    logits, hidden = model(inputs, hidden)
    loss = F.cross_entropy(logits.reshape(-1, len(VOCAB)), targets.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"window {i} loss {loss.item():.4f}")
