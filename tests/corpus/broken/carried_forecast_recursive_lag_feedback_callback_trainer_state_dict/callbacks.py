"""Callbacks for the forecasting Trainer."""


class Callback:
    def on_fit_start(self, trainer):
        pass

    def on_batch_end(self, trainer, batch_idx, outputs, loss):
        pass


class ForecastFeedback(Callback):
    """Recursive-forecast training: the next window's lag-1 input is the model's own forecast
    for the previous window instead of the observed value, so that training sees the same
    error accumulation as multi-step inference."""

    def on_fit_start(self, trainer):
        trainer.state["prev_forecast"] = None

    def on_batch_end(self, trainer, batch_idx, outputs, loss):
        trainer.state["prev_forecast"] = outputs[:, -1:]


class LossLogger(Callback):
    def __init__(self, every=1):
        self.every = every
        self.losses = []

    def on_batch_end(self, trainer, batch_idx, outputs, loss):
        self.losses.append(loss)
        if batch_idx % self.every == 0:
            print(f"batch {batch_idx} loss {loss:.5f} "
                  f"feedback {'on' if trainer.state.get('prev_forecast') is not None else 'off'}")
