"""Callbacks for the Trainer: loss history and a simple early-stopping monitor."""


class Callback:
    def on_step_end(self, trainer, step, logs):
        pass

    def on_fit_end(self, trainer):
        pass


class LossHistory(Callback):
    def __init__(self):
        self.losses = []

    def on_step_end(self, trainer, step, logs):
        self.losses.append(logs["loss"])
        print(f"step {step} loss {logs['loss']:.4f} acc {logs['acc']:.3f}")


class PlateauWarning(Callback):
    def __init__(self, patience=4, min_delta=1e-3):
        self.patience, self.min_delta = patience, min_delta
        self.best, self.bad_steps = float("inf"), 0

    def on_step_end(self, trainer, step, logs):
        if logs["loss"] < self.best - self.min_delta:
            self.best, self.bad_steps = logs["loss"], 0
        else:
            self.bad_steps += 1

    def on_fit_end(self, trainer):
        if self.bad_steps >= self.patience:
            print(f"warning: loss has not improved for {self.bad_steps} steps")
