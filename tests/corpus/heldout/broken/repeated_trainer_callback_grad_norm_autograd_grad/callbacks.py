"""Callbacks used by our experiments."""
import torch


class Callback:
    def on_before_backward(self, trainer, loss):
        pass

    def on_after_backward(self, trainer):
        pass

    def on_batch_end(self, trainer, loss_value):
        pass

    def on_epoch_end(self, trainer, epoch):
        pass


class GradNormMonitor(Callback):
    """Records the global L2 norm of the loss gradient w.r.t. the trainable parameters."""

    def __init__(self):
        self.norms = []

    def on_before_backward(self, trainer, loss):
        params = [p for p in trainer.model.parameters() if p.requires_grad]
        grads = torch.autograd.grad(loss, params)
        self.norms.append(torch.sqrt(sum(g.pow(2).sum() for g in grads)).item())


class EpochLogger(Callback):
    def __init__(self, monitor):
        self.monitor = monitor
        self.losses = []

    def on_batch_end(self, trainer, loss_value):
        self.losses.append(loss_value)

    def on_epoch_end(self, trainer, epoch):
        mean_loss = sum(self.losses) / len(self.losses)
        print(f"epoch {epoch} step {trainer.global_step} loss {mean_loss:.4f} "
              f"grad norm {self.monitor.norms[-1]:.4f}")
        self.losses.clear()
