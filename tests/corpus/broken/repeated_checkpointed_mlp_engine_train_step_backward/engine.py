"""A minimal training engine: backward, gradient clipping, optimizer step, bookkeeping."""
import torch


class Engine:
    def __init__(self, model, optimizer, max_grad_norm=1.0):
        self.model, self.optimizer = model, optimizer
        self.max_grad_norm = max_grad_norm
        self.global_step = 0
        self.grad_norms = []

    def train_step(self, loss):
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_grad_norm)
        self.grad_norms.append(float(norm))
        self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)
        self.global_step += 1
        return loss.item()
