"""GRU sequence classifier: hidden initialised once per epoch, carried across batches."""
import torch
import torch.nn as nn

torch.manual_seed(0)
SEQ, BATCH, FEAT, HID, CLASSES = 6, 4, 5, 12, 3


class GRUClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(FEAT, HID, batch_first=True)
        self.head = nn.Linear(HID, CLASSES)

    def init_hidden(self):
        return torch.zeros(1, BATCH, HID)

    def forward(self, x, hidden):
        out, hidden = self.gru(x, hidden)
        return self.head(out[:, -1]), hidden


def train(model, loader, epochs):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        hidden = model.init_hidden()
        for x, y in loader:
            optimizer.zero_grad()
            logits, hidden = model(x, hidden)
            loss = criterion(logits, y)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
    return loss.item()


loader = [(torch.randn(BATCH, SEQ, FEAT), torch.randint(0, CLASSES, (BATCH,)))
          for _ in range(3)]
final = train(GRUClassifier(), loader, epochs=2)
print(f"final loss {final:.4f}")
