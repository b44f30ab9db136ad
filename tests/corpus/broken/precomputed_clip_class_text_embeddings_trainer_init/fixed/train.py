"""FLYP-style fine-tuning of a tiny two-tower image/text model: class names are turned into
prompts, encoded by the text tower and used as the classifier weights for image features;
both towers are fine-tuned with the contrastive cross-entropy."""
import torch
import torch.nn as nn
import torch.nn.functional as F

CLASSES = ["cat", "dog", "car", "ship"]
VOCAB = {w: i for i, w in enumerate("a photo of the cat dog car ship".split())}
EMB_DIM = 16


class TwoTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.image_tower = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 32), nn.GELU(), nn.Linear(32, EMB_DIM))
        self.token_embed = nn.EmbeddingBag(len(VOCAB), 24, mode="mean")
        self.text_proj = nn.Linear(24, EMB_DIM)
        self.logit_scale = nn.Parameter(torch.tensor(2.0))

    def encode_image(self, images):
        return F.normalize(self.image_tower(images), dim=-1)

    def encode_text(self, tokens):
        return F.normalize(self.text_proj(self.token_embed(tokens)), dim=-1)


def prompt_tokens():
    return torch.tensor([[VOCAB[w] for w in f"a photo of the {name}".split()] for name in CLASSES])


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
        self.prompts = prompt_tokens()

    def train_step(self, images, labels):
        image_embeds = self.model.encode_image(images)
        class_embeds = self.model.encode_text(self.prompts)
        logits = self.model.logit_scale.exp() * image_embeds @ class_embeds.T
        loss = F.cross_entropy(logits, labels)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


def main():
    torch.manual_seed(0)
    trainer = Trainer(TwoTower())
    prototypes = torch.randn(len(CLASSES), 3, 8, 8)
    for step in range(3):
        labels = torch.randint(0, len(CLASSES), (16,))
        images = prototypes[labels] + 0.5 * torch.randn(16, 3, 8, 8)
        print(f"step {step} loss {trainer.train_step(images, labels):.4f}")


if __name__ == "__main__":
    main()
