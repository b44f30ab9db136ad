"""Training helpers."""


def train_epoch(flow, batches, optimizer):
    running_nll = 0.0
    for x in batches:
        nll = flow.nll(x).mean()
        running_nll += nll
        optimizer.zero_grad()
        running_nll.backward()
        optimizer.step()
    return running_nll / len(batches)
