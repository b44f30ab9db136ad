"""Autoencoder trained with engine.Trainer; the user's training_step backwards the loss itself."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from engine import Trainer

torch.manual_seed(0)


class AutoEncoderTrainer(Trainer):
    def training_step(self, batch):
        x, = batch
        recon = self.model(x)
        loss = F.mse_loss(recon, x)
        loss.backward()
        return loss


model = nn.Sequential(nn.Linear(8, 3), nn.Tanh(), nn.Linear(3, 8))
data = torch.randn(40, 8)
loader = [(data[i:i + 10],) for i in range(0, 40, 10)]
AutoEncoderTrainer(model).fit(loader)
