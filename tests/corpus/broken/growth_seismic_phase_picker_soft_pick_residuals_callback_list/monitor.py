"""Training callbacks for the phase picker."""
import torch


class PickResidualMonitor:
    """Keeps the pick-time residuals (in samples) of every training batch, for the per-epoch
    MAE and the residual histogram written at the end of training."""

    def __init__(self, sample_rate):
        self.sample_rate = sample_rate
        self.residuals = []
        self.epoch_start = 0

    def on_epoch_start(self, epoch):
        self.epoch_start = len(self.residuals)

    def on_batch_end(self, outputs):
        self.residuals.append(outputs["soft_pick"] - outputs["true_pick"])

    def on_epoch_end(self, epoch):
        recent = torch.cat(self.residuals[self.epoch_start:])
        mae_ms = 1000.0 * recent.abs().mean().item() / self.sample_rate
        print(f"  epoch {epoch}: P-pick MAE {mae_ms:.1f} ms over {recent.numel()} traces")

    def on_train_end(self):
        everything = torch.cat(self.residuals)
        hist = torch.histc(everything.float(), bins=5, min=-20, max=20)
        print("  residual histogram", [int(v) for v in hist.tolist()])
