"""Train the parser on synthetic geography questions ("number river in texas" ->
count river texas). Questions are tokenised, schema-linked and embedded once in prepare()."""
import itertools
import random
from dataclasses import dataclass
from typing import List, Optional

import torch

from geo_parser import Seq2SeqParser

OPS = {"number": "count", "largest": "argmax", "all": "list"}
TYPES = ["river", "city", "lake"]
STATES = ["texas", "ohio", "utah", "maine"]


@dataclass
class Example:
    question: List[str]
    logical_form: List[str]
    tokens: Optional[torch.Tensor] = None
    links: Optional[torch.Tensor] = None
    lf_ids: Optional[torch.Tensor] = None
    question_enc: Optional[torch.Tensor] = None


def make_examples(n, rng):
    combos = list(itertools.product(OPS, TYPES, STATES))
    rng.shuffle(combos)
    return [Example(f"{op} {ty} in {st}".split(), ["<s>", OPS[op], ty, st, "</s>"])
            for op, ty, st in combos[:n]]


def build_vocab(seqs):
    vocab = {}
    for seq in seqs:
        for w in seq:
            vocab.setdefault(w, len(vocab))
    return vocab


def prepare(examples, parser, vocab, lf_vocab):
    """Tokenise, schema-link and embed every question once."""
    for ex in examples:
        ex.tokens = torch.tensor([vocab[w] for w in ex.question])
        ex.links = torch.tensor([1 if w in TYPES else 2 if w in STATES else 0
                                 for w in ex.question])
        ex.lf_ids = torch.tensor([lf_vocab[w] for w in ex.logical_form])
        ex.question_enc = parser.embed_question(ex.tokens, ex.links)


def main(epochs=2, batch_size=4):
    torch.manual_seed(0)
    rng = random.Random(0)
    examples = make_examples(12, rng)
    vocab = build_vocab(ex.question for ex in examples)
    lf_vocab = build_vocab(ex.logical_form for ex in examples)
    parser = Seq2SeqParser(len(vocab), len(lf_vocab))
    optimizer = torch.optim.Adam(parser.parameters(), lr=5e-3)
    prepare(examples, parser, vocab, lf_vocab)
    step = 0
    for epoch in range(epochs):
        for i in range(0, len(examples), batch_size):
            batch = examples[i:i + batch_size]
            embedded = torch.stack([ex.question_enc for ex in batch])
            lf = torch.stack([ex.lf_ids for ex in batch])
            loss = parser(embedded, lf[:, :-1], lf[:, 1:])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
            step += 1


if __name__ == "__main__":
    main()
