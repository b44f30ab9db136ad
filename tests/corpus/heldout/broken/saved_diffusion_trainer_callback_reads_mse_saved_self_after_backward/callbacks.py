"""Training callbacks for the diffusion trainer: logging and collapse detection."""
import math


class Callback:
    def on_train_start(self, trainer):
        pass

    def on_after_backward(self, trainer, loss):
        pass

    def on_step_end(self, trainer, step, loss_value):
        pass


class LossPrinter(Callback):
    def __init__(self, every=1):
        self.every = every

    def on_step_end(self, trainer, step, loss_value):
        if step % self.every == 0:
            print(f"step {step} loss {loss_value:.4f} lr {trainer.optimizer.param_groups[0]['lr']:.1e}")


class PredictionCollapseMonitor(Callback):
    """Warns when the predicted noise stops having unit variance (a sign that the denoiser
    has collapsed to predicting the mean). Reads the prediction the MSE loss was built on."""

    def __init__(self, tolerance=0.5):
        self.tolerance = tolerance
        self.stds = []

    def on_after_backward(self, trainer, loss):
        eps_hat = loss.grad_fn._saved_self
        std = eps_hat.detach().std().item()
        self.stds.append(std)
        if abs(math.log(max(std, 1e-6))) > self.tolerance:
            print(f"  warning: predicted noise std {std:.3f} far from 1")
