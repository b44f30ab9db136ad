"""Online anomaly scorer: a leaky running state integrates the encoded sensor readings and
a head scores it every step. retain_graph=True was added when the second backward failed."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_SENSORS, HID, BATCH, STEPS, DECAY = 5, 16, 4, 12, 0.9

encoder = nn.Linear(N_SENSORS, HID)
head = nn.Linear(HID, 1)
optimizer = torch.optim.SGD([*encoder.parameters(), *head.parameters()], lr=0.05)

readings = torch.randn(STEPS, BATCH, N_SENSORS)
targets = (readings.abs().amax(-1, keepdim=True) > 1.5).float()

state = torch.zeros(BATCH, HID)
for t in range(STEPS):
    state = DECAY * state + encoder(readings[t])
    score = head(torch.tanh(state))
    loss = F.binary_cross_entropy_with_logits(score, targets[t])
    optimizer.zero_grad()
    loss.backward(retain_graph=True)
    optimizer.step()
    print(f"t {t} loss {loss.item():.4f}")
print(f"final loss {loss.item():.4f}")
