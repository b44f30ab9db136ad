"""The team's minimal Lightning-style loop: a module defines training_step() and
configure_optimizers(); the Trainer runs the optimization unless the module has switched
automatic optimization off and does it itself."""
import torch


class LitModule(torch.nn.Module):
    automatic_optimization = True

    def __init__(self):
        super().__init__()
        self.trainer = None

    def optimizers(self):
        return self.trainer.optimizer

    def log(self, name, value):
        self.trainer.logged.setdefault(name, []).append(float(value))

    def on_train_epoch_end(self):
        pass


class Trainer:
    def __init__(self, max_epochs=1, gradient_clip_val=None):
        self.max_epochs = max_epochs
        self.gradient_clip_val = gradient_clip_val
        self.optimizer = None
        self.logged = {}
        self.current_epoch = 0

    def fit(self, module, batches):
        module.trainer = self
        self.optimizer = module.configure_optimizers()
        module.train()
        for epoch in range(self.max_epochs):
            self.current_epoch = epoch
            for batch_idx, batch in enumerate(batches):
                out = module.training_step(batch, batch_idx)
                loss = out["loss"] if isinstance(out, dict) else out
                if module.automatic_optimization:
                    self.optimizer.zero_grad()
                    loss.backward()
                    if self.gradient_clip_val:
                        torch.nn.utils.clip_grad_norm_(module.parameters(),
                                                       self.gradient_clip_val)
                    self.optimizer.step()
            module.on_train_epoch_end()
