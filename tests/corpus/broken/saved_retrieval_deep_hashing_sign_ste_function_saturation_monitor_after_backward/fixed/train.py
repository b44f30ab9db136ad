"""Deep supervised hashing for image retrieval: binary codes through a clipped straight-through sign."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ClippedSignSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.sign(x)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * (x.abs() <= 1).to(grad_out.dtype)


torch.manual_seed(2)
N_BITS, N_CLASSES = 12, 4
encoder = nn.Sequential(nn.Linear(32, 48), nn.ReLU(), nn.Linear(48, N_BITS))
classifier = nn.Linear(N_BITS, N_CLASSES)
opt = torch.optim.SGD(list(encoder.parameters()) + list(classifier.parameters()), lr=0.1, momentum=0.9)
prototypes = torch.randn(N_CLASSES, 32)

for step in range(6):
    labels = torch.randint(0, N_CLASSES, (20,))
    images = prototypes[labels] + 0.3 * torch.randn(20, 32)
    pre = encoder(images)
    codes = ClippedSignSTE.apply(pre)
    same = (labels[:, None] == labels[None, :]).float()
    sim = codes @ codes.t() / N_BITS
    pair_loss = F.mse_loss(sim, 2 * same - 1)
    quant_loss = (pre.abs() - 1).pow(2).mean()
    loss = pair_loss + F.cross_entropy(classifier(codes), labels) + 0.1 * quant_loss

    (pre_sign,) = codes.grad_fn.saved_tensors
    saturated = (pre_sign.abs() > 1).float().mean().item()

    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: loss={loss.item():.4f} saturated_bits={saturated:.3f}")
