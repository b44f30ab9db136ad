"""A residual MLP whose blocks are activation-checkpointed (non-reentrant) during
training: the forward inside each block is recomputed during backward."""
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

torch.manual_seed(5)


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, dim * 2), nn.GELU(), nn.Dropout(0.1),
                                nn.Linear(dim * 2, dim))

    def forward(self, x):
        return x + self.ff(self.norm(x))


class Net(nn.Module):
    def __init__(self, dim=16, depth=3, classes=4):
        super().__init__()
        self.stem = nn.Linear(8, dim)
        self.blocks = nn.ModuleList(Block(dim) for _ in range(depth))
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        x = self.stem(x)
        for block in self.blocks:
            if self.training:
                x = checkpoint(block, x, use_reentrant=False)
            else:
                x = block(x)
        return self.head(x)


class Trainer:
    def __init__(self):
        self.model = Net()
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-2)
        self.x = torch.randn(40, 8)
        self.y = torch.randint(0, 4, (40,))

    def step(self, x, y):
        self.model.train()
        self.opt.zero_grad(set_to_none=True)
        loss = nn.functional.cross_entropy(self.model(x), y)
        loss.backward()
        self.opt.step()
        return loss.item()

    def fit(self, epochs=5):
        for epoch in range(epochs):
            loss = self.step(self.x, self.y)
            print(f"epoch {epoch} loss {loss:.6f}")
        self.model.eval()
        with torch.no_grad():
            acc = (self.model(self.x).argmax(1) == self.y).float().mean().item()
        print(f"train acc {acc:.6f}")


trainer = Trainer()
trainer.fit()
print(f"checksum {sum(p.sum().item() for p in trainer.model.parameters()):.6f}")
