"""Training callbacks: a loss logger and a monitor for saturated tanh units."""


class Callback:
    def on_train_begin(self, trainer):
        pass

    def on_step_end(self, trainer, step, loss):
        pass


class LossLogger(Callback):
    def __init__(self, every=2):
        self.every = every
        self.losses = []

    def on_step_end(self, trainer, step, loss):
        self.losses.append(loss)
        if step % self.every == 0:
            print(f"step {step} loss {loss:.4f}")


class SaturationMonitor(Callback):
    """Share of encoder units with |tanh| above a threshold."""

    def __init__(self, threshold=0.5):
        self.threshold = threshold
        self.acts = None
        self.history = []

    def on_train_begin(self, trainer):
        trainer.model.encoder.register_forward_hook(self._keep_acts)

    def _keep_acts(self, module, inputs, output):
        self.acts = output.detach()

    def on_step_end(self, trainer, step, loss):
        self.history.append((self.acts.abs() > self.threshold).float().mean().item())
        print(f"step {step} saturated {self.history[-1]:.3f}")
