"""5-way few-shot classification with second-order MAML.

The network is written functionally (a list of weight tensors) so that the inner loop can
take several SGD steps on "fast weights" built with create_graph=True. Each inner step
differentiates through the previous ones, so the graph deliberately grows during one
outer step and is released by the query-loss backward at the end of it.
"""
import torch
import torch.nn.functional as F

torch.manual_seed(3)
N_WAY, K_SHOT, Q_QUERY, DIM = 5, 2, 3, 16
INNER_STEPS, INNER_LR, META_BATCH, OUTER_ITERS = 3, 0.4, 2, 6


def init_weights():
    def layer(n_in, n_out):
        w = torch.randn(n_out, n_in) * (2.0 / n_in) ** 0.5
        return [w.requires_grad_(), torch.zeros(n_out, requires_grad=True)]
    return layer(DIM, 32) + layer(32, 32) + layer(32, N_WAY)


def forward(x, weights):
    w1, b1, w2, b2, w3, b3 = weights
    h = F.relu(F.linear(x, w1, b1))
    h = F.relu(F.linear(h, w2, b2))
    return F.linear(h, w3, b3)


def make_task():
    centers = torch.randn(N_WAY, DIM) * 2.0

    def draw(per_class):
        labels = torch.arange(N_WAY).repeat_interleave(per_class)
        return centers[labels] + 0.8 * torch.randn(len(labels), DIM), labels

    return draw(K_SHOT), draw(Q_QUERY)


def adapt(weights, x_support, y_support):
    fast = list(weights)
    for _ in range(INNER_STEPS):
        support_loss = F.cross_entropy(forward(x_support, fast), y_support)
        grads = torch.autograd.grad(support_loss, fast, create_graph=True)
        fast = [w - INNER_LR * g for w, g in zip(fast, grads)]
    return fast


def main():
    meta_weights = init_weights()
    meta_opt = torch.optim.Adam(meta_weights, lr=1e-3)
    for outer in range(OUTER_ITERS):
        meta_opt.zero_grad()
        meta_loss, correct, total = 0.0, 0, 0
        for _ in range(META_BATCH):
            (x_s, y_s), (x_q, y_q) = make_task()
            fast = adapt(meta_weights, x_s, y_s)
            logits = forward(x_q, fast)
            query_loss = F.cross_entropy(logits, y_q) / META_BATCH
            query_loss.backward()
            meta_loss += query_loss.item()
            correct += (logits.argmax(dim=1) == y_q).sum().item()
            total += len(y_q)
        meta_opt.step()
        print(f"outer {outer} meta-loss {meta_loss:.6f} query acc {correct / total:.3f}")
    print(f"checksum {sum(w.sum().item() for w in meta_weights):.6f}")


if __name__ == "__main__":
    main()
