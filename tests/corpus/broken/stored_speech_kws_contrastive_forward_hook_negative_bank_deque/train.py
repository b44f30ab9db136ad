# Self-supervised pretraining of a keyword-spotting encoder on log-mel
# patches: two augmented views of each clip, InfoNCE with extra negatives
# from a small bank of recent projections.
import torch
import torch.nn as nn
import torch.nn.functional as F

from taps import NegativeBank

N_MELS, FRAMES = 16, 20


class KWSEncoder(nn.Module):
    def __init__(self, dim=32, proj_dim=16):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(N_MELS, dim, 5, padding=2), nn.ReLU(),
            nn.Conv1d(dim, dim, 3, padding=1), nn.ReLU(),
        )
        self.proj = nn.Linear(dim, proj_dim)

    def forward(self, mel):
        h = self.conv(mel).mean(dim=2)
        return F.normalize(self.proj(h), dim=1)


def augment(mel, gen):
    gain = 1 + 0.2 * torch.randn(mel.shape[0], 1, 1, generator=gen)
    shift = int(torch.randint(-2, 3, (1,), generator=gen))
    return torch.roll(mel, shift, dims=2) * gain + 0.05 * torch.randn(mel.shape, generator=gen)


def info_nce(z1, z2, negs, tau=0.2):
    cands = z2 if negs is None else torch.cat([z2, F.normalize(negs, dim=1)], dim=0)
    logits = z1 @ cands.t() / tau
    return F.cross_entropy(logits, torch.arange(z1.shape[0]))


torch.manual_seed(8)
gen = torch.Generator().manual_seed(8)
model = KWSEncoder()
bank = NegativeBank(size=4)
model.proj.register_forward_hook(bank.hook)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

clips = torch.randn(5, 12, N_MELS, FRAMES, generator=gen)
for step, mel in enumerate(clips):
    negs = bank.negatives()
    z1 = model(augment(mel, gen))
    z2 = model(augment(mel, gen))
    loss = info_nce(z1, z2, negs)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} nce {loss.item():.4f} bank {len(bank.items)}")

print("checksum", round(sum(p.sum().item() for p in model.parameters()), 4))
