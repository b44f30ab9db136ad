"""Where does the gradient on the logits go? The monitor measures, during backward, the
share of the logit-gradient mass that lands on confidently wrong pixels (probability on
the wrong side of 0.5 by more than `margin`). The probabilities are the ones the loss
computed; the monitor finds them in the loss graph instead of recomputing them."""


def find_node(root, name):
    stack, seen = [root], set()
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        if type(node).__name__ == name:
            return node
        stack.extend(fn for fn, _ in node.next_functions)
    return None


class HardPixelMonitor:
    def __init__(self, margin=0.02):
        self.margin = margin
        self.history = []
        self.probs = None
        self.target = None

    def attach(self, loss, logits, target):
        # read the saved probabilities now: backward frees them before the logits hook runs
        self.probs = find_node(loss.grad_fn, "SigmoidBackward0")._saved_result.detach()
        self.target = target
        logits.register_hook(self._on_logit_grad)

    def _on_logit_grad(self, grad):
        wrong = (self.probs - self.target).abs() > 0.5 + self.margin
        mass = grad.abs()
        self.history.append(float(mass[wrong].sum() / mass.sum().clamp_min(1e-12)))
