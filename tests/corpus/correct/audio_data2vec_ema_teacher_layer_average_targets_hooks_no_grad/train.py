"""data2vec-style self-supervised speech pretraining on synthetic log-mel frames.  An EMA
teacher sees the unmasked input; forward hooks collect its block outputs and their
average (instance-normalised) becomes the regression target for the masked student frames.
The teacher runs under no_grad and is updated with lerp_ under no_grad."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

N_MELS, DIM, FRAMES, TOP_K = 16, 24, 20, 2


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(DIM)
        self.conv = nn.Conv1d(DIM, DIM, 3, padding=1, groups=4)
        self.ff = nn.Sequential(nn.Linear(DIM, 2 * DIM), nn.GELU(), nn.Linear(2 * DIM, DIM))

    def forward(self, x):
        h = self.conv(self.norm(x).transpose(1, 2)).transpose(1, 2)
        return x + self.ff(h)


class SpeechEncoder(nn.Module):
    def __init__(self, n_blocks=3):
        super().__init__()
        self.proj = nn.Linear(N_MELS, DIM)
        self.mask_emb = nn.Parameter(torch.zeros(DIM))
        self.blocks = nn.ModuleList(Block() for _ in range(n_blocks))

    def forward(self, mels, mask=None):
        x = self.proj(mels)
        if mask is not None:
            x = torch.where(mask[..., None], self.mask_emb.expand_as(x), x)
        for block in self.blocks:
            x = block(x)
        return x


class LayerTap:
    def __init__(self, blocks):
        self.outputs = []
        self.handles = [b.register_forward_hook(self.hook) for b in blocks]

    def hook(self, module, inputs, output):
        self.outputs.append(output)

    def pop_target(self, k):
        layers = [F.instance_norm(o.transpose(1, 2)).transpose(1, 2) for o in self.outputs[-k:]]
        self.outputs.clear()
        return sum(layers) / k


def synthetic_mels(batch):
    t = torch.linspace(0, 1, FRAMES)
    pitch = torch.rand(batch, 1, 1) * 6 + 2
    bands = torch.arange(N_MELS).float()[None, None, :]
    return torch.sin(pitch * t[None, :, None] * 6.28 + bands * 0.3) + 0.1 * torch.randn(batch, FRAMES, N_MELS)


def main(steps=6, batch=6, tau=0.9):
    torch.manual_seed(0)
    student = SpeechEncoder()
    head = nn.Linear(DIM, DIM)
    teacher = copy.deepcopy(student).requires_grad_(False)
    tap = LayerTap(teacher.blocks)
    optimizer = torch.optim.AdamW(list(student.parameters()) + list(head.parameters()), lr=2e-3)
    for step in range(steps):
        mels = synthetic_mels(batch)
        mask = torch.rand(batch, FRAMES) < 0.4
        with torch.no_grad():
            teacher(mels)
            target = tap.pop_target(TOP_K)
        pred = head(student(mels, mask))
        loss = F.smooth_l1_loss(pred[mask], target[mask], beta=0.5)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            for p_t, p_s in zip(teacher.parameters(), student.parameters()):
                p_t.lerp_(p_s, 1 - tau)
        print(f"step {step}: loss {loss.item():.4f} masked {int(mask.sum())}")
    checksum = sum(p.sum().item() for p in teacher.parameters())
    print(f"teacher checksum {checksum:.4f}")


if __name__ == "__main__":
    main()
