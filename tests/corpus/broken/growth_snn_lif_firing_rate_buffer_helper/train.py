"""Two-layer spiking classifier on rate-coded synthetic patterns (Poisson spike trains),
trained with surrogate gradients. Every few steps the script logs each layer's
firing-rate trace, which the LIF layers keep themselves (neurons.py)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from neurons import LIFLayer

torch.manual_seed(0)
N_IN, N_HID, N_CLASSES, T_STEPS, BATCH, STEPS = 20, 32, 3, 12, 16, 10


class SpikingClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.lif1 = LIFLayer(N_IN, N_HID)
        self.lif2 = LIFLayer(N_HID, N_HID)
        self.readout = nn.Linear(N_HID, N_CLASSES)

    def forward(self, x_seq):
        spikes = self.lif2(self.lif1(x_seq))
        return self.readout(spikes.mean(0))


def poisson_batch(prototypes, batch):
    labels = torch.randint(0, N_CLASSES, (batch,))
    rates = prototypes[labels]
    return (torch.rand(T_STEPS, batch, N_IN) < rates).float(), labels


def train():
    prototypes = 0.1 + 0.7 * torch.rand(N_CLASSES, N_IN)
    model = SpikingClassifier()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    for step in range(STEPS):
        x_seq, labels = poisson_batch(prototypes, BATCH)
        logits = model(x_seq)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (logits.argmax(1) == labels).float().mean().item()
        if step % 3 == 0 or step == STEPS - 1:
            rate1 = model.lif1.firing_rate.mean()
            rate2 = model.lif2.firing_rate.mean()
            print(f"step {step} loss {loss.item():.4f} acc {acc:.2f} "
                  f"rate lif1 {rate1:.3f} lif2 {rate2:.3f}")
    return model


if __name__ == "__main__":
    train()
