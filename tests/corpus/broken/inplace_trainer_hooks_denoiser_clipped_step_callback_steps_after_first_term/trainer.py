"""A small callback-driven trainer. Loss terms are backwarded one at a time so callbacks can
look at each term's gradients; the optimizer step itself belongs to a callback (StepCallback
by default) so schedules, clipping and accumulation can be swapped in."""
import torch


class Callback:
    def on_fit_start(self, trainer):
        pass

    def on_after_backward(self, trainer, term):
        pass

    def on_batch_end(self, trainer):
        pass


class StepCallback(Callback):
    def on_batch_end(self, trainer):
        trainer.optimizer.step()


class Trainer:
    def __init__(self, model, optimizer, loss_terms, callbacks=None):
        self.model = model
        self.optimizer = optimizer
        self.loss_terms = loss_terms
        self.callbacks = list(callbacks) if callbacks else [StepCallback()]
        self.history = []

    def fire(self, hook, *args):
        for cb in self.callbacks:
            getattr(cb, hook)(self, *args)

    def train_batch(self, noisy, clean):
        out = self.model(noisy)
        terms = self.loss_terms(out, clean)
        self.optimizer.zero_grad()
        names = list(terms)
        for i, name in enumerate(names):
            terms[name].backward(retain_graph=i < len(names) - 1)
            self.fire("on_after_backward", name)
        self.fire("on_batch_end")
        return {name: t.item() for name, t in terms.items()}

    def fit(self, batches, epochs):
        self.fire("on_fit_start")
        for epoch in range(epochs):
            for noisy, clean in batches:
                logs = self.train_batch(noisy, clean)
            self.history.append(logs)
            print(f"epoch {epoch} " + " ".join(f"{k} {v:.5f}" for k, v in logs.items()))
