"""Two phases on synthetic single-lead ECG beats.

1. pretrain a conv autoencoder on unlabelled beats (encoder + decoder trained);
2. freeze the encoder on purpose and train only a new arrhythmia head on the
   few labelled beats.  The frozen encoder is not in the phase-2 optimizer.

Modelled on https://github.com/bmsookim/fine-tuning.pytorch/issues/4
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(12)
BEAT = 32


def beats(n, label=None):
    t = torch.linspace(0, 1, BEAT)
    y = torch.randint(0, 2, (n,)) if label is None else label
    width = torch.where(y == 1, 0.09, 0.03)[:, None]
    qrs = torch.exp(-((t[None, :] - 0.5) ** 2) / (2 * width ** 2))
    return (qrs + 0.05 * torch.randn(n, BEAT)).unsqueeze(1), y


encoder = nn.Sequential(nn.Conv1d(1, 6, 5, padding=2), nn.ReLU(),
                        nn.Conv1d(6, 6, 5, stride=2, padding=2), nn.ReLU())
decoder = nn.Sequential(nn.ConvTranspose1d(6, 6, 4, stride=2, padding=1), nn.ReLU(),
                        nn.Conv1d(6, 1, 5, padding=2))

pre_opt = torch.optim.Adam([*encoder.parameters(), *decoder.parameters()], lr=3e-3)
for step in range(4):
    x, _ = beats(32)
    recon = decoder(encoder(x))
    loss = F.mse_loss(recon, x)
    pre_opt.zero_grad()
    loss.backward()
    pre_opt.step()
    print(f"pretrain {step} recon {loss.item():.5f}")

encoder.requires_grad_(False)
encoder.eval()
head = nn.Sequential(nn.Flatten(), nn.Linear(6 * BEAT // 2, 2))
head_opt = torch.optim.SGD(head.parameters(), lr=0.1, momentum=0.9)
x_lab, y_lab = beats(16)
for step in range(5):
    logits = head(encoder(x_lab))
    loss = F.cross_entropy(logits, y_lab)
    head_opt.zero_grad()
    loss.backward()
    head_opt.step()
    print(f"probe {step} ce {loss.item():.4f}")

checksum = sum(p.detach().abs().sum().item() for m in (encoder, decoder, head) for p in m.parameters())
print(f"param checksum {checksum:.5f}")
