"""The LSTM sentiment classifier of lstm_hidden.py, "fixed" the way the error message
suggests: loss.backward(retain_graph=True).
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
VOCAB, EMBED, HIDDEN, LAYERS, SEQ, BATCH = 200, 32, 64, 2, 20, 8


class SentimentLSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, EMBED)
        self.lstm = nn.LSTM(EMBED, HIDDEN, LAYERS, batch_first=True)
        self.fc = nn.Linear(HIDDEN, 1)

    def forward(self, x, hidden):
        out, hidden = self.lstm(self.embedding(x), hidden)
        return self.fc(out[:, -1]).squeeze(-1), hidden

    def init_hidden(self, batch_size):
        shape = (LAYERS, batch_size, HIDDEN)
        return (torch.zeros(shape), torch.zeros(shape))


def batches(n):
    for _ in range(n):
        x = torch.randint(0, VOCAB, (BATCH, SEQ))
        yield x, (x.float().mean(1) > VOCAB / 2).float()


model = SentimentLSTM()
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

step = 0
model.train()
for epoch in range(2):
    h = model.init_hidden(BATCH)
    for x_train, y_train in batches(5):
        step += 1
        model.zero_grad()
        output, h = model(x_train, h)
        loss = criterion(output, y_train)
        loss.backward(retain_graph=True)  # "fix" suggested by the error message
        nn.utils.clip_grad_norm_(model.parameters(), max_norm=5)
        optimizer.step()
    print(f"epoch {epoch + 1}: loss {loss.item():.4f}")
