"""Char-level GRU language model; the step itself lives in engine.py."""
import torch
import torch.nn as nn

from engine import train_one_batch

torch.manual_seed(0)
VOCAB, EMB, HID, WINDOW, BATCH = 30, 8, 24, 10, 3


class CharGRU(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, EMB)
        self.gru = nn.GRU(EMB, HID, batch_first=True)
        self.decoder = nn.Linear(HID, VOCAB)

    def forward(self, x, hidden):
        out, hidden = self.gru(self.embed(x), hidden)
        return self.decoder(out), hidden

    def init_hidden(self, batch):
        return torch.zeros(1, batch, HID)


text = torch.randint(0, VOCAB, (BATCH, WINDOW * 4 + 1))
batches = [(text[:, i:i + WINDOW], text[:, i + 1:i + 1 + WINDOW])
           for i in range(0, WINDOW * 4, WINDOW)]

model = CharGRU()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
crit = nn.CrossEntropyLoss()

hidden = model.init_hidden(BATCH)
for step, batch in enumerate(batches):
    loss, hidden = train_one_batch(model, batch, hidden, opt, crit)
    print(f"step {step} loss {loss:.4f}")
