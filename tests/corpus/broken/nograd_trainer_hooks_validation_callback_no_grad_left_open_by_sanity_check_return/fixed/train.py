"""Routes customer-support tickets to one of four queues from their token ids with an
EmbeddingBag classifier. A small Trainer calls callbacks around validation and epochs and
runs a one-batch validation sanity check before training, like the big frameworks do."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import EvalModeCallback, HistoryCallback

torch.manual_seed(4)
VOCAB, N_QUEUES, TICKET_LEN = 200, 4, 12


class TicketRouter(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.EmbeddingBag(VOCAB, 32, mode="mean")
        self.mlp = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, N_QUEUES))

    def forward(self, tokens):
        return self.mlp(self.embed(tokens))


def make_tickets(n):
    queue = torch.randint(0, N_QUEUES, (n,))
    tokens = torch.randint(0, VOCAB, (n, TICKET_LEN))
    tokens[:, :3] = queue.unsqueeze(1) * 50 + torch.randint(0, 10, (n, 3))  # queue keywords
    return tokens, queue


class Trainer:
    def __init__(self, model, callbacks, lr=1e-2):
        self.model, self.callbacks = model, callbacks
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.epoch, self.last_train_loss, self.last_val_loss = 0, float("nan"), float("nan")

    def _fire(self, hook):
        for cb in self.callbacks:
            if hasattr(cb, hook):
                getattr(cb, hook)(self)

    def validate(self, batches, max_batches=None):
        self._fire("on_validation_start")
        total, seen = 0.0, 0
        for i, (tokens, queue) in enumerate(batches):
            if max_batches is not None and i >= max_batches:
                break
            total += F.cross_entropy(self.model(tokens), queue).item()
            seen += 1
        self.last_val_loss = total / seen
        self._fire("on_validation_end")
        return self.last_val_loss

    def training_step(self, tokens, queue):
        logits = self.model(tokens)
        loss = F.cross_entropy(logits, queue)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, train_batches, val_batches, epochs):
        print(f"sanity check val loss {self.validate(val_batches, max_batches=1):.4f}")
        for self.epoch in range(epochs):
            losses = [self.training_step(t, q) for t, q in train_batches]
            self.last_train_loss = sum(losses) / len(losses)
            self._fire("on_epoch_end")
            print(f"epoch {self.epoch} val loss {self.validate(val_batches):.4f}")


if __name__ == "__main__":
    tokens, queue = make_tickets(160)
    train_batches = [(tokens[i:i + 40], queue[i:i + 40]) for i in range(0, 120, 40)]
    val_batches = [(tokens[120:140], queue[120:140]), (tokens[140:], queue[140:])]
    trainer = Trainer(TicketRouter(), [EvalModeCallback(), HistoryCallback()])
    trainer.fit(train_batches, val_batches, epochs=2)
    print(f"checksum {sum(p.sum().item() for p in trainer.model.parameters()):.4f}")
