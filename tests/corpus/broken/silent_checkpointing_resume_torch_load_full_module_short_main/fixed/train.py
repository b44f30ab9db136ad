"""Fine-tune a small sensor-regression MLP from a full-module checkpoint left by the
pre-training job (here serialised into memory), then report the training loss."""
import io

import torch
import torch.nn as nn
import torch.nn.functional as F


def build_model():
    return nn.Sequential(
        nn.Linear(6, 32), nn.GELU(),
        nn.Linear(32, 32), nn.GELU(),
        nn.Linear(32, 1),
    )


def pretraining_checkpoint():
    """Stands in for the checkpoint file written by the pre-training job."""
    buf = io.BytesIO()
    torch.save({"model": build_model(), "step": 1200}, buf)
    buf.seek(0)
    return buf


def load_checkpoint(fileobj):
    state = torch.load(fileobj, weights_only=False)
    return state["model"], state["step"]


def batches(n_steps, gen):
    for _ in range(n_steps):
        x = torch.randn(32, 6, generator=gen)
        y = (x[:, :3].sum(1, keepdim=True) - x[:, 3:].prod(1, keepdim=True)).tanh()
        yield x, y


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(3)
    model, start_step = load_checkpoint(pretraining_checkpoint())
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-2)
    model.train()
    for step, (x, y) in enumerate(batches(6, gen), start=start_step):
        loss = F.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")
    return model


if __name__ == "__main__":
    main()
