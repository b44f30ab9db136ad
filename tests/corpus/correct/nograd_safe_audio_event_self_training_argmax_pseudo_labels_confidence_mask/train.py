"""Semi-supervised sound-event classifier (pseudo-labelling).

Pseudo-labels are the argmax of the model's own prediction on the clean
unlabelled clips, taken under torch.no_grad(); they are integer targets for a
cross-entropy on an augmented view, masked by confidence.  The argmax is a
target, not part of the loss path, so the loss still reaches every weight.

Modelled on https://github.com/iBelieveCJM/pseudo_label-pytorch/issues/2
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_MELS, FRAMES, CLASSES = 16, 20, 4


class EventNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(N_MELS, 12, 3, padding=1)
        self.fc = nn.Linear(12, CLASSES)

    def forward(self, mel):
        h = F.relu(self.conv(mel)).amax(dim=2)
        return self.fc(h)


def clips(n, with_labels=True):
    y = torch.randint(0, CLASSES, (n,))
    mel = 0.5 * torch.randn(n, N_MELS, FRAMES)
    mel[torch.arange(n), y * 4] += 2.0
    return (mel, y) if with_labels else mel


def spec_augment(mel):
    out = mel.clone()
    band = torch.randint(0, N_MELS - 2, (1,)).item()
    out[:, band:band + 2] = 0.0
    return out + 0.1 * torch.randn_like(out)


class SelfTrainer:
    def __init__(self, model, threshold=0.5, unlabeled_weight=1.0):
        self.model = model
        self.threshold = threshold
        self.unlabeled_weight = unlabeled_weight
        self.optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

    def step(self, x_lab, y_lab, x_unl):
        sup = F.cross_entropy(self.model(x_lab), y_lab)
        with torch.no_grad():
            probs = self.model(x_unl).softmax(dim=1)
            confidence, pseudo = probs.max(dim=1)
            mask = (confidence >= self.threshold).float()
        per_clip = F.cross_entropy(self.model(spec_augment(x_unl)), pseudo, reduction="none")
        unsup = (per_clip * mask).sum() / mask.sum().clamp(min=1.0)
        loss = sup + self.unlabeled_weight * unsup
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return sup.item(), unsup.item(), mask.mean().item()


if __name__ == "__main__":
    torch.manual_seed(14)
    trainer = SelfTrainer(EventNet())
    x_lab, y_lab = clips(12)
    for step in range(6):
        sup, unsup, used = trainer.step(x_lab, y_lab, clips(32, with_labels=False))
        print(f"step {step} sup {sup:.4f} unsup {unsup:.4f} used {used:.2f}")
    checksum = sum(p.detach().abs().sum().item() for p in trainer.model.parameters())
    print(f"param checksum {checksum:.5f}")
