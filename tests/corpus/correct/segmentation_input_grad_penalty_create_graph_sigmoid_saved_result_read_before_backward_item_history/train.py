"""Road-crack segmentation on synthetic 20x20 pavement patches with a small CNN, trained on
BCE + soft Dice plus an input-gradient penalty (smoother, less noise-sensitive masks).
The probabilities for the Dice metric are taken from the sigmoid node of the loss graph,
but read right after the forward pass, before any backward frees them; the penalty
gradient is built with create_graph=True and everything goes through one backward."""
import torch
import torch.nn as nn
import torch.nn.functional as F

SIZE, BATCH, PENALTY = 20, 8, 0.1


class CrackNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.Softplus(),
            nn.Conv2d(8, 8, 3, padding=2, dilation=2), nn.Softplus(),
            nn.Conv2d(8, 1, 1))

    def forward(self, x):
        return self.body(x)


def crack_patches(n, gen):
    ys, xs = torch.meshgrid(torch.arange(SIZE).float(), torch.arange(SIZE).float(), indexing="ij")
    masks = torch.zeros(n, 1, SIZE, SIZE)
    for i in range(n):
        slope, offset = (torch.rand(2, generator=gen) * torch.tensor([2.0, SIZE]) - torch.tensor([1.0, 0.0])).tolist()
        masks[i, 0] = ((ys - (slope * xs + offset)).abs() < 1.0).float()
    images = 1.0 - 0.7 * masks + 0.2 * torch.randn(n, 1, SIZE, SIZE, generator=gen)
    return images, masks


def seg_loss(logits, masks):
    probs = torch.sigmoid(logits)
    bce = F.binary_cross_entropy_with_logits(logits, masks, pos_weight=torch.tensor(4.0))
    dice = 1 - (2 * (probs * masks).sum() + 1) / (probs.sum() + masks.sum() + 1)
    return bce + dice


def sigmoid_output(loss):
    """The probabilities the loss computed, found in its graph (read before backward)."""
    stack, seen = [loss.grad_fn], set()
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        if type(node).__name__ == "SigmoidBackward0":
            return node._saved_result.detach()
        stack.extend(fn for fn, _ in node.next_functions)
    raise LookupError("no sigmoid in the loss graph")


torch.manual_seed(0)
gen = torch.Generator().manual_seed(12)
model = CrackNet()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
history = {"loss": [], "penalty": [], "dice": []}
for step in range(6):
    images, masks = crack_patches(BATCH, gen)
    images.requires_grad_(True)
    logits = model(images)
    loss = seg_loss(logits, masks)
    probs = sigmoid_output(loss)
    (grad_in,) = torch.autograd.grad(logits.sum(), images, create_graph=True)
    penalty = grad_in.pow(2).mean()
    total = loss + PENALTY * penalty
    optimizer.zero_grad()
    total.backward()
    optimizer.step()
    dice = (2 * (probs * masks).sum() / (probs.sum() + masks.sum())).item()
    history["loss"].append(loss.item())
    history["penalty"].append(penalty.item())
    history["dice"].append(dice)
    print(f"step {step} loss {history['loss'][-1]:.4f} penalty {history['penalty'][-1]:.4f} dice {dice:.3f}")

best = max(range(len(history["dice"])), key=history["dice"].__getitem__)
print(f"best soft dice {history['dice'][best]:.3f} at step {best}")
checksum = sum(p.detach().double().sum().item() for p in model.parameters())
print(f"param checksum {checksum:.6f}")
