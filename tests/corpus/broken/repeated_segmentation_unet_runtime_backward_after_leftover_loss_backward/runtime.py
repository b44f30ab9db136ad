"""A very small stand-in for an `accelerate`-style runtime: device placement, gradient
accumulation bookkeeping, and the backward call that goes with it."""
import torch


class Runtime:
    def __init__(self, grad_accum_steps=1, max_grad_norm=None, device="cpu"):
        self.grad_accum_steps = grad_accum_steps
        self.max_grad_norm = max_grad_norm
        self.device = torch.device(device)
        self._micro_step = 0

    def prepare(self, model, optimizer):
        return model.to(self.device), optimizer

    @property
    def sync_gradients(self):
        return self._micro_step % self.grad_accum_steps == 0

    def backward(self, loss):
        """Use this instead of loss.backward(): scales the loss for gradient accumulation."""
        self._micro_step += 1
        (loss / self.grad_accum_steps).backward()

    def step(self, model, optimizer):
        if not self.sync_gradients:
            return False
        if self.max_grad_norm is not None:
            torch.nn.utils.clip_grad_norm_(model.parameters(), self.max_grad_norm)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        return True
