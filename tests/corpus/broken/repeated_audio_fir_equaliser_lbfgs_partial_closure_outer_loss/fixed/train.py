"""Fitting a loudspeaker correction filter: learnable FIR taps and an output gain are fitted
with L-BFGS so that their magnitude response (dB) matches a target correction curve."""
import torch
import torch.nn as nn

N_FFT, TAPS = 128, 24


class FIREqualiser(nn.Module):
    def __init__(self, taps=TAPS):
        super().__init__()
        init = torch.zeros(taps)
        init[0] = 1.0
        self.taps = nn.Parameter(init)
        self.log_gain = nn.Parameter(torch.zeros(()))

    def magnitude_db(self):
        spectrum = torch.fft.rfft(self.taps * self.log_gain.exp(), n=N_FFT)
        return 20 * torch.log10(spectrum.abs() + 1e-4)


def target_curve():
    """Inverse of a measured response: a low-shelf dip, a presence bump, a treble roll-off."""
    f = torch.linspace(0, 1, N_FFT // 2 + 1)
    dip = -4.0 * torch.exp(-((f - 0.08) / 0.05) ** 2)
    bump = 3.0 * torch.exp(-((f - 0.45) / 0.1) ** 2)
    rolloff = -6.0 * torch.sigmoid((f - 0.85) * 30)
    return dip + bump + rolloff + 1.5


class EqualiserFit:
    def __init__(self, target_db, smooth_weight=1e-2):
        self.model = FIREqualiser()
        self.target_db = target_db
        self.bin_weights = torch.linspace(1.0, 0.3, target_db.numel())
        self.smooth_weight = smooth_weight
        self.optimizer = torch.optim.LBFGS(self.model.parameters(), lr=0.5, max_iter=8,
                                           history_size=10, line_search_fn="strong_wolfe")

    def objective(self):
        err = self.model.magnitude_db() - self.target_db
        taps = self.model.taps
        roughness = (taps[1:] - taps[:-1]).pow(2).sum()
        return (self.bin_weights * err.pow(2)).mean() + self.smooth_weight * roughness

    def _closure(self):
        self.optimizer.zero_grad()
        loss = self.objective()
        loss.backward()
        return loss

    def run(self, rounds=4):
        for r in range(rounds):
            self.optimizer.step(self._closure)
            with torch.no_grad():
                err_db = (self.model.magnitude_db() - self.target_db).abs().max().item()
            print(f"round {r} max deviation {err_db:.4f} dB")


if __name__ == "__main__":
    torch.manual_seed(0)
    fit = EqualiserFit(target_curve())
    fit.run()
    print(f"gain {fit.model.log_gain.exp().item():.4f} taps sum {fit.model.taps.sum().item():.4f}")
