"""Two-layer leaky integrate-and-fire network classifying rate-coded patterns, trained with
a fast-sigmoid surrogate gradient. As in the snnTorch tutorials, the loss is the
cross-entropy of the output membrane potential summed over every simulation step."""
import torch
import torch.nn as nn

torch.manual_seed(0)

NUM_INPUTS, NUM_HIDDEN, NUM_OUTPUTS, NUM_STEPS, BETA = 20, 32, 4, 8, 0.9


class FastSigmoidSpike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, mem):
        ctx.save_for_backward(mem)
        return (mem > 0).float()

    @staticmethod
    def backward(ctx, grad_output):
        (mem,) = ctx.saved_tensors
        return grad_output / (1.0 + 10.0 * mem.abs()) ** 2


spike = FastSigmoidSpike.apply


class LIFNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(NUM_INPUTS, NUM_HIDDEN)
        self.fc2 = nn.Linear(NUM_HIDDEN, NUM_OUTPUTS)

    def forward(self, x):
        mem1 = torch.zeros(x.size(1), NUM_HIDDEN)
        mem2 = torch.zeros(x.size(1), NUM_OUTPUTS)
        spk2_rec, mem2_rec = [], []
        for step in range(NUM_STEPS):
            mem1 = BETA * mem1 + self.fc1(x[step])
            spk1 = spike(mem1 - 1.0)
            mem1 = mem1 - spk1
            mem2 = BETA * mem2 + self.fc2(spk1)
            spk2 = spike(mem2 - 1.0)
            mem2 = mem2 - spk2
            spk2_rec.append(spk2)
            mem2_rec.append(mem2)
        return torch.stack(spk2_rec), torch.stack(mem2_rec)


prototypes = torch.rand(NUM_OUTPUTS, NUM_INPUTS)
train_set = []
for _ in range(3):
    targets = torch.randint(0, NUM_OUTPUTS, (16,))
    rates = prototypes[targets].clamp(0.05, 0.95)
    train_set.append((torch.bernoulli(rates.expand(NUM_STEPS, -1, -1)), targets))

net = LIFNet()
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(net.parameters(), lr=5e-3, betas=(0.9, 0.999))

loss_val = torch.zeros((1))
for epoch in range(2):
    for i, (data, targets) in enumerate(train_set):
        net.train()
        spk_rec, mem_rec = net(data)
        for step in range(NUM_STEPS):
            loss_val += loss_fn(mem_rec[step], targets)
        optimizer.zero_grad()
        loss_val.backward()
        optimizer.step()
        acc = (spk_rec.sum(0).argmax(1) == targets).float().mean()
        print(f"epoch {epoch} iter {i} loss {loss_val.item():.3f} accuracy {acc.item():.3f}")
