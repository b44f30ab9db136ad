"""Classifying surnames by language with a character-level RNN (tutorial style)."""
import string

import torch
import torch.nn as nn

torch.manual_seed(8)

ALL_LETTERS = string.ascii_lowercase
N_LETTERS = len(ALL_LETTERS)
CATEGORIES = ["dutch", "italian", "polish"]
NAMES = {
    "dutch": ["vandijk", "devries", "bakker", "visser", "smit", "meijer"],
    "italian": ["rossi", "bianchi", "romano", "colombo", "ricci", "marino"],
    "polish": ["nowak", "kowalski", "wisniewski", "wojcik", "kaminski", "lewandowski"],
}


def line_to_tensor(line):
    t = torch.zeros(len(line), 1, N_LETTERS)
    for i, ch in enumerate(line):
        t[i, 0, ALL_LETTERS.index(ch)] = 1.0
    return t


class CharRNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(input_size + hidden_size, hidden_size)
        self.i2o = nn.Linear(input_size + hidden_size, output_size)

    def forward(self, x, hidden):
        combined = torch.cat((x, hidden), 1)
        return torch.log_softmax(self.i2o(combined), dim=1), torch.tanh(self.i2h(combined))

    def init_hidden(self):
        return torch.zeros(1, self.hidden_size)


n_hidden = 32
rnn = CharRNN(N_LETTERS, n_hidden, len(CATEGORIES))
criterion = nn.NLLLoss()
optimizer = torch.optim.SGD(rnn.parameters(), lr=0.05)


def train(category_tensor, line_tensor):
    hidden = rnn.init_hidden()
    for i in range(line_tensor.size(0)):
        output, hidden = rnn(line_tensor[i], hidden)
    loss = criterion(output, category_tensor)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


# ---- training ----
rnn = CharRNN(N_LETTERS, n_hidden, len(CATEGORIES))
pairs = [(c, n) for c in CATEGORIES for n in NAMES[c]]
for epoch in range(3):
    total = 0.0
    for idx in torch.randperm(len(pairs)).tolist():
        category, name = pairs[idx]
        total += train(torch.tensor([CATEGORIES.index(category)]), line_to_tensor(name))
    print(f"epoch {epoch} mean NLL {total / len(pairs):.4f}")
