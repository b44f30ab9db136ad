"""Helpers shared by the line-OCR training script and the batch transcription tool."""
import torch

BLANK = 0


def crnn_log_probs(model, images):
    """(T, N, C) CTC log-probabilities for a batch of line images, plus the frame counts."""
    logits = model(images)
    log_probs = logits.log_softmax(-1).transpose(0, 1)
    frames = torch.full((images.shape[0],), log_probs.shape[0], dtype=torch.long)
    return log_probs, frames


def greedy_decode(log_probs):
    """Best path decoding: collapse repeats, then drop blanks."""
    texts = []
    for path in log_probs.argmax(-1).t().tolist():
        out, prev = [], BLANK
        for k in path:
            if k != prev and k != BLANK:
                out.append(k)
            prev = k
        texts.append(out)
    return texts


def char_error_rate(hyps, refs):
    errors = total = 0
    for hyp, ref in zip(hyps, refs):
        row = list(range(len(ref) + 1))
        for i, h in enumerate(hyp, 1):
            prev, row[0] = row[0], i
            for j, r in enumerate(ref, 1):
                prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (h != r))
        errors += row[-1]
        total += len(ref)
    return errors / max(total, 1)
