"""Loss helpers for the phone recogniser."""
import torch
import torch.nn.functional as F


def length_normalised_ctc(log_probs, targets, input_lengths, target_lengths, blank=0):
    """CTC of every utterance divided by its number of target phones, averaged over the batch.

    Short utterances otherwise dominate less than long ones; this matches the per-phone
    numbers the Kaldi baseline reports.
    """
    per_utt = F.ctc_loss(log_probs, targets, input_lengths, target_lengths,
                         blank=blank, reduction="none", zero_infinity=True)
    normalised = [float(loss) / int(n) for loss, n in zip(per_utt, target_lengths)]
    return torch.tensor(normalised).mean()
