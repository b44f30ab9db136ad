"""Training helpers shared by the char-level language model scripts."""
import torch


def train_one_batch(model, batch, hidden, opt, crit):
    """One optimisation step on one (input, target) window; returns the loss and new hidden."""
    x, y = batch
    model.train()
    opt.zero_grad()
    logits, hidden = model(x, hidden)
    loss = crit(logits.reshape(-1, logits.size(-1)), y.reshape(-1))
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    return loss.item(), hidden
