"""Train the streaming keyword spotter on synthetic recordings: each recording is a long
log-mel sequence cut into CHUNK-frame pieces, each piece labelled with the keyword (or
background, class 0) that ends inside it."""
import torch
import torch.nn.functional as F

from streaming import StreamingKWS

N_MELS, CHUNK, N_CLASSES = 20, 16, 4


def synth_recording(n_chunks, batch):
    """Keyword k adds energy to a band of mel bins; background is noise only."""
    labels = torch.randint(0, N_CLASSES, (n_chunks, batch))
    frames = 0.3 * torch.randn(n_chunks, batch, N_MELS, CHUNK)
    for c in range(n_chunks):
        for b in range(batch):
            k = labels[c, b].item()
            if k > 0:
                frames[c, b, 5 * (k - 1):5 * k, CHUNK // 2:] += 1.0
    return frames, labels


def train_epoch(model, optimizer, frames, labels):
    model.train()
    model.reset_stream()
    correct, losses = 0, []
    for chunk, target in zip(frames, labels):
        logits = model(chunk)
        loss = F.cross_entropy(logits, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        correct += (logits.argmax(1) == target).sum().item()
    return sum(losses) / len(losses), correct / labels.numel()


def main():
    torch.manual_seed(0)
    model = StreamingKWS(n_mels=N_MELS, n_classes=N_CLASSES)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    frames, labels = synth_recording(n_chunks=5, batch=6)
    for epoch in range(2):
        loss, acc = train_epoch(model, optimizer, frames, labels)
        print(f"epoch {epoch} loss {loss:.4f} acc {acc:.3f}")


if __name__ == "__main__":
    main()
