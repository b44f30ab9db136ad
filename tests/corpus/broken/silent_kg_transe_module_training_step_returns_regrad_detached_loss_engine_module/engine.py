"""A minimal Lightning-style loop: the module computes the loss, the engine steps."""
import numpy as np


def fit(module, batches, optimizer, epochs=1, log_every=2):
    history = []
    step = 0
    for epoch in range(epochs):
        for batch in batches:
            out = module.training_step(batch)
            optimizer.zero_grad()
            out["loss"].backward()
            optimizer.step()
            history.append(float(np.asarray(out["log"]["loss"])))
            step += 1
            if step % log_every == 0:
                print(f"epoch {epoch} step {step} loss {np.mean(history[-log_every:]):.4f}")
    return history
