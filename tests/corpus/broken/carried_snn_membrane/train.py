"""Leaky integrate-and-fire layer trained chunk by chunk; membrane potential carried over."""
import torch
import torch.nn as nn

torch.manual_seed(0)
N_IN, N_HID, N_OUT, BATCH, CHUNK, N_CHUNKS = 10, 20, 2, 4, 5, 4
BETA, THRESH = 0.9, 1.0

fc_in = nn.Linear(N_IN, N_HID)
fc_out = nn.Linear(N_HID, N_OUT)
optimizer = torch.optim.Adam([*fc_in.parameters(), *fc_out.parameters()], lr=5e-3)


def spike(mem):
    """Heaviside forward, sigmoid surrogate gradient backward."""
    soft = torch.sigmoid(4.0 * (mem - THRESH))
    return (mem > THRESH).float() - soft.detach() + soft


inputs = (torch.rand(CHUNK * N_CHUNKS, BATCH, N_IN) < 0.3).float()
labels = torch.randint(0, N_OUT, (BATCH,))

mem = torch.zeros(BATCH, N_HID)
for chunk in range(N_CHUNKS):
    optimizer.zero_grad()
    scores = torch.zeros(BATCH, N_OUT)
    for t in range(chunk * CHUNK, (chunk + 1) * CHUNK):
        spk = spike(mem)
        mem = BETA * mem + fc_in(inputs[t]) - spk * THRESH
        scores = scores + fc_out(spike(mem))
    loss = nn.functional.cross_entropy(scores, labels)
    loss.backward()
    optimizer.step()
    print(f"chunk {chunk} loss {loss.item():.4f}")
