"""Small callback system for the video stylisation trainer."""


class Callback:
    def on_clip_start(self, trainer):
        pass

    def on_frame_end(self, trainer, outputs):
        pass


class PreviousFrameFeeder(Callback):
    """Keeps the last stylised frame: the network sees it as a second input so that it can
    stay consistent with what it produced for the previous frame (recurrent stylisation)."""

    def __init__(self):
        self.prev = None

    def on_clip_start(self, trainer):
        self.prev = None

    def on_frame_end(self, trainer, outputs):
        self.prev = outputs["stylized"].detach()

    def previous(self, frame):
        return frame if self.prev is None else self.prev


class LossLogger(Callback):
    def __init__(self):
        self.history = []

    def on_frame_end(self, trainer, outputs):
        self.history.append(outputs["loss"])
        print(f"clip {trainer.clip} frame {trainer.frame}: loss {outputs['loss']:.4f} "
              f"(temporal {outputs['temporal']:.4f})")
