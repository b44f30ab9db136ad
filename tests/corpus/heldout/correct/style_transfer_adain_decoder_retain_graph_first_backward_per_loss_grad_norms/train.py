"""AdaIN arbitrary style transfer (Huang & Belongie 2017): a frozen encoder (a random-feature
stand-in for VGG, built with in-place ReLUs after its convolutions), adaptive instance
normalisation of the content features with the style statistics, and a trainable decoder.
To see which loss drives the decoder, the content loss is backwarded first with
retain_graph=True, the per-loss gradient norm is logged, then the style loss is backwarded."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
SIZE, BATCH, STYLE_WEIGHT = 16, 4, 5.0

encoder = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(inplace=True),
    nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(inplace=True),
    nn.Conv2d(16, 16, 3, stride=2, padding=1), nn.ReLU(inplace=True)).requires_grad_(False)
TAPS = (2, 4, 6)  # ends of the encoder slices whose outputs give the style statistics

decoder = nn.Sequential(
    nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
    nn.Upsample(scale_factor=2, mode="nearest"),
    nn.Conv2d(16, 8, 3, padding=1), nn.ReLU(),
    nn.Conv2d(8, 3, 3, padding=1))


def encode_levels(x):
    feats, start = [], 0
    for end in TAPS:
        x = encoder[start:end](x)
        feats.append(x)
        start = end
    return feats


def mean_std(feats, eps=1e-5):
    flat = feats.flatten(2)
    return flat.mean(-1)[..., None, None], (flat.var(-1) + eps).sqrt()[..., None, None]


def adain(content, style):
    c_mean, c_std = mean_std(content)
    s_mean, s_std = mean_std(style)
    return (content - c_mean) / c_std * s_std + s_mean


def grad_norm(module):
    return sum(p.grad.pow(2).sum() for p in module.parameters() if p.grad is not None).sqrt().item()


optimizer = torch.optim.Adam(decoder.parameters(), lr=1e-3)
for step in range(6):
    content = torch.rand(BATCH, 3, SIZE, SIZE)
    style = torch.sin(torch.linspace(0, 8, SIZE) * (step + 1))[None, None, :, None].expand(BATCH, 3, SIZE, SIZE) * 0.5 + 0.5
    with torch.no_grad():
        style_feats = encode_levels(style)
        target = adain(encode_levels(content)[-1], style_feats[-1])
    out = decoder(target)
    out_feats = encode_levels(out)
    content_loss = F.mse_loss(out_feats[-1], target)
    style_loss = sum(F.mse_loss(m_o, m_s) + F.mse_loss(s_o, s_s)
                     for (m_o, s_o), (m_s, s_s) in ((mean_std(o), mean_std(s)) for o, s in zip(out_feats, style_feats)))
    optimizer.zero_grad()
    content_loss.backward(retain_graph=True)
    content_norm = grad_norm(decoder)
    (STYLE_WEIGHT * style_loss).backward()
    total_norm = grad_norm(decoder)
    optimizer.step()
    print(f"step {step} content {content_loss.item():.4f} style {style_loss.item():.4f} "
          f"|g_content| {content_norm:.4f} |g_total| {total_norm:.4f}")
print(f"checksum {sum(p.sum().item() for p in decoder.parameters()):.4f}")
