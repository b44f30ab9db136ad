"""Utilities shared by the streaming voice-activity demo and the fine-tuning script."""
import torch


def init_model(model, state_dict=None, device="cpu"):
    """Load weights into the VAD network and get it ready to run."""
    if state_dict is not None:
        model.load_state_dict(state_dict)
    model.to(device)
    model.eval()
    return model


def log_energy_frames(wave, frame=64, hop=32):
    """(batch, samples) -> (batch, frames, 2): log energy and zero-crossing rate per frame."""
    frames = wave.unfold(-1, frame, hop)
    energy = torch.log(frames.pow(2).mean(-1) + 1e-5)
    zcr = (frames[..., 1:] * frames[..., :-1] < 0).float().mean(-1)
    return torch.stack([energy, zcr], dim=-1)


def frame_labels(speech_mask, frame=64, hop=32):
    return (speech_mask.unfold(-1, frame, hop).mean(-1) > 0.5).float()
