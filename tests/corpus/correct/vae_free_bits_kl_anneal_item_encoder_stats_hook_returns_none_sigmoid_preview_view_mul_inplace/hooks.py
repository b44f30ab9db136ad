"""Diagnostics attached to the VAE without touching its code."""


class LatentStats:
    """Records the mean |mu| and mean log-variance the encoder produced on its last call."""

    def __init__(self, encoder, latent):
        self.latent = latent
        self.last = {}
        self.handle = encoder.register_forward_hook(self._record)

    def _record(self, module, inputs, output):
        stats = output.detach()
        self.last["mu_abs"] = stats[:, :self.latent].abs().mean().item()
        self.last["logvar"] = stats[:, self.latent:].mean().item()
