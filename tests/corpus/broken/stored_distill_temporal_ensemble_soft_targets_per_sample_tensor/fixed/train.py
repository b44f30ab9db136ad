"""Self-distillation with temporal ensembling on a small noisy-label dataset: every sample
keeps an exponential moving average of the network's past predictions, and the network is
pulled towards that ensemble (bias-corrected) as well as towards the given labels."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N, DIM, CLASSES, BATCH = 48, 10, 3, 12
ALPHA, CONSISTENCY = 0.6, 2.0

centers = 2.0 * torch.randn(CLASSES, DIM)
true_labels = torch.randint(0, CLASSES, (N,))
inputs = centers[true_labels] + torch.randn(N, DIM)
noisy = torch.rand(N) < 0.2
labels = torch.where(noisy, torch.randint(0, CLASSES, (N,)), true_labels)

net = nn.Sequential(nn.Linear(DIM, 32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, CLASSES))
optimizer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)

ensemble = torch.zeros(N, CLASSES)   # running average of softmax outputs, one row per sample
updates = torch.zeros(N)             # how many times each row has been updated

for epoch in range(2):
    order = torch.randperm(N)
    for it in range(N // BATCH):
        idx = order[it * BATCH:(it + 1) * BATCH]
        logits = net(inputs[idx])
        probs = F.softmax(logits, dim=1)
        seen = updates[idx] > 0
        target = ensemble[idx] / (1 - ALPHA ** updates[idx].clamp(min=1)).unsqueeze(1)
        ce = F.cross_entropy(logits, labels[idx])
        cons = F.mse_loss(probs[seen], target[seen]) if seen.any() else probs.new_zeros(())
        loss = ce + CONSISTENCY * cons
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        ensemble[idx] = ALPHA * ensemble[idx] + (1 - ALPHA) * probs.detach()
        updates[idx] += 1
        print(f"epoch {epoch} iter {it}: ce {ce.item():.4f} consistency {cons.item():.4f}")

with torch.no_grad():
    net.eval()
    acc = (net(inputs).argmax(1) == true_labels).float().mean().item()
print(f"accuracy against clean labels {acc:.3f}")
