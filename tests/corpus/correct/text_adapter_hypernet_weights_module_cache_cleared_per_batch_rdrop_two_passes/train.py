"""Multi-task text classification with a frozen toy encoder, hypernetwork adapters and
R-Drop regularisation (two dropout passes per batch, symmetric KL between them)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

import adapters

VOCAB, D, LAYERS, SEQ = 50, 16, 2, 6
TASKS = {"sentiment": 2, "topic": 3}


class AdapterClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, D).requires_grad_(False)
        self.layers = nn.ModuleList(nn.Sequential(nn.Linear(D, D), nn.Tanh()) for _ in range(LAYERS))
        self.layers.requires_grad_(False)
        self.hypernet = adapters.AdapterHyperNet(len(TASKS), LAYERS, D, bottleneck=4)
        self.heads = nn.ModuleList(nn.Linear(D, n) for n in TASKS.values())

    def forward(self, tokens, task_id):
        x = self.embed(tokens)
        for i, layer in enumerate(self.layers):
            x = adapters.apply_adapter(layer(x), self.hypernet, task_id, i, 0.2, self.training)
        return self.heads[task_id](x.mean(dim=1))


def task_batches(n_rounds, batch_size, gen):
    for _ in range(n_rounds):
        for task_id, n_cls in enumerate(TASKS.values()):
            tokens = torch.randint(0, VOCAB, (batch_size, SEQ), generator=gen)
            yield task_id, tokens, tokens[:, 0] % n_cls


class FreshAdapterWeights:
    def on_batch_start(self, trainer):
        adapters.clear_cache()


class TaskLossLog:
    def __init__(self):
        self.sums, self.counts = {}, {}

    def on_batch_end(self, trainer, task_id, loss):
        self.sums[task_id] = self.sums.get(task_id, 0.0) + loss.item()
        self.counts[task_id] = self.counts.get(task_id, 0) + 1

    def on_epoch_end(self, trainer, epoch):
        names = list(TASKS)
        print(f"epoch {epoch}", {names[k]: round(v / self.counts[k], 4) for k, v in self.sums.items()})
        self.sums, self.counts = {}, {}


class Trainer:
    def __init__(self, model, callbacks, alpha=1.0):
        self.model, self.callbacks, self.alpha = model, callbacks, alpha
        self.optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=3e-3)

    def fire(self, event, *args):
        for cb in self.callbacks:
            if hasattr(cb, event):
                getattr(cb, event)(self, *args)

    def step(self, task_id, tokens, labels):
        logits_a = self.model(tokens, task_id)
        logits_b = self.model(tokens, task_id)
        ce = (F.cross_entropy(logits_a, labels) + F.cross_entropy(logits_b, labels)) / 2
        la, lb = logits_a.log_softmax(-1), logits_b.log_softmax(-1)
        kl = (F.kl_div(la, lb, log_target=True, reduction="batchmean")
              + F.kl_div(lb, la, log_target=True, reduction="batchmean")) / 2
        return ce + self.alpha * kl

    def fit(self, epochs, gen):
        self.model.train()
        for epoch in range(epochs):
            for task_id, tokens, labels in task_batches(2, 8, gen):
                self.fire("on_batch_start")
                loss = self.step(task_id, tokens, labels)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                self.fire("on_batch_end", task_id, loss)
            self.fire("on_epoch_end", epoch)


def main():
    torch.manual_seed(0)
    model = AdapterClassifier()
    Trainer(model, [FreshAdapterWeights(), TaskLossLog()]).fit(2, torch.Generator().manual_seed(0))
    print("checksum", round(sum(p.sum().item() for p in model.hypernet.parameters()), 5))


if __name__ == "__main__":
    main()
