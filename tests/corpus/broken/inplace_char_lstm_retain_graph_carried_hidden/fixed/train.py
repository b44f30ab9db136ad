"""Character-level LSTM language model trained with truncated BPTT over one long text.
The hidden state is carried from chunk to chunk so the model sees long context; backward
got retain_graph=True after the first run complained that buffers had been freed."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
TEXT = ("the quick brown fox jumps over the lazy dog while the old cat sleeps "
        "and a small bird sings about the river and the green hills ") * 4
BPTT, BATCH, EMB, HID = 16, 4, 16, 32

vocab = sorted(set(TEXT))
stoi = {ch: i for i, ch in enumerate(vocab)}
data = torch.tensor([stoi[ch] for ch in TEXT])
n_cols = data.size(0) // BATCH
stream = data[: n_cols * BATCH].view(BATCH, n_cols)


class CharLSTM(nn.Module):
    def __init__(self, n_vocab):
        super().__init__()
        self.embed = nn.Embedding(n_vocab, EMB)
        self.lstm = nn.LSTM(EMB, HID, batch_first=True)
        self.decoder = nn.Linear(HID, n_vocab)

    def forward(self, tokens, hidden=None):
        out, hidden = self.lstm(self.embed(tokens), hidden)
        return self.decoder(out), hidden


model = CharLSTM(len(vocab))
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
hidden = None
for step, start in enumerate(range(0, n_cols - 1 - BPTT, BPTT)):
    inputs = stream[:, start:start + BPTT]
    targets = stream[:, start + 1:start + 1 + BPTT]
    if hidden is not None:
        hidden = tuple(h.detach() for h in hidden)
    logits, hidden = model(inputs, hidden)
    loss = F.cross_entropy(logits.reshape(-1, len(vocab)), targets.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    print(f"chunk {step} loss {loss.item():.4f} ppl {loss.exp().item():.2f}")
