"""Trains CharRNN on a tiny text with a small Trainer class (stateful, TBPTT-style batches)."""
import torch
import torch.nn.functional as F

from model import CharRNN

TEXT = "to be or not to be that is the question whether tis nobler in the mind to suffer " * 2


class Trainer:
    def __init__(self, model, lr=1e-2, seq_len=6, batch_size=2):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.seq_len, self.batch_size = seq_len, batch_size
        self.history = []

    def batches(self, ids):
        n = ids.numel() // self.batch_size
        data = ids[: n * self.batch_size].view(self.batch_size, n)
        for start in range(0, n - self.seq_len - 1, self.seq_len):
            yield data[:, start:start + self.seq_len], data[:, start + 1:start + 1 + self.seq_len]

    def train_step(self, x, y):
        logits = self.model(x, self.model.hidden)
        loss = F.cross_entropy(logits.flatten(0, 1), y.flatten())
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, ids, epochs=1, max_steps=5):
        for epoch in range(epochs):
            self.model.reset_state(self.batch_size)
            for step, (x, y) in enumerate(self.batches(ids)):
                if step == max_steps:
                    break
                self.history.append(self.train_step(x, y))
                print(f"epoch {epoch} step {step} loss {self.history[-1]:.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    chars = sorted(set(TEXT))
    ids = torch.tensor([chars.index(c) for c in TEXT])
    Trainer(CharRNN(len(chars))).fit(ids)
