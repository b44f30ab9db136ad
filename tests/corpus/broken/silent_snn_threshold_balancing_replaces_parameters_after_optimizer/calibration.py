"""Data-based threshold balancing: before training, set each LIF layer's threshold to a
high percentile of the input current it sees on a calibration batch, so that every layer
starts in a sensible firing regime."""
import torch
import torch.nn as nn

from snn import LIF


@torch.no_grad()
def balance_thresholds(net, calib_spikes, q=0.95):
    currents, hooks = {}, []
    for name, module in net.named_modules():
        if isinstance(module, LIF):
            hooks.append(module.register_forward_pre_hook(
                lambda mod, args, name=name: currents.__setitem__(name, args[0])))
    net(calib_spikes)
    for hook in hooks:
        hook.remove()
    for name, lif in net.named_modules():
        if isinstance(lif, LIF):
            level = torch.quantile(currents[name].flatten(), q).clamp_min(0.1)
            lif.threshold = nn.Parameter(level)
            print(f"{name}: threshold {level.item():.3f}")
    return net


@torch.no_grad()
def firing_report(net, spikes_in):
    """Mean firing rate of every LIF layer on a batch, for the calibration log."""
    rates, hooks = {}, []
    for name, module in net.named_modules():
        if isinstance(module, LIF):
            hooks.append(module.register_forward_hook(
                lambda mod, args, out, name=name: rates.__setitem__(name, out.mean().item())))
    net(spikes_in)
    for hook in hooks:
        hook.remove()
    return {name: round(rate, 3) for name, rate in rates.items()}
