"""Two-layer spiking network (leaky integrate-and-fire, sigmoid surrogate gradient) for
event-camera gesture snippets. For the homeostasis plot after training, the hidden layer's
mean firing rate per neuron is recorded at every step."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_IN, N_HID, N_CLASSES, T, BATCH = 24, 40, 4, 8, 16


def spike(v, slope=5.0):
    surrogate = torch.sigmoid(slope * v)
    return (v > 0).float() + surrogate - surrogate.detach()


class LIFNet(nn.Module):
    def __init__(self, beta=0.85, threshold=1.0):
        super().__init__()
        self.fc1 = nn.Linear(N_IN, N_HID)
        self.fc2 = nn.Linear(N_HID, N_CLASSES)
        self.beta, self.threshold = beta, threshold

    def forward(self, events):
        mem1 = torch.zeros(events.shape[1], N_HID)
        mem2 = torch.zeros(events.shape[1], N_CLASSES)
        hidden_spikes, out_mem = [], []
        for t in range(events.shape[0]):
            mem1 = self.beta * mem1 + self.fc1(events[t])
            spk1 = spike(mem1 - self.threshold)
            mem1 = mem1 - spk1 * self.threshold
            mem2 = self.beta * mem2 + self.fc2(spk1)
            hidden_spikes.append(spk1)
            out_mem.append(mem2)
        return torch.stack(out_mem), torch.stack(hidden_spikes)


def gesture_batch():
    labels = torch.randint(0, N_CLASSES, (BATCH,))
    templates = torch.linspace(0.05, 0.6, N_IN).repeat(N_CLASSES, 1)
    for c in range(N_CLASSES):
        templates[c] = templates[c].roll(6 * c)
    return (torch.rand(T, BATCH, N_IN) < templates[labels]).float(), labels


def main(steps=10):
    net = LIFNet()
    optimizer = torch.optim.Adam(net.parameters(), lr=5e-3)
    history = {"loss": [], "hidden_rate": []}
    for step in range(steps):
        events, labels = gesture_batch()
        out_mem, hidden_spikes = net(events)
        loss = F.cross_entropy(out_mem.mean(0), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        history["loss"].append(loss.item())
        history["hidden_rate"].append(hidden_spikes.mean(dim=(0, 1)))
        acc = (out_mem.mean(0).argmax(1) == labels).float().mean().item()
        print(f"step {step}  loss {history['loss'][-1]:.4f}  acc {acc:.2f}")
    rates = torch.stack(history["hidden_rate"])
    print(f"mean hidden rate first {rates[0].mean().item():.3f} last {rates[-1].mean().item():.3f}")
    print(f"silent neurons at the end: {(rates[-1] == 0).sum().item()}")


if __name__ == "__main__":
    main()
