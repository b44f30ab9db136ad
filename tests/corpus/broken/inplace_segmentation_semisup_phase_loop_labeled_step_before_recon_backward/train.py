"""Semi-supervised lesion segmentation on synthetic scans (MASSL-style). Each batch mixes
labelled and unlabelled images; the labelled phase trains encoder + segmentation decoder,
the unlabelled phase trains encoder + reconstruction decoder, each with its own optimizer."""
import torch
import torch.nn.functional as F

from model import SemiSupSegNet

torch.manual_seed(0)
SIZE = 16


def synthetic_scans(n):
    yy, xx = torch.meshgrid(torch.arange(SIZE).float(), torch.arange(SIZE).float(), indexing="ij")
    cy = torch.randint(4, SIZE - 4, (n, 1, 1)).float()
    cx = torch.randint(4, SIZE - 4, (n, 1, 1)).float()
    r = torch.randint(2, 5, (n, 1, 1)).float()
    masks = ((yy - cy) ** 2 + (xx - cx) ** 2 <= r ** 2).long()
    images = masks.float().unsqueeze(1) * 0.8 + 0.2 * torch.randn(n, 1, SIZE, SIZE)
    return images, masks


def soft_dice_loss(logits, masks, eps=1.0):
    probs = logits.softmax(dim=1)[:, 1]
    inter = (probs * masks).sum(dim=(1, 2))
    union = probs.sum(dim=(1, 2)) + masks.sum(dim=(1, 2))
    return (1 - (2 * inter + eps) / (union + eps)).mean()


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.optimizers = {
            "labeled": torch.optim.Adam(
                list(model.encoder.parameters()) + list(model.seg_decoder.parameters()), lr=lr),
            "unlabeled": torch.optim.Adam(
                list(model.encoder.parameters()) + list(model.rec_decoder.parameters()), lr=lr),
        }

    def train_step(self, images, masks, n_labeled):
        seg_logits, recon = self.model(images)
        losses = {
            "labeled": F.cross_entropy(seg_logits[:n_labeled], masks)
            + soft_dice_loss(seg_logits[:n_labeled], masks),
            "unlabeled": F.mse_loss(recon, images),
        }
        for phase in ("labeled", "unlabeled"):
            self.optimizers[phase].zero_grad()
            losses[phase].backward(retain_graph=(phase == "labeled"))
            self.optimizers[phase].step()
        return {phase: loss.item() for phase, loss in losses.items()}


def main(epochs=2, batches=3, n_labeled=4, n_unlabeled=8):
    trainer = Trainer(SemiSupSegNet())
    for epoch in range(epochs):
        for _ in range(batches):
            labeled, masks = synthetic_scans(n_labeled)
            unlabeled, _ = synthetic_scans(n_unlabeled)
            stats = trainer.train_step(torch.cat([labeled, unlabeled]), masks, n_labeled)
        print(f"epoch {epoch} seg {stats['labeled']:.4f} recon {stats['unlabeled']:.4f}")


if __name__ == "__main__":
    main()
