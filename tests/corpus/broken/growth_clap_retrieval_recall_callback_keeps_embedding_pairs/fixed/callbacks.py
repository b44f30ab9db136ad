"""Callbacks for the audio-text trainer."""
import torch


class RetrievalRecallCallback:
    """Text-to-audio recall@1 over everything seen in the epoch, computed at epoch end."""

    def __init__(self):
        self.pairs = []

    def on_train_batch_end(self, trainer, outputs):
        self.pairs.append((outputs["audio_emb"].detach(), outputs["text_emb"].detach()))

    def on_train_epoch_end(self, trainer, epoch):
        audio = torch.cat([a for a, _ in self.pairs])
        text = torch.cat([t for _, t in self.pairs])
        hits = (text @ audio.t()).argmax(dim=1) == torch.arange(len(text))
        print(f"epoch {epoch} text->audio recall@1 {hits.float().mean().item():.3f} "
              f"over {len(text)} pairs")
        self.pairs = []


class PrintLoss:
    def on_train_batch_end(self, trainer, outputs):
        print(f"  step {trainer.global_step} loss {outputs['loss'].item():.4f} "
              f"scale {trainer.model.logit_scale.exp().item():.2f}")
