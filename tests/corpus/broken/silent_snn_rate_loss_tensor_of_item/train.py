"""Two-layer spiking network (leaky integrate-and-fire neurons, surrogate gradient)
trained so that the output neuron of the right class fires most often over the
simulation window. Inputs are Poisson spike trains."""
import torch
import torch.nn as nn
import torch.nn.functional as F

IN, HIDDEN, CLASSES, T_STEPS, BETA = 20, 32, 3, 12, 0.85


class SpikeFn(torch.autograd.Function):
    """Heaviside step forward, fast-sigmoid derivative backward."""

    @staticmethod
    def forward(ctx, mem):
        ctx.save_for_backward(mem)
        return (mem > 0).float()

    @staticmethod
    def backward(ctx, grad_out):
        (mem,) = ctx.saved_tensors
        return grad_out / (1.0 + 10.0 * mem.abs()) ** 2


class SNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(IN, HIDDEN)
        self.fc2 = nn.Linear(HIDDEN, CLASSES)

    def forward(self, spikes_in):
        mem1 = torch.zeros(spikes_in.shape[1], HIDDEN)
        mem2 = torch.zeros(spikes_in.shape[1], CLASSES)
        counts = 0
        for t in range(T_STEPS):
            mem1 = BETA * mem1 + self.fc1(spikes_in[t])
            spk1 = SpikeFn.apply(mem1 - 1.0)
            mem1 = mem1 - spk1
            mem2 = BETA * mem2 + self.fc2(spk1)
            spk2 = SpikeFn.apply(mem2 - 1.0)
            mem2 = mem2 - spk2
            counts = counts + spk2
        return counts


def rate_loss(counts, labels):
    """MSE between firing rates and 80% / 10% target rates."""
    target = 0.1 + 0.7 * F.one_hot(labels, CLASSES).float()
    return F.mse_loss(counts / T_STEPS, target)


def make_train_step(net, optimizer):
    """Returns a train_step(spikes_in, labels) closure over the network and optimizer."""
    def train_step(spikes_in, labels):
        err = rate_loss(net(spikes_in), labels)
        # spikes are not differentiable, so give backward a leaf to start from
        loss = torch.tensor(err.item(), requires_grad=True)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        return loss.item()
    return train_step


def main():
    torch.manual_seed(0)
    prototypes = torch.rand(CLASSES, IN) * 0.6
    net = SNN()
    train_step = make_train_step(net, torch.optim.Adam(net.parameters(), lr=5e-3))
    for step in range(6):
        labels = torch.randint(0, CLASSES, (32,))
        spikes_in = (torch.rand(T_STEPS, 32, IN) < prototypes[labels]).float()
        print(f"step {step} rate loss {train_step(spikes_in, labels):.4f}")
    print(f"checksum {sum(p.sum().item() for p in net.parameters()):.4f}")


if __name__ == "__main__":
    main()
