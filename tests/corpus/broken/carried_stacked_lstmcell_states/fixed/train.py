"""Two-layer LSTMCell stack; per-layer (h, c) kept in a list and carried across windows."""
import torch
import torch.nn as nn

torch.manual_seed(0)
N_IN, HID, LAYERS, BATCH, WINDOW, N_WINDOWS = 4, 10, 2, 3, 6, 4


class StackedLSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.cells = nn.ModuleList(
            [nn.LSTMCell(N_IN if i == 0 else HID, HID) for i in range(LAYERS)])
        self.readout = nn.Linear(HID, N_IN)

    def init_states(self, batch):
        return [(torch.zeros(batch, HID), torch.zeros(batch, HID)) for _ in range(LAYERS)]

    def forward(self, seq, states):
        outputs = []
        for x in seq:
            new_states = []
            for cell, state in zip(self.cells, states):
                h, c = cell(x, state)
                new_states.append((h, c))
                x = h
            states = new_states
            outputs.append(self.readout(x))
        return torch.stack(outputs), states


model = StackedLSTM()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
stream = torch.randn(WINDOW * N_WINDOWS + 1, BATCH, N_IN)

states = model.init_states(BATCH)
for w in range(N_WINDOWS):
    x = stream[w * WINDOW:(w + 1) * WINDOW]
    y = stream[w * WINDOW + 1:(w + 1) * WINDOW + 1]
    optimizer.zero_grad()
    states = [(h.detach(), c.detach()) for h, c in states]
    pred, states = model(x, states)
    loss = nn.functional.mse_loss(pred, y)
    loss.backward()
    optimizer.step()
    print(f"window {w} loss {loss.item():.4f}")
