"""Claim-amount regression on a heavy-tailed target. The model predicts in symlog space with
a hand-written autograd.Function (sign(x) * log1p(|x|), its derivative 1 / (1 + |x|) taken
from the saved input), the residual MLP blocks are activation-checkpointed, and the Trainer
accumulates gradients over two micro-batches per optimizer step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

N_ROWS, N_FEAT, WIDTH, MICRO, ACCUM, EPOCHS = 96, 7, 32, 12, 2, 2


class SymLog(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.sign(x) * torch.log1p(x.abs())

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out / (1 + x.abs())


class ResBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(WIDTH)
        self.ff = nn.Sequential(nn.Linear(WIDTH, 2 * WIDTH), nn.GELU(), nn.Linear(2 * WIDTH, WIDTH))

    def forward(self, h):
        return h + self.ff(self.norm(h))


class ClaimModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Linear(N_FEAT, WIDTH)
        self.blocks = nn.ModuleList(ResBlock() for _ in range(3))
        self.head = nn.Linear(WIDTH, 1)

    def forward(self, x):
        h = self.stem(x)
        for block in self.blocks:
            h = checkpoint(block, h, use_reentrant=False)
        return self.head(h).squeeze(1)


class Trainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
        self.log = []

    def fit(self, x, amount, epochs):
        target = SymLog.apply(amount)            # constant: amount does not require grad
        for epoch in range(epochs):
            running = 0.0
            for step, idx in enumerate(torch.randperm(N_ROWS).split(MICRO)):
                pred = SymLog.apply(self.model(x[idx]))
                loss = F.huber_loss(pred, target[idx]) / ACCUM
                loss.backward()
                running += loss.item()
                if (step + 1) % ACCUM == 0:
                    nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
                    self.optimizer.step()
                    self.optimizer.zero_grad(set_to_none=True)
            self.log.append(running / (N_ROWS // (MICRO * ACCUM)))
            print(f"epoch {epoch} huber (symlog space) {self.log[-1]:.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(N_ROWS, N_FEAT)
    amount = torch.expm1(1.5 * x[:, 0] + 0.5 * x[:, 1].abs()) * (1 + (x[:, 2] > 1).float() * 9)
    trainer = Trainer(ClaimModel())
    trainer.fit(x, amount, EPOCHS)
    with torch.no_grad():
        print(f"param checksum {sum(p.sum() for p in trainer.model.parameters()).item():.4f}")
