"""Monitoring helpers: stream predictions on held-out graphs, one graph per call."""
import torch


def preview_predictions(model, graphs):
    """Yields (label, predicted class, confidence) for held-out graphs, cycling forever."""
    while True:
        for x, a_hat, label in graphs:
            model.eval()
            with torch.no_grad():
                probs = model(x, a_hat).softmax(-1)[0]
            model.train()
            # yield outside the no_grad block: a suspended generator would keep it open
            yield label, probs.argmax().item(), probs.max().item()
