import torch


class Callback:
    def on_fit_start(self, trainer, module):
        pass

    def on_before_backward(self, trainer, outputs, batch_idx):
        return outputs["loss"]

    def on_train_batch_end(self, trainer, outputs, batch_idx):
        pass

    def on_train_epoch_end(self, trainer, module):
        pass


class Trainer:
    def __init__(self, max_epochs=1, callbacks=()):
        self.max_epochs = max_epochs
        self.callbacks = list(callbacks)
        self.current_epoch = 0
        self.global_step = 0

    def fit(self, module, loader):
        opt = module.configure_optimizers()
        for cb in self.callbacks:
            cb.on_fit_start(self, module)
        for epoch in range(self.max_epochs):
            self.current_epoch = epoch
            for batch_idx, batch in enumerate(loader):
                outputs = module.training_step(batch, batch_idx)
                for cb in self.callbacks:
                    outputs["loss"] = cb.on_before_backward(self, outputs, batch_idx)
                opt.zero_grad()
                outputs["loss"].backward()
                opt.step()
                self.global_step += 1
                for cb in self.callbacks:
                    cb.on_train_batch_end(self, outputs, batch_idx)
            for cb in self.callbacks:
                cb.on_train_epoch_end(self, module)
