"""Phishing-URL detector: distil a wide character CNN into a small one for the browser
extension. URLs are synthetic character-id sequences."""
import torch
import torch.nn as nn

from distill import DistillTrainer

torch.manual_seed(0)
CHARS, LENGTH = 40, 32
SUSPICIOUS = torch.tensor([3, 7, 11, 19])  # '@', '-', digits run, 'login'-ish tokens


class CharCNN(nn.Module):
    def __init__(self, emb, channels):
        super().__init__()
        self.embed = nn.Embedding(CHARS, emb)
        self.conv = nn.Conv1d(emb, channels, kernel_size=5, padding=2)
        self.out = nn.Linear(channels, 2)

    def forward(self, urls):
        h = torch.relu(self.conv(self.embed(urls).transpose(1, 2)))
        return self.out(h.max(dim=2).values)


def make_urls(n):
    urls = torch.randint(20, CHARS, (n, LENGTH))
    phishing = torch.rand(n) < 0.5
    for i in torch.nonzero(phishing).flatten():
        pos = torch.randperm(LENGTH)[:4]
        urls[i, pos] = SUSPICIOUS[torch.randint(0, 4, (4,))]
    return urls, phishing.long()


def main():
    urls, labels = make_urls(96)
    teacher = CharCNN(emb=24, channels=64)
    # pretend-pretrained teacher: a quick supervised warm-up
    warm = torch.optim.Adam(teacher.parameters(), lr=5e-3)
    for _ in range(3):
        warm.zero_grad()
        nn.functional.cross_entropy(teacher(urls), labels).backward()
        warm.step()
    student = CharCNN(emb=8, channels=16)
    DistillTrainer(student, teacher).fit(urls, labels)


if __name__ == "__main__":
    main()
