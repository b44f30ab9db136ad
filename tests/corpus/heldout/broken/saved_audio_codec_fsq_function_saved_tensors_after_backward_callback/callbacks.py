"""Training callbacks for the codec trainer."""


class LossPrinter:
    def on_after_backward(self, trainer):
        pass

    def on_step_end(self, trainer):
        print(f"step {trainer.step} loss {trainer.state['loss'].item():.4f}")


class QuantizerStats:
    """How many latents fall outside the quantiser range (their gradient is clipped)?"""

    def __init__(self, levels):
        self.levels = levels
        self.history = []

    def on_after_backward(self, trainer):
        codes = trainer.state["codes"]
        latents, = codes.grad_fn.saved_tensors
        clipped = (latents.abs() > self.levels).float().mean().item()
        self.history.append(clipped)

    def on_step_end(self, trainer):
        print(f"    clipped latents {self.history[-1]:.3f}")
