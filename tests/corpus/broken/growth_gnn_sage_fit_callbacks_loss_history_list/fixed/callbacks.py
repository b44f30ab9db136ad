"""Minimal Keras-style callbacks for the graph experiments."""
import torch


class Callback:
    def on_epoch_end(self, epoch, logs):
        pass

    def on_train_end(self):
        pass


class LossHistory(Callback):
    """Keeps the per-epoch training loss and prints a smoothed learning curve at the end."""

    def __init__(self, smoothing=0.6):
        self.smoothing = smoothing
        self.losses = []

    def on_epoch_end(self, epoch, logs):
        self.losses.append(logs["loss"].detach())

    def on_train_end(self):
        curve = torch.stack(self.losses)
        smoothed, value = [], curve[0]
        for x in curve:
            value = self.smoothing * value + (1 - self.smoothing) * x
            smoothed.append(f"{value:.3f}")
        print("smoothed loss curve:", " ".join(smoothed))


class EarlyStopping(Callback):
    def __init__(self, patience=3):
        self.patience, self.best, self.bad_epochs = patience, float("inf"), 0
        self.stop = False

    def on_epoch_end(self, epoch, logs):
        if logs["val_loss"] < self.best - 1e-4:
            self.best, self.bad_epochs = logs["val_loss"], 0
        else:
            self.bad_epochs += 1
            self.stop = self.bad_epochs >= self.patience
