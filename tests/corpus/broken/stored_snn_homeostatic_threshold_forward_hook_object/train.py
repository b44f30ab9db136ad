"""Two-layer spiking network (LIF neurons, surrogate gradients) on rate-coded patterns.
Homeostasis is added without touching the layer code: a forward-hook object watches each
hidden layer's firing rate and moves the neurons' thresholds toward a target rate."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_IN, N_HID, N_CLASSES, T_STEPS, BATCH = 20, 32, 4, 8, 16


def spike_fn(x):
    surrogate = torch.sigmoid(5.0 * x)
    return (x > 0).float() + surrogate - surrogate.detach()


class LIFLayer(nn.Module):
    def __init__(self, n_in, n_out, beta=0.85):
        super().__init__()
        self.fc = nn.Linear(n_in, n_out)
        self.beta = beta
        self.theta_offset = torch.zeros(n_out)  # set by HomeostaticThreshold

    def forward(self, x_seq):
        mem = torch.zeros(x_seq.size(1), self.fc.out_features)
        thresh = 1.0 + self.theta_offset
        spikes = []
        for x in x_seq:
            mem = self.beta * mem + self.fc(x)
            s = spike_fn(mem - thresh)
            mem = mem - s * thresh
            spikes.append(s)
        return torch.stack(spikes)


class HomeostaticThreshold:
    """Forward hook: theta <- theta + rate * (firing rate - target), per neuron."""

    def __init__(self, n, target=0.15, rate=0.5):
        self.theta = torch.zeros(n)
        self.target, self.rate = target, rate

    def __call__(self, module, inputs, output):
        firing = output.mean(dim=(0, 1))
        self.theta = (self.theta + self.rate * (firing - self.target)).clamp(-0.5, 0.5)
        module.theta_offset = self.theta


class SpikingClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.ModuleList([LIFLayer(N_IN, N_HID), LIFLayer(N_HID, N_HID)])
        self.readout = nn.Linear(N_HID, N_CLASSES)

    def forward(self, x_seq):
        for layer in self.hidden:
            x_seq = layer(x_seq)
        return self.readout(x_seq.mean(dim=0))


def rate_coded_batch(prototypes):
    labels = torch.randint(0, N_CLASSES, (BATCH,))
    rates = prototypes[labels]
    return torch.bernoulli(rates.expand(T_STEPS, -1, -1)), labels


def train(epochs=2, batches_per_epoch=3):
    torch.manual_seed(0)
    model = SpikingClassifier()
    homeostasis = [HomeostaticThreshold(N_HID) for _ in model.hidden]
    for layer, hook in zip(model.hidden, homeostasis):
        layer.register_forward_hook(hook)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    prototypes = 0.05 + 0.6 * torch.rand(N_CLASSES, N_IN)
    for epoch in range(epochs):
        for b in range(batches_per_epoch):
            spikes_in, labels = rate_coded_batch(prototypes)
            loss = F.cross_entropy(model(spikes_in), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            mean_theta = [round(h.theta.mean().item(), 4) for h in homeostasis]
            print(f"epoch {epoch} batch {b} loss {loss.item():.4f} theta {mean_theta}")


if __name__ == "__main__":
    train()
