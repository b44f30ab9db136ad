"""Rhythm classification on long ECG recordings, segment by segment."""
import torch
import torch.nn.functional as F

from stream import BeatEncoder, run_segment


def synthetic_recordings(n=6, segments=4, seg_len=12, leads=4, seed=3):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(segments * seg_len, dtype=torch.float32)
    rates = torch.tensor([0.35, 0.6, 0.9])
    labels = torch.randint(0, 3, (n,), generator=g)
    phase = rates[labels].unsqueeze(1) * t.unsqueeze(0)
    base = torch.sin(phase).unsqueeze(-1).expand(n, -1, leads)
    noise = 0.2 * torch.randn(n, segments * seg_len, leads, generator=g)
    return (base + noise).split(seg_len, dim=1), labels


class Trainer:
    def __init__(self, model, lr=0.05):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        self.log = []

    def _update(self, logits, labels):
        loss = F.cross_entropy(logits, labels)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.log.append(loss.item())

    def fit(self, segments, labels, epochs=2):
        for epoch in range(epochs):
            state = self.model.initial_state(labels.shape[0])
            for segment in segments:
                logits, state = run_segment(self.model, segment, state)
                self._update(logits, labels)
            print(f"epoch {epoch} last loss {self.log[-1]:.4f}")


def main():
    torch.manual_seed(0)
    segments, labels = synthetic_recordings()
    trainer = Trainer(BeatEncoder())
    trainer.fit(segments, labels)
    checksum = sum(p.sum().item() for p in trainer.model.parameters())
    print(f"checksum {checksum:.4f}")


if __name__ == "__main__":
    main()
