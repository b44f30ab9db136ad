"""Callbacks for the segment-recurrent LM trainer."""
import math


class Callback:
    def on_epoch_begin(self, trainer, epoch):
        pass

    def on_batch_begin(self, trainer):
        pass

    def on_batch_end(self, trainer, outputs):
        pass

    def on_epoch_end(self, trainer, epoch):
        pass


class SegmentMemory(Callback):
    """Segment-level recurrence: hands the previous segment's last `mem_len` hidden states to
    the model as extra keys/values for the next segment. Memory starts empty every epoch."""

    def __init__(self, mem_len):
        self.mem_len = mem_len
        self.memory = None

    def on_epoch_begin(self, trainer, epoch):
        self.memory = None

    def on_batch_begin(self, trainer):
        trainer.batch_kwargs["memory"] = self.memory

    def on_batch_end(self, trainer, outputs):
        self.memory = outputs["hidden"][:, -self.mem_len:]


class LossLogger(Callback):
    def __init__(self):
        self.losses = []

    def on_batch_end(self, trainer, outputs):
        self.losses.append(outputs["loss"].item())

    def on_epoch_end(self, trainer, epoch):
        mean = sum(self.losses) / len(self.losses)
        print(f"epoch {epoch} step {trainer.global_step} loss {mean:.4f} ppl {math.exp(mean):.2f}")
        self.losses.clear()
