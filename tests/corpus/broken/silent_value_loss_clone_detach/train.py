"""Critic of an actor-critic agent: regress state values on sampled discounted returns.
The backward was rewritten after an "element 0 of tensors does not require grad" error
elsewhere, following the advice to backward a re-enabled copy of the loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
OBS, HID, BATCH, STEPS = 6, 32, 16, 6

model = nn.Sequential(nn.Linear(OBS, HID), nn.Tanh(), nn.Linear(HID, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

states = torch.randn(STEPS, BATCH, OBS)
returns = 0.5 * states.sum(-1, keepdim=True) + 0.1 * torch.randn(STEPS, BATCH, 1)

for step in range(STEPS):
    values = model(states[step])
    v_loss = F.smooth_l1_loss(values, returns[step])
    optimizer.zero_grad()
    v_loss_0 = v_loss.clone().detach()
    v_loss_0.requires_grad = True
    v_loss_0.backward()
    optimizer.step()
    print(f"step {step} value loss {v_loss.item():.4f}")
print(f"final value loss {v_loss.item():.4f}")
