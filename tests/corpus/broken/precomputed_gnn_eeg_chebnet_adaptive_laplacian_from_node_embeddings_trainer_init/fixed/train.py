"""Seizure / non-seizure classification of EEG windows: each window is a graph of 10
electrodes whose features are 5 spectral band powers; the electrode graph is learned."""
import torch
import torch.nn.functional as F

from model import SeizureChebNet

N_ELECTRODES, N_BANDS, HIDDEN = 10, 5, 16


def make_windows(n):
    labels = torch.randint(0, 2, (n,))
    x = torch.randn(n, N_ELECTRODES, N_BANDS)
    x[labels == 1, :4, 1] += 1.5  # theta-band burst over the frontal electrodes
    return x, labels


class Trainer:
    def __init__(self, model, lr=5e-3, batch_size=8):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.batch_size = batch_size

    def train_step(self, x, y):
        # the graph is learned: rebuild its Laplacian from the current embeddings every step
        lap = self.model.graph.scaled_laplacian()
        logits = self.model(x, lap)
        loss = F.cross_entropy(logits, y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item(), (logits.argmax(1) == y).float().mean().item()

    def fit(self, x, y, epochs):
        for epoch in range(epochs):
            for start in range(0, len(x), self.batch_size):
                loss, acc = self.train_step(x[start:start + self.batch_size],
                                            y[start:start + self.batch_size])
            print(f"epoch {epoch} loss {loss:.4f} acc {acc:.2f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    x, y = make_windows(24)
    Trainer(SeizureChebNet(N_ELECTRODES, N_BANDS, HIDDEN)).fit(x, y, epochs=3)
