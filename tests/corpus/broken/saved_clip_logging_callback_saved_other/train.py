"""CLIP-style contrastive pretraining of an image tower and a text tower on synthetic paired
features, with a learnable temperature. A small Trainer runs the loop and calls callbacks
around backward, Lightning-style."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import SimilarityLogger

IMG_DIM, TXT_DIM, EMB_DIM = 20, 12, 16


class CLIPModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.image_tower = nn.Sequential(nn.Linear(IMG_DIM, 32), nn.GELU(), nn.Linear(32, EMB_DIM))
        self.text_tower = nn.Sequential(nn.Linear(TXT_DIM, 32), nn.GELU(), nn.Linear(32, EMB_DIM))
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))

    def forward(self, images, texts):
        img = F.normalize(self.image_tower(images), dim=-1)
        txt = F.normalize(self.text_tower(texts), dim=-1)
        return self.logit_scale.exp() * (img @ txt.t())


class Trainer:
    def __init__(self, model, optimizer, callbacks=()):
        self.model, self.optimizer, self.callbacks = model, optimizer, list(callbacks)

    def training_step(self, images, texts):
        logits = self.model(images, texts)
        targets = torch.arange(logits.size(0))
        loss = 0.5 * (F.cross_entropy(logits, targets) + F.cross_entropy(logits.t(), targets))
        return {"loss": loss, "logits": logits}

    def fit(self, batches, epochs):
        for epoch in range(epochs):
            for images, texts in batches:
                outputs = self.training_step(images, texts)
                self.optimizer.zero_grad()
                for cb in self.callbacks:
                    cb.on_before_backward(self, outputs)
                outputs["loss"].backward()
                for cb in self.callbacks:
                    cb.on_after_backward(self, outputs)
                self.optimizer.step()
            print(f"epoch {epoch} loss {outputs['loss'].item():.4f}")
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch)


def make_pairs(n_batches=3, batch=16):
    concept_to_image = torch.randn(8, IMG_DIM)
    concept_to_text = torch.randn(8, TXT_DIM)
    batches = []
    for _ in range(n_batches):
        concepts = torch.randn(batch, 8)
        images = concepts @ concept_to_image + 0.3 * torch.randn(batch, IMG_DIM)
        texts = concepts @ concept_to_text + 0.3 * torch.randn(batch, TXT_DIM)
        batches.append((images, texts))
    return batches


torch.manual_seed(0)
model = CLIPModel()
trainer = Trainer(model, torch.optim.AdamW(model.parameters(), lr=3e-3),
                  callbacks=[SimilarityLogger()])
trainer.fit(make_pairs(), epochs=2)
