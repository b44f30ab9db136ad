"""ViT-VQ tokenizer for 8x8 grey images with two heads on the same quantized tokens: one
decoder reconstructs the image patches, a second one predicts the edge map (auxiliary)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import ViTDecoder, ViTEncoder, VectorQuantizer, patchify

PATCH, SIDE, DIM, CODES = 2, 8, 32, 24
N_TOKENS, PATCH_DIM = (SIDE // PATCH) ** 2, PATCH * PATCH


def shapes_batch(n, gen):
    coords = torch.arange(SIDE).float()
    lo = torch.randint(0, 4, (n, 2, 1), generator=gen).float()
    hi = lo + torch.randint(2, 5, (n, 2, 1), generator=gen).float()
    rows = ((coords >= lo[:, 0]) & (coords < hi[:, 0])).float()
    cols = ((coords >= lo[:, 1]) & (coords < hi[:, 1])).float()
    return (rows[:, :, None] * cols[:, None, :]).unsqueeze(1)


def edge_map(images):
    kx = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]]).view(1, 1, 3, 3)
    gx = F.conv2d(images, kx, padding=1)
    gy = F.conv2d(images, kx.transpose(2, 3), padding=1)
    return (gx.pow(2) + gy.pow(2)).sqrt().clamp(max=1.0)


class VQTokenizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = ViTEncoder(N_TOKENS, PATCH_DIM, DIM)
        self.quantizer = VectorQuantizer(CODES, DIM)
        self.image_decoder = ViTDecoder(N_TOKENS, DIM, PATCH_DIM)
        self.edge_decoder = ViTDecoder(N_TOKENS, DIM, PATCH_DIM)

    def forward(self, images):
        quant, vq_loss, codes = self.quantizer(self.encoder(patchify(images, PATCH)))
        return self.image_decoder(quant), self.edge_decoder(quant), vq_loss, codes


def main(steps=5):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(4)
    model = VQTokenizer()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
    for step in range(steps):
        images = shapes_batch(32, gen)
        rec_patches, edge_patches, vq_loss, codes = model(images)
        rec_loss = F.mse_loss(rec_patches, patchify(images, PATCH))
        edge_loss = F.mse_loss(edge_patches, patchify(edge_map(images), PATCH))
        loss = rec_loss + 0.5 * edge_loss + vq_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        used = codes.unique().numel()
        print(f"step {step} rec {rec_loss.item():.4f} edge {edge_loss.item():.4f} "
              f"vq {vq_loss.item():.4f} codes used {used}/{CODES}")


if __name__ == "__main__":
    main()
