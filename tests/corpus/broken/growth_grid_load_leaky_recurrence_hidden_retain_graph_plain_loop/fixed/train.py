# Hourly grid-load forecaster: a diagonal (leaky) recurrence reads one hour
# of features at a time and predicts the next hour's load.  The hidden state
# is carried over from window to window so the model "remembers" the
# previous day.
import torch
import torch.nn as nn

torch.manual_seed(7)

N_FEAT, HIDDEN = 5, 16
proj = nn.Linear(N_FEAT, HIDDEN)
decay_logit = nn.Parameter(torch.full((HIDDEN,), 1.5))
readout = nn.Linear(HIDDEN, 1)
params = list(proj.parameters()) + [decay_logit] + list(readout.parameters())
opt = torch.optim.Adam(params, lr=3e-3)
loss_fn = nn.SmoothL1Loss()

# synthetic stream: 6 consecutive windows of 4 hours, batch of 8 substations
stream = torch.randn(6, 4, 8, N_FEAT)
targets = stream[..., :1].roll(-1, dims=1) * 0.5 + 0.1

h = torch.zeros(8, HIDDEN)
for window in range(stream.shape[0]):
    h = h.detach()  # truncated BPTT: keep the values, drop the old windows' graph
    preds = []
    for t in range(stream.shape[1]):
        a = torch.sigmoid(decay_logit)
        h = torch.tanh(a * h + proj(stream[window, t]))
        preds.append(readout(h))
    pred = torch.stack(preds)
    loss = loss_fn(pred, targets[window])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"window {window} loss {loss.item():.4f}")

print("checksum", round(sum(p.sum().item() for p in params), 4))
