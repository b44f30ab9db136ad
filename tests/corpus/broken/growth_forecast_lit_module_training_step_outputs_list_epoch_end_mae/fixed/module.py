import torch
import torch.nn as nn


class DemandForecaster(nn.Module):
    """Lightning-style module: the loop lives in fit.py, the hooks live here."""

    def __init__(self, lookback=12, horizon=3, hidden=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(lookback, hidden), nn.GELU(), nn.Linear(hidden, horizon)
        )
        self.training_step_outputs = []
        self.epoch_mae = []

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        pred = self(x)
        loss = nn.functional.l1_loss(pred, y)
        self.training_step_outputs.append({"loss": loss.detach(), "pred": pred.detach(), "target": y})
        return loss

    def on_train_epoch_end(self):
        preds = torch.cat([o["pred"] for o in self.training_step_outputs])
        targets = torch.cat([o["target"] for o in self.training_step_outputs])
        mae = (preds - targets).abs().mean()
        self.epoch_mae.append(round(mae.item(), 4))
        self.training_step_outputs.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=4e-3)
