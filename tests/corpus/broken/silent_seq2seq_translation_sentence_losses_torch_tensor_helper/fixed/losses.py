"""Loss and metric helpers for the translation model."""
import torch
import torch.nn.functional as F


def length_normalised_nll(logits, targets, lengths):
    """Mean over sentences of each sentence's summed token NLL divided by its length, so that
    long sentences do not dominate the batch."""
    sentence_losses = []
    for i, n in enumerate(lengths.tolist()):
        nll = F.cross_entropy(logits[i, :n], targets[i, :n], reduction="sum")
        sentence_losses.append(nll / n)
    return torch.stack(sentence_losses).mean()


def token_accuracy(logits, targets, lengths):
    mask = torch.arange(targets.size(1))[None] < lengths[:, None]
    hits = (logits.argmax(-1) == targets) & mask
    return hits.sum().item() / mask.sum().item()


def exact_match(logits, targets, lengths):
    """Fraction of sentences whose whole translation is right."""
    mask = torch.arange(targets.size(1))[None] < lengths[:, None]
    wrong = (logits.argmax(-1) != targets) & mask
    return (~wrong.any(1)).float().mean().item()


def greedy_translate(model, src, bos, max_len):
    """Translate with the model's own previous outputs as decoder inputs."""
    with torch.no_grad():
        _, h = model.encoder(model.src_embed(src))
        prev = torch.full((src.size(0), 1), bos)
        out = []
        for _ in range(max_len):
            dec, h = model.decoder(model.tgt_embed(prev), h)
            prev = model.generator(dec).argmax(-1)
            out.append(prev)
    return torch.cat(out, 1)
