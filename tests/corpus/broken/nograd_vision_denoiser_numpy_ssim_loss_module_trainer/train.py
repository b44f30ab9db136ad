"""Grayscale denoiser (DnCNN-style residual CNN) trained on synthetic patches with an SSIM
loss, inside a small Trainer with an on_epoch_end callback for validation."""
import torch
import torch.nn as nn

from losses import SSIMLoss, psnr


class DnCNN(nn.Module):
    def __init__(self, depth=4, width=16):
        super().__init__()
        layers = [nn.Conv2d(1, width, 3, padding=1), nn.ReLU()]
        for _ in range(depth - 2):
            layers += [nn.Conv2d(width, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU()]
        layers.append(nn.Conv2d(width, 1, 3, padding=1))
        self.body = nn.Sequential(*layers)

    def forward(self, noisy):
        return (noisy - self.body(noisy)).clamp(0, 1)


def patches(n, gen, size=24, sigma=0.1):
    yy, xx = torch.meshgrid(torch.linspace(0, 1, size), torch.linspace(0, 1, size), indexing="ij")
    freq = torch.rand(n, 1, 1, generator=gen) * 6 + 1
    clean = 0.5 + 0.4 * torch.sin(freq * 3.14 * (xx + yy)) * torch.cos(freq * xx)
    clean = clean.unsqueeze(1)
    noisy = (clean + sigma * torch.randn(clean.shape, generator=gen)).clamp(0, 1)
    return noisy, clean


class Trainer:
    def __init__(self, model, criterion, lr=2e-3, callbacks=()):
        self.model = model
        self.criterion = criterion
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.callbacks = list(callbacks)

    def train_epoch(self, noisy, clean, batch_size=8):
        self.model.train()
        for start in range(0, noisy.shape[0], batch_size):
            denoised = self.model(noisy[start:start + batch_size])
            loss = self.criterion(denoised, clean[start:start + batch_size])
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        return loss.item()

    def fit(self, data, epochs):
        for epoch in range(epochs):
            loss = self.train_epoch(*data)
            for cb in self.callbacks:
                cb(self, epoch, loss)


def make_validation(val_noisy, val_clean):
    def on_epoch_end(trainer, epoch, loss):
        trainer.model.eval()
        with torch.no_grad():
            out = trainer.model(val_noisy)
        print(f"epoch {epoch} ssim loss {loss:.4f} val psnr {psnr(out, val_clean):.2f}")
    return on_epoch_end


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(9)
    train_data = patches(32, gen)
    val_noisy, val_clean = patches(8, gen)
    trainer = Trainer(DnCNN(), SSIMLoss(win=5),
                      callbacks=[make_validation(val_noisy, val_clean)])
    trainer.fit(train_data, epochs=3)


if __name__ == "__main__":
    main()
