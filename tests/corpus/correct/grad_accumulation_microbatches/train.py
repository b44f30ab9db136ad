"""Gradient accumulation: four micro-batches per optimizer step, each loss scaled by
1/accum_steps, backward per micro-batch, step and zero_grad every fourth."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(4)
ACCUM_STEPS = 4

model = nn.Sequential(nn.Linear(10, 24), nn.GELU(), nn.LayerNorm(24), nn.Linear(24, 3))
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
inputs = torch.randn(32, 10)
targets = torch.randint(0, 3, (32,))
micro_batches = list(zip(inputs.split(4), targets.split(4)))

step = 0
optimizer.zero_grad()
for epoch in range(1):
    for i, (x, y) in enumerate(micro_batches):
        loss = F.cross_entropy(model(x), y) / ACCUM_STEPS
        loss.backward()
        if (i + 1) % ACCUM_STEPS == 0:
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            optimizer.zero_grad()
            step += 1
            print(f"step {step} last micro loss {loss.item() * ACCUM_STEPS:.6f}")

with torch.no_grad():
    final = F.cross_entropy(model(inputs), targets).item()
print(f"final loss {final:.6f}")
print(f"checksum {sum(p.sum().item() for p in model.parameters()):.6f}")
