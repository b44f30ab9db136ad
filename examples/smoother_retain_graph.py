"""A leaky running state over sensor readings, trained with retain_graph=True added to get
past "backward through the graph a second time". No error: the carried chain saves no
weights, so nothing breaks; the graph just grows with every step.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
encoder = nn.Linear(6, 4)
optimizer = torch.optim.Adam(encoder.parameters(), lr=1e-3)

state = torch.zeros(8, 4)
for step in range(12):
    readings = torch.randn(8, 6)
    state = 0.8 * state + encoder(readings)
    loss = (state - 1.0).pow(2).mean()
    optimizer.zero_grad()
    loss.backward(retain_graph=True)
    optimizer.step()
print(f"final loss {loss.item():.4f}")
