"""Word-level LSTM language model with truncated BPTT: the hidden state is carried
across batches but detached from the previous batch's graph each time."""
import torch
import torch.nn as nn

torch.manual_seed(0)
VOCAB, EMB, HID, BPTT, BATCH = 50, 16, 32, 8, 4


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, EMB)
        self.lstm = nn.LSTM(EMB, HID, num_layers=2)
        self.out = nn.Linear(HID, VOCAB)

    def forward(self, x, hidden):
        output, hidden = self.lstm(self.embed(x), hidden)
        return self.out(output), hidden

    def init_hidden(self, batch):
        return (torch.zeros(2, batch, HID), torch.zeros(2, batch, HID))


def repackage(hidden):
    return tuple(h.detach() for h in hidden)


data = torch.randint(0, VOCAB, (BPTT * 5 + 1, BATCH))
model = LM()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)

hidden = model.init_hidden(BATCH)
for i in range(0, data.size(0) - 1, BPTT):
    x, y = data[i:i + BPTT], data[i + 1:i + 1 + BPTT]
    hidden = tuple(h.detach() for h in hidden)
    model.zero_grad()
    logits, hidden = model(x, hidden)
    loss = criterion(logits.view(-1, VOCAB), y.reshape(-1))
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
    optimizer.step()
    print(f"batch {i // BPTT} loss {loss.item():.6f}")
hidden = repackage(hidden)
print(f"hidden norm {hidden[0].norm().item():.6f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
