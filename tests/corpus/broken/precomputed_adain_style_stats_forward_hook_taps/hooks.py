"""Forward-hook taps that record channel statistics of encoder layers, for AdaIN-style
style losses (match the mean and std of every tapped layer to those of the style image)."""
import torch.nn.functional as F


class StatsTap:
    def __init__(self, layer):
        self.handle = layer.register_forward_hook(self)
        self.mean = self.std = None
        self.target_mean = self.target_std = None

    def __call__(self, module, inputs, output):
        self.mean = output.mean(dim=(2, 3))
        self.std = (output.var(dim=(2, 3)) + 1e-5).sqrt()

    def lock_as_target(self):
        self.target_mean, self.target_std = self.mean, self.std

    def style_loss(self):
        return F.mse_loss(self.mean, self.target_mean.expand_as(self.mean)) + F.mse_loss(
            self.std, self.target_std.expand_as(self.std))


def capture_style(encoder, taps, style_image):
    encoder(style_image)
    for tap in taps:
        tap.lock_as_target()
