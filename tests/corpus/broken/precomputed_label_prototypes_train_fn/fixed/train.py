"""Zero-shot-style classifier trained with label prototypes (train() function)."""
import torch
import torch.nn.functional as F

from model import DualEncoder

N_CLASSES, IN_DIM, DIM = 5, 20, 16


def train(model, loader, optimizer, epochs):
    all_labels = torch.arange(N_CLASSES)
    for epoch in range(epochs):
        total = 0.0
        for x, y in loader:
            prototypes = model.encode_labels(all_labels)  # (C, DIM)
            img = model.encode_images(x)
            logits = model.logit_scale * img @ prototypes.t()
            loss = F.cross_entropy(logits, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total / len(loader):.4f}")


def main():
    torch.manual_seed(0)
    model = DualEncoder(IN_DIM, N_CLASSES, DIM)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    loader = [(torch.randn(8, IN_DIM), torch.randint(0, N_CLASSES, (8,))) for _ in range(3)]
    train(model, loader, optimizer, epochs=2)


if __name__ == "__main__":
    main()
