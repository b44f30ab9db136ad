"""Multi-task text classification with a frozen toy encoder and hypernetwork-generated
adapters. A round-robin generator feeds batches of the two tasks (sentiment, topic) in
turn; a small Trainer with callbacks runs the epochs."""
import torch
import torch.nn as nn
import torch.nn.functional as F

import adapters

VOCAB, D, LAYERS, SEQ = 50, 16, 2, 6
TASKS = {"sentiment": 2, "topic": 3}


class FrozenEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, D)
        self.layers = nn.ModuleList(nn.Sequential(nn.Linear(D, D), nn.Tanh()) for _ in range(LAYERS))
        self.requires_grad_(False)


class AdapterClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = FrozenEncoder()
        self.hypernet = adapters.AdapterHyperNet(len(TASKS), LAYERS, D, bottleneck=4)
        self.heads = nn.ModuleList(nn.Linear(D, n) for n in TASKS.values())

    def forward(self, tokens, task_id):
        x = self.encoder.embed(tokens)
        for i, layer in enumerate(self.encoder.layers):
            x = adapters.apply_adapter(layer(x), self.hypernet, task_id, i)
        return self.heads[task_id](x.mean(dim=1))


def round_robin_batches(n_per_task, batch_size, gen):
    names = list(TASKS)
    for _ in range(n_per_task):
        for task_id, name in enumerate(names):
            tokens = torch.randint(0, VOCAB, (batch_size, SEQ), generator=gen)
            labels = tokens[:, 0] % TASKS[name]
            yield task_id, tokens, labels


class CacheResetCallback:
    def on_epoch_start(self, trainer, epoch):
        adapters.clear_cache()


class LossLogger:
    def __init__(self):
        self.per_task = {name: [] for name in TASKS}

    def on_batch_end(self, trainer, task_id, loss):
        self.per_task[list(TASKS)[task_id]].append(loss.item())

    def on_epoch_end(self, trainer, epoch):
        means = {k: round(sum(v) / len(v), 4) for k, v in self.per_task.items() if v}
        print(f"epoch {epoch} {means}")


class Trainer:
    def __init__(self, model, callbacks):
        self.model = model
        self.callbacks = callbacks
        params = [p for p in model.parameters() if p.requires_grad]
        self.optimizer = torch.optim.AdamW(params, lr=3e-3)

    def fire(self, event, *args):
        for cb in self.callbacks:
            if hasattr(cb, event):
                getattr(cb, event)(self, *args)

    def fit(self, epochs, gen):
        for epoch in range(epochs):
            self.fire("on_epoch_start", epoch)
            for task_id, tokens, labels in round_robin_batches(2, 8, gen):
                loss = F.cross_entropy(self.model(tokens, task_id), labels)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                self.fire("on_batch_end", task_id, loss)
            self.fire("on_epoch_end", epoch)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    trainer = Trainer(AdapterClassifier(), [CacheResetCallback(), LossLogger()])
    trainer.fit(epochs=2, gen=gen)


if __name__ == "__main__":
    main()
