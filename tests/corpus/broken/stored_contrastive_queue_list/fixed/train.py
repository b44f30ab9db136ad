"""Contrastive loss against a queue of past embeddings kept in a plain list on the model."""
import torch, torch.nn as nn, torch.nn.functional as F
torch.manual_seed(0)
class Contrast(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(10, 6)
        self.queue = []
    def forward(self, x):
        z = F.normalize(self.enc(x), dim=1)
        if self.queue:
            negs = torch.cat(self.queue[-4:])
            logits = z @ negs.T
            loss = logits.logsumexp(1).mean()
        else:
            loss = z.sum() * 0
        self.queue.append(z.detach())
        return loss
m = Contrast()
opt = torch.optim.SGD(m.parameters(), lr=0.1)
for i in range(4):
    loss = m(torch.randn(8, 10))
    opt.zero_grad()
    loss.backward()
    opt.step()
