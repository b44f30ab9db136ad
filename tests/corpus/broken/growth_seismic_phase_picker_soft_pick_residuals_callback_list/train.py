"""P-wave arrival picker for single-channel seismograms (PhaseNet-like, much smaller)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from monitor import PickResidualMonitor

SAMPLE_RATE, N_SAMPLES = 100, 200


def seismogram_batch(batch, generator):
    t = torch.arange(N_SAMPLES).float()
    picks = torch.randint(40, 160, (batch,), generator=generator)
    noise = 0.2 * torch.randn(batch, N_SAMPLES, generator=generator)
    onset = (t.unsqueeze(0) >= picks.unsqueeze(1)).float()
    decay = torch.exp(-(t.unsqueeze(0) - picks.unsqueeze(1)).clamp(min=0) / 30.0)
    wave = noise + onset * decay * torch.sin(0.8 * (t.unsqueeze(0) - picks.unsqueeze(1)))
    target = torch.exp(-0.5 * ((t.unsqueeze(0) - picks.unsqueeze(1)) / 2.0) ** 2)
    return wave.unsqueeze(1), target / target.sum(1, keepdim=True), picks.float()


class Picker(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(1, ch, 7, padding=3), nn.ReLU(),
            nn.Conv1d(ch, ch, 7, padding=6, dilation=2), nn.ReLU(),
            nn.Conv1d(ch, 1, 5, padding=2),
        )

    def forward(self, wave):
        return self.net(wave).squeeze(1)


class Trainer:
    def __init__(self, model, callbacks):
        self.model = model
        self.callbacks = callbacks
        self.optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
        self.gen = torch.Generator().manual_seed(7)
        self.times = torch.arange(N_SAMPLES).float()

    def training_step(self, wave, target, picks):
        logits = self.model(wave)
        log_p = F.log_softmax(logits, dim=1)
        loss = -(target * log_p).sum(1).mean()
        soft_pick = (log_p.exp() * self.times).sum(1)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return {"loss": loss.item(), "soft_pick": soft_pick, "true_pick": picks}

    def fit(self, epochs, steps_per_epoch):
        for epoch in range(epochs):
            for cb in self.callbacks:
                cb.on_epoch_start(epoch)
            for step in range(steps_per_epoch):
                outputs = self.training_step(*seismogram_batch(16, self.gen))
                print(f"epoch {epoch} step {step} loss {outputs['loss']:.4f}")
                for cb in self.callbacks:
                    cb.on_batch_end(outputs)
            for cb in self.callbacks:
                cb.on_epoch_end(epoch)
        for cb in self.callbacks:
            cb.on_train_end()


def main():
    torch.manual_seed(0)
    trainer = Trainer(Picker(), [PickResidualMonitor(SAMPLE_RATE)])
    trainer.fit(epochs=3, steps_per_epoch=3)


if __name__ == "__main__":
    main()
