"""Class-incremental learning on a stream of three synthetic tasks (two new classes each)
with latent replay. The backbone is kept slow (lower learning rate) so stored latents stay
meaningful; the head learns at full pace on current and replayed latents."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from replay import LatentReplayCallback

IN_DIM, LATENT, N_CLASSES, BATCH, BATCHES_PER_TASK = 20, 16, 6, 10, 2


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(IN_DIM, 32), nn.ReLU(), nn.Linear(32, LATENT), nn.ReLU())
        self.head = nn.Linear(LATENT, N_CLASSES)


class ContinualTrainer:
    def __init__(self, model, callbacks):
        self.model = model
        self.callbacks = callbacks
        self.optimizer = torch.optim.SGD([
            {"params": model.backbone.parameters(), "lr": 0.01},
            {"params": model.head.parameters(), "lr": 0.1},
        ], momentum=0.9)

    def fit_batch(self, x, y):
        latents = self.model.backbone(x)
        loss = F.cross_entropy(self.model.head(latents), y)
        for cb in self.callbacks:
            extra = cb.replay_loss(self)
            if extra is not None:
                loss = loss + extra
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        for cb in self.callbacks:
            cb.on_batch_end(self, latents, y)
        return loss.item()


def task_stream(prototypes):
    for task in range(N_CLASSES // 2):
        for _ in range(BATCHES_PER_TASK):
            y = 2 * task + torch.randint(0, 2, (BATCH,))
            yield task, prototypes[y] + 0.4 * torch.randn(BATCH, IN_DIM), y


def main():
    torch.manual_seed(0)
    prototypes = torch.randn(N_CLASSES, IN_DIM)
    replay = LatentReplayCallback()
    trainer = ContinualTrainer(Net(), [replay])
    for step, (task, x, y) in enumerate(task_stream(prototypes)):
        loss = trainer.fit_batch(x, y)
        print(f"task {task} step {step} loss {loss:.4f} memory {len(replay.memory)}")


if __name__ == "__main__":
    main()
