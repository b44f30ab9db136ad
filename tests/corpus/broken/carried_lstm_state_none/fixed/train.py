"""Streaming sensor regression: LSTM state starts as None and is carried across chunks."""
import torch
import torch.nn as nn

torch.manual_seed(0)
CHUNK, N_CHUNKS = 8, 5

lstm = nn.LSTM(input_size=4, hidden_size=8, batch_first=True)
head = nn.Linear(8, 1)
params = list(lstm.parameters()) + list(head.parameters())
optimizer = torch.optim.RMSprop(params, lr=1e-3)

signal = torch.randn(2, CHUNK * N_CHUNKS, 4)
target = signal.sum(-1, keepdim=True).cumsum(1) * 0.1

state = None
for t in range(0, CHUNK * N_CHUNKS, CHUNK):
    x, y = signal[:, t:t + CHUNK], target[:, t:t + CHUNK]
    if state is not None:
        state = tuple(s.detach() for s in state)
    out, state = lstm(x, state)
    loss = nn.functional.mse_loss(head(out), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"chunk {t // CHUNK} loss {loss.item():.4f}")
