"""Joint speech enhancement and voice activity detection on synthetic spectrogram frames:
a shared GRU encoder feeds a magnitude-mask head and a per-frame VAD head. The VAD output
is median-smoothed (as in deployment) before its BCE against the frame labels."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from postproc import median_smooth

BINS, FRAMES = 24, 30


class EnhanceVAD(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.encoder = nn.GRU(BINS, hidden, batch_first=True)
        self.mask_head = nn.Linear(hidden, BINS)
        self.vad_head = nn.Linear(hidden, 1)

    def forward(self, noisy_mag):
        h, _ = self.encoder(noisy_mag)
        return torch.sigmoid(self.mask_head(h)), self.vad_head(h).squeeze(-1)


def synth_batch(n, generator):
    active = (torch.rand(n, FRAMES // 5, 1, generator=generator) > 0.4).float()
    active = active.repeat_interleave(5, dim=1)
    clean = active * torch.rand(n, FRAMES, BINS, generator=generator)
    noise = 0.3 * torch.rand(n, FRAMES, BINS, generator=generator)
    return clean + noise, clean, active.squeeze(-1)


def train():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = EnhanceVAD()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    for step in range(6):
        noisy, clean, speech = synth_batch(8, gen)
        mask, vad_logits = model(noisy)
        enh_loss = F.l1_loss(mask * noisy, clean)
        vad_prob = torch.sigmoid(vad_logits)
        smoothed = torch.from_numpy(median_smooth(vad_prob.detach().numpy())).float()
        vad_loss = F.binary_cross_entropy(smoothed, speech)
        loss = enh_loss + 0.5 * vad_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} enh {enh_loss.item():.4f} vad {vad_loss.item():.4f}")


if __name__ == "__main__":
    train()
