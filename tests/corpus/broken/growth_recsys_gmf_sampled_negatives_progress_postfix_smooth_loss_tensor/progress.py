"""A minimal tqdm-like progress line: prints the step count and a postfix once per update."""


class Progress:
    def __init__(self, total, desc=""):
        self.total = total
        self.desc = desc
        self.n = 0
        self.postfix = {}

    def set_postfix(self, **values):
        self.postfix = values

    def update(self, k=1):
        self.n += k
        shown = ", ".join(f"{key}={value:.4f}" for key, value in self.postfix.items())
        print(f"{self.desc} {self.n}/{self.total} [{shown}]")
