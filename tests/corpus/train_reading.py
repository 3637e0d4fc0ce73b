"""Train the learned second reading (`lazaretto.proxy.detect.learned`) on the dev sets.

Run as a plain script: `python tests/corpus/train_reading.py` writes the model the package ships.
It needs scikit-learn (the test extra). Only `dev/` is read: the held-out set and the third-party
corpora stay out of training, so what they measure stays a measurement. Training is deterministic,
so the shipped file is what this script makes from the files beside it (a test checks that).
"""

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
from scipy import sparse
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import normalize

from lazaretto.proxy.detect.learned import (
    CHAR_BITS,
    MODEL_PATH,
    WORD_BITS,
    Block,
    LearnedReading,
    blocks,
)

DEV = Path(__file__).resolve().parent / "dev"
# How strongly the fit is regularized, and in how many texts an n-gram's bucket must occur to
# count: a bucket seen once says more about one writer than about a kind of text.
STRENGTH = 4.0
MIN_TEXTS = 2


def training_records() -> list[dict]:
    """Every labelled record of the dev sets, in a fixed order."""
    records = []
    for path in sorted(DEV.glob("*.jsonl")):
        with open(path, encoding="utf-8") as handle:
            records.extend(json.loads(line) for line in handle)
    return records


def _matrix(rows: list[dict[int, float]], bits: int) -> sparse.csr_matrix:
    indptr, indices, values = [0], [], []
    for row in rows:
        indices.extend(row)
        values.extend(row.values())
        indptr.append(len(indices))
    return sparse.csr_matrix((values, indices, indptr), shape=(len(rows), 1 << bits))


def _weighted(counts: sparse.csr_matrix, texts: int, bits: int) -> tuple[Any, np.ndarray]:
    """Smoothed IDF (zero for rare buckets) applied to the counts, each row at unit length."""
    seen = np.bincount(counts.indices, minlength=1 << bits)
    idf = np.where(seen >= MIN_TEXTS, np.log((1 + texts) / (1 + seen)) + 1.0, 0.0)
    return normalize(counts @ sparse.diags(idf), norm="l2"), idf


def train(records: list[dict]) -> LearnedReading:
    """Fit the model on `records` (`text` and `label`), attacks and benign weighed equally."""
    pairs = [blocks(record["text"]) for record in records]
    chars, char_idf = _weighted(_matrix([p[0] for p in pairs], CHAR_BITS), len(pairs), CHAR_BITS)
    words, word_idf = _weighted(_matrix([p[1] for p in pairs], WORD_BITS), len(pairs), WORD_BITS)
    labels = np.array([record["label"] == "attack" for record in records])
    model = LogisticRegression(C=STRENGTH, class_weight="balanced", max_iter=5000)
    model.fit(sparse.hstack([chars, words]).tocsr(), labels)
    weights = np.ravel(model.coef_)
    return LearnedReading(
        float(np.ravel(model.intercept_)[0]),
        Block(_half(char_idf), _half(weights[: 1 << CHAR_BITS])),
        Block(_half(word_idf), _half(weights[1 << CHAR_BITS :])),
    )


def _half(values: np.ndarray) -> tuple[float, ...]:
    """Rounded to half floats: no more precision than the data gives, and the file compresses."""
    return tuple(float(value) for value in values.astype(np.float16))


def main() -> None:
    model = train(training_records())
    model.dump(MODEL_PATH)
    print(f"wrote {MODEL_PATH.name} ({MODEL_PATH.stat().st_size} bytes)", file=sys.stderr)


if __name__ == "__main__":
    main()
