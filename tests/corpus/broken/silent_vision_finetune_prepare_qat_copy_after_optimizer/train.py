"""Quantization-aware fine-tuning of a small "pretrained" CNN on a new 3-class texture task
(stripes / checkers / blobs) before int8 export. The pretrained stem is loaded, the head is
sized for the new classes, and fake-quant observers are inserted with prepare_qat."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.ao.quantization import get_default_qat_qconfig, prepare_qat

N_CLASSES, SIZE = 3, 12


class SmallCNN(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.head = nn.Linear(16 * (SIZE // 4) ** 2, n_classes)

    def forward(self, x):
        return self.head(self.stem(x).flatten(1))


def texture_batch(n):
    labels = torch.randint(0, N_CLASSES, (n,))
    yy, xx = torch.meshgrid(torch.arange(SIZE), torch.arange(SIZE), indexing="ij")
    patterns = torch.stack([(xx % 4 < 2).float(), ((xx // 3 + yy // 3) % 2).float(),
                            torch.exp(-((xx - 6.0) ** 2 + (yy - 6.0) ** 2) / 10.0)])
    images = patterns[labels] + 0.2 * torch.randn(n, SIZE, SIZE)
    return images.unsqueeze(1), labels


def main():
    torch.manual_seed(1)
    pretrained = SmallCNN(n_classes=10).state_dict()  # stands in for the upstream checkpoint
    torch.manual_seed(0)
    model = SmallCNN(N_CLASSES)
    model.stem.load_state_dict({k[len("stem."):]: v for k, v in pretrained.items()
                                if k.startswith("stem.")})
    optimizer = torch.optim.SGD([
        {"params": model.stem.parameters(), "lr": 0.01},
        {"params": model.head.parameters(), "lr": 0.05},
    ], momentum=0.9)

    model.train()
    model.qconfig = get_default_qat_qconfig("fbgemm")
    qat_model = prepare_qat(model)

    for epoch in range(2):
        for _ in range(3):
            images, labels = texture_batch(16)
            loss = F.cross_entropy(qat_model(images), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
    print(f"checksum {sum(p.sum().item() for p in qat_model.parameters()):.4f}")


if __name__ == "__main__":
    main()
