"""A Lightning-like mini trainer: the module supplies training_step and configure_optimizers."""


class MiniTrainer:
    def __init__(self, max_epochs=1, log_every=1):
        self.max_epochs = max_epochs
        self.log_every = log_every
        self.global_step = 0

    def _make_closure(self, loss):
        # optimizers such as LBFGS re-evaluate through a closure; others just call it once
        def closure():
            # fit() has already run loss.backward(); only report the loss here
            return loss
        return closure

    def fit(self, module, train_batches):
        optimizer = module.configure_optimizers()
        module.train()
        for epoch in range(self.max_epochs):
            for batch_idx, batch in enumerate(train_batches):
                loss = module.training_step(batch, batch_idx)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step(self._make_closure(loss))
                self.global_step += 1
                if self.global_step % self.log_every == 0:
                    print(f"epoch {epoch} step {self.global_step} loss {loss.item():.4f}")
