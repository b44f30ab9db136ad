"""Scoring helpers shared by training, offline evaluation and the serving stub."""
import torch

MIN_RATING, MAX_RATING = 1.0, 5.0


def predict_ratings(model, users, items):
    """Predicted star ratings for (user, item) pairs, clipped to the 1-5 scale."""
    raw = model(users, items)
    ratings = torch.tensor([min(max(r, MIN_RATING), MAX_RATING) for r in raw.tolist()])
    return ratings


def rmse(pred, target):
    return torch.sqrt(torch.mean((pred - target) ** 2)).item()


def recommend_top_k(model, user, n_items, k=5, exclude=()):
    """Serving stub: the k best unseen items for one user, by predicted rating."""
    items = torch.arange(n_items)
    scores = predict_ratings(model, torch.full_like(items, user), items)
    if exclude:
        scores[list(exclude)] = float("-inf")
    return scores.topk(k).indices.tolist()


def precision_at_k(recommended, relevant):
    relevant = set(relevant)
    return sum(1 for item in recommended if item in relevant) / max(len(recommended), 1)
