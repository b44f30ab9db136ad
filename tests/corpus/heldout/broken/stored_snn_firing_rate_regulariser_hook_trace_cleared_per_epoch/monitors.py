"""Forward-hook monitors for spiking layers."""
import torch


class SpikeRateMonitor:
    """Collects the spikes a LIF layer emits at every time step, for activity regularisation
    (penalising rates far from a target) and for logging."""

    def __init__(self, layer):
        self.trace = []
        self.handle = layer.register_forward_hook(self._record)

    def _record(self, module, inputs, output):
        spikes, _membrane = output
        self.trace.append(spikes)

    def rate(self):
        return torch.stack(self.trace).mean(dim=(0, 1))

    def reset(self):
        self.trace = []
