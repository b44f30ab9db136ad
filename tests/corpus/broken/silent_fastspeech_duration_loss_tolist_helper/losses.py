"""Training losses for the tiny FastSpeech model."""
import torch.nn.functional as F


def mel_loss(mel_pred, mel_target, frame_mask):
    per_frame = F.l1_loss(mel_pred, mel_target, reduction="none").mean(dim=-1)
    return (per_frame * frame_mask).sum() / frame_mask.sum()


def duration_loss(log_dur_pred, durations):
    """MSE between predicted and target log-durations (log(1 + frames)), per phoneme."""
    pred = log_dur_pred.flatten().tolist()
    target = durations.float().log1p().flatten().tolist()
    return sum((p - t) ** 2 for p, t in zip(pred, target)) / len(pred)
