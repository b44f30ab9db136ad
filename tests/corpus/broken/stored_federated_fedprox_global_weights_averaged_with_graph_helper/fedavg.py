"""Server-side helpers for federated training: client copies, the weighted FedAvg of the
client models, and the FedProx proximal term that keeps a client near the global weights."""
import copy

import torch


def client_copy(global_model):
    return copy.deepcopy(global_model)


def average_weights(client_models, n_samples):
    """FedAvg: the average of the clients' parameters, weighted by their number of samples."""
    weights = torch.tensor(n_samples, dtype=torch.float32)
    weights = weights / weights.sum()
    client_params = [dict(m.named_parameters()) for m in client_models]
    avg = {}
    for name in client_params[0]:
        avg[name] = sum(w * params[name] for w, params in zip(weights, client_params))
    return avg


def proximal_term(model, global_weights, mu):
    return 0.5 * mu * sum(((p - global_weights[name]) ** 2).sum()
                          for name, p in model.named_parameters())


def client_drift(model, global_weights):
    """L2 distance between a client's weights and the global weights it started from."""
    with torch.no_grad():
        sq = sum(((p - global_weights[name]) ** 2).sum() for name, p in model.named_parameters())
    return sq.sqrt().item()


def evaluate(model, datasets):
    """Accuracy of a binary classifier (one logit) on each client's data."""
    with torch.no_grad():
        return [((model(x).squeeze(1) > 0).float() == y).float().mean().item() for x, y in datasets]
