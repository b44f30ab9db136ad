"""Logistic-regression spam filter on bag-of-words counts; a debug print shows the mean
predicted probability, read from what the sigmoid saved for backward."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, BATCH = 30, 12

model = nn.Linear(VOCAB, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
docs = torch.poisson(torch.rand(5, BATCH, VOCAB) * 2)
labels = (docs[..., :5].sum(-1, keepdim=True) > 5).float()

for step in range(5):
    out = torch.sigmoid(model(docs[step]))
    loss = F.binary_cross_entropy(out, labels[step])
    optimizer.zero_grad()
    loss.backward()
    print(f"step {step} loss {loss.item():.4f} mean p {out.grad_fn._saved_result.mean().item():.3f}")
    optimizer.step()
print(f"bias {model.bias.item():.4f}")
