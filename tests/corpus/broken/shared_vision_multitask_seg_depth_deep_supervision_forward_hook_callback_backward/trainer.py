"""A small callback-driven trainer for dense multi-task models (segmentation + depth)."""
import torch.nn.functional as F


class Callback:
    def on_fit_start(self, trainer):
        pass

    def on_batch_start(self, trainer):
        pass

    def on_loss(self, trainer):
        pass

    def on_epoch_end(self, trainer):
        pass


class MultiTaskTrainer:
    def __init__(self, model, optimizer, callbacks=(), depth_weight=0.5):
        self.model = model
        self.optimizer = optimizer
        self.callbacks = list(callbacks)
        self.depth_weight = depth_weight
        self.history = []

    def fire(self, event):
        for cb in self.callbacks:
            getattr(cb, event)(self)

    def fit(self, batches, epochs):
        self.fire("on_fit_start")
        for self.epoch in range(epochs):
            for self.batch in batches:
                images, seg_target, depth_target = self.batch
                self.fire("on_batch_start")
                self.optimizer.zero_grad()
                outputs = self.model(images)
                self.loss_terms = {
                    "seg": F.cross_entropy(outputs["seg"], seg_target),
                    "depth": self.depth_weight * F.l1_loss(outputs["depth"], depth_target),
                }
                self.fire("on_loss")
                loss = sum(self.loss_terms.values())
                loss.backward()
                self.optimizer.step()
                self.history.append({k: v.item() for k, v in self.loss_terms.items()})
            self.fire("on_epoch_end")
