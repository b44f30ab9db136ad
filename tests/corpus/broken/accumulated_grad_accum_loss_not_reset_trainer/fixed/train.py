"""Neural probabilistic language model (Bengio-style: embed the previous 3 tokens, MLP, softmax)
trained with gradient accumulation over micro-batches."""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, CONTEXT, EMB, MICRO_BATCH = 16, 3, 8, 8


class NPLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, EMB)
        self.mlp = nn.Sequential(nn.Linear(CONTEXT * EMB, 32), nn.Tanh(), nn.Linear(32, VOCAB))

    def forward(self, ctx):
        return self.mlp(self.embed(ctx).flatten(1))


class Trainer:
    def __init__(self, model, accum_steps=2, lr=0.1):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr)
        self.accum_steps = accum_steps
        self.accum_loss = 0.0
        self.micro_step = 0
        self.log = []

    def training_step(self, ctx, target):
        loss = F.cross_entropy(self.model(ctx), target)
        self.accum_loss = self.accum_loss + loss / self.accum_steps
        self.micro_step += 1
        if self.micro_step % self.accum_steps == 0:
            self.optimizer.zero_grad()
            self.accum_loss.backward()
            self.optimizer.step()
            self.log.append(self.accum_loss.item())
            print(f"update {len(self.log)}: loss {self.log[-1]:.4f}")
            self.accum_loss = 0.0


def micro_batches(stream, n):
    for i in range(n):
        starts = torch.randint(0, stream.numel() - CONTEXT - 1, (MICRO_BATCH,))
        ctx = torch.stack([stream[s:s + CONTEXT] for s in starts])
        yield ctx, stream[starts + CONTEXT]


if __name__ == "__main__":
    torch.manual_seed(0)
    stream = torch.tensor([1, 4, 4, 2, 9, 3, 1, 4, 4, 2, 7, 3] * 10)
    trainer = Trainer(NPLM())
    for ctx, target in micro_batches(stream, 8):
        trainer.training_step(ctx, target)
