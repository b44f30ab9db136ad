"""Callbacks for trainer.Trainer: semi-supervised consistency and logging."""
import torch
import torch.nn.functional as F


def augment(images, generator):
    shift = int(torch.randint(-1, 2, (1,), generator=generator))
    flipped = images.flip(-1) if torch.rand(1, generator=generator).item() < 0.5 else images
    return torch.roll(flipped, shifts=shift, dims=-2) + 0.05 * torch.randn(images.shape, generator=generator)


class ConsistencyRegularizer:
    """Pi-model style term: predictions on an augmented view of the batch should match
    the predictions the trainer just made on the original view."""

    def __init__(self, weight=0.5, seed=0):
        self.weight = weight
        self.generator = torch.Generator().manual_seed(seed)

    def on_train_batch_end(self, trainer, outputs):
        view = augment(outputs["images"], self.generator)
        probs_view = F.softmax(trainer.model(view), dim=1)
        probs_orig = F.softmax(outputs["logits"], dim=1)
        consistency = self.weight * F.mse_loss(probs_view, probs_orig)
        trainer.optimizer.zero_grad()
        consistency.backward()
        trainer.optimizer.step()
        outputs["consistency"] = consistency.item()


class ConsoleLogger:
    def on_train_batch_end(self, trainer, outputs):
        print(f"step {trainer.global_step}  ce {outputs['loss'].item():.4f}  "
              f"consistency {outputs.get('consistency', 0.0):.5f}")
