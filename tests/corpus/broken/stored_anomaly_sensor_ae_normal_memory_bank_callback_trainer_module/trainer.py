"""A small callback-driven trainer for window autoencoders."""
import torch
import torch.nn.functional as F


class Callback:
    def on_batch_end(self, trainer, outputs):
        pass

    def on_epoch_end(self, trainer, epoch):
        pass


class NormalMemoryBank(Callback):
    """Keeps the latent codes of recent normal windows for the compactness term."""

    def __init__(self, max_batches=4):
        self.max_batches = max_batches
        self.bank = []

    def on_batch_end(self, trainer, outputs):
        self.bank.append(outputs["z"])
        if len(self.bank) > self.max_batches:
            self.bank.pop(0)

    def codes(self):
        return torch.cat(self.bank) if self.bank else None


class EpochLogger(Callback):
    def __init__(self):
        self.losses = []

    def on_batch_end(self, trainer, outputs):
        self.losses.append(outputs["loss"])

    def on_epoch_end(self, trainer, epoch):
        print(f"epoch {epoch} mean loss {sum(self.losses) / len(self.losses):.5f}")
        self.losses = []


class Trainer:
    def __init__(self, model, optimizer, memory, callbacks=(), compact_weight=0.1):
        self.model = model
        self.optimizer = optimizer
        self.memory = memory
        self.callbacks = [memory, *callbacks]
        self.compact_weight = compact_weight

    def training_step(self, batch):
        recon, z = self.model(batch)
        loss = F.mse_loss(recon, batch)
        memory = self.memory.codes()
        if memory is not None:
            nearest = torch.cdist(z, memory).min(dim=1).values
            loss = loss + self.compact_weight * nearest.mean()
        return loss, {"z": z, "loss": loss.item()}

    def fit(self, batches, epochs):
        self.model.train()
        for epoch in range(epochs):
            for batch in batches:
                loss, outputs = self.training_step(batch)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                for cb in self.callbacks:
                    cb.on_batch_end(self, outputs)
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch)
