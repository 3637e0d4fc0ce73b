"""A learned second reading of a text the rules found some evidence in: is it an attack, as a whole?

The rules weigh phrases, one by one; a request written politely as a routine note may give them
too little to reach their threshold. A linear model over the text's character and word n-grams,
trained on the project's labelled tool outputs (`tests/corpus/train_reading.py`), weighs how the
stretch around their evidence reads, as a whole and part by part, and withholds what reads like
the attacks it learned.

Features are hashed (CRC-32 of each n-gram into a fixed table), so no vocabulary is shipped and
unseen text costs nothing to look up; each block (characters, words) is TF-IDF weighted with
sublinear counts and scaled to unit length on its own, as the trainer does.
"""

import lzma
import re
import struct
import sys
import zlib
from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from math import exp, log, sqrt
from pathlib import Path

from ..matcher import cache_folder
from .evidence import Evidence, Page, Signal

# The weights file, written by the trainer and shipped beside this module.
MODEL_PATH = Path(__file__).with_name("learned_reading.bin.xz")
CHAR_BITS = 18
WORD_BITS = 17
CHAR_SIZES = (2, 3, 4, 5)
# The model was trained on whole tool outputs: a shorter text is left to the rules. It reads the
# stretch from the rules' first evidence to their last with some context either side, then each
# part of it on its own (evidence closer than a gap is one part) with less context, so that prose
# wrapped around an attack, however much evidence of its own it carries, is not read into the
# attack's part. What lies past a budget is left to the rules, which bounds the work.
FEWEST_CHARS = 100
CONTEXT_CHARS = 300
PART_CONTEXT_CHARS = 150
PART_GAP = 150
MOST_CHARS = 1 << 13
# A text the rules found evidence in, short of their threshold, is withheld when the model finds
# an attack likely. Chosen on the dev sets (each held out in turn from a model trained on the
# others) so that no benign text of theirs or of the third-party corpora is withheld for it.
WITHHOLD_FROM = 0.85
EVIDENCE_FROM = 0.6
# The signal the second reading leaves on a text it withholds.
LEARNED_ATTACK = "learned_attack"
_MAGIC = b"LZRD2"
_HEADER = struct.Struct("<dII")


@cache
def _word() -> re.Pattern[str]:
    return re.compile(r"\w+")


def char_grams(text: str) -> Counter[str]:
    """Each word's character n-grams, the word padded with a space on either side.

    A word's n-grams are taken once however often it occurs, and counted that many times. The
    n-grams are listed size by size, and within a size in the order they first occur in the text,
    as a scan of the whole text lists them: the hashed features add up in the same order, to the
    same floating-point sums the trainer's (`hashed`).
    """
    padded = [(f" {word} ", count) for word, count in Counter(text.casefold().split()).items()]
    grams: Counter[str] = Counter()
    for size in CHAR_SIZES:
        for word, count in padded:
            for start in range(len(word) - size + 1):
                grams[word[start : start + size]] += count
    return grams


def word_grams(text: str) -> Counter[str]:
    """Words and pairs of neighbouring words (Unicode word characters, folded case)."""
    words = _word().findall(text.casefold())
    grams = Counter(words)
    grams.update(f"{first} {second}" for first, second in pairwise(words))
    return grams


def hashed(grams: Counter[str], bits: int) -> dict[int, float]:
    """Sublinear counts (1 + ln count) summed per bucket of the CRC-32 of each n-gram."""
    mask = (1 << bits) - 1
    counts: dict[int, float] = {}
    get = counts.get
    encoded = [gram.encode("utf-8", "surrogatepass") for gram in grams]
    for checksum, count in zip(map(zlib.crc32, encoded), grams.values(), strict=True):
        bucket = checksum & mask
        counts[bucket] = get(bucket, 0.0) + 1.0 + log(count)
    return counts


def blocks(text: str) -> tuple[dict[int, float], dict[int, float]]:
    """The text's two feature blocks before weighting: character n-grams and word n-grams."""
    return hashed(char_grams(text), CHAR_BITS), hashed(word_grams(text), WORD_BITS)


@dataclass(frozen=True)
class Block:
    """One block's inverse document frequencies and the model's weights, by bucket."""

    idf: Sequence[float]
    weights: Sequence[float]

    def dot(self, counts: dict[int, float]) -> float:
        """The weights times the counts' TF-IDF vector scaled to unit length."""
        idf, weights = self.idf, self.weights
        norm = sqrt(sum((value * idf[b]) ** 2 for b, value in counts.items()))
        if not norm:
            return 0.0
        return sum(value * idf[b] * weights[b] for b, value in counts.items()) / norm


@dataclass(frozen=True)
class LearnedReading:
    """A trained model: the intercept and the two blocks."""

    intercept: float
    chars: Block
    words: Block

    def attack_probability(self, text: str) -> float:
        """How likely the model finds `text` an attack, from 0 to 1."""
        char_counts, word_counts = blocks(text)
        margin = self.intercept + self.chars.dot(char_counts) + self.words.dot(word_counts)
        return 1.0 / (1.0 + exp(-max(-60.0, min(60.0, margin))))

    def dump(self, path: Path) -> None:
        """Write the model compressed, its numbers as little-endian 32-bit floats."""
        parts = [_MAGIC, _HEADER.pack(self.intercept, CHAR_BITS, WORD_BITS)]
        for block in (self.chars, self.words):
            for values in (block.idf, block.weights):
                numbers = array("f", values)
                if sys.byteorder == "big":
                    numbers.byteswap()
                parts.append(numbers.tobytes())
        path.write_bytes(lzma.compress(b"".join(parts)))

    @classmethod
    def load(cls, path: Path) -> "LearnedReading":
        """Read a model `dump` wrote; a file of another layout is an error, not a guess."""
        return cls.from_numbers(_decompressed(path.read_bytes(), path.name), path.name)

    @classmethod
    def from_numbers(cls, data: bytes, name: str) -> "LearnedReading":
        """The model whose file, decompressed, is `data` (`name` says which, in errors)."""
        if not data.startswith(_MAGIC):
            raise ValueError(f"{name}: not a learned-reading model")
        if len(data) < len(_MAGIC) + _HEADER.size:
            raise ValueError(f"{name}: cut short")
        intercept, char_bits, word_bits = _HEADER.unpack_from(data, len(_MAGIC))
        if (char_bits, word_bits) != (CHAR_BITS, WORD_BITS):
            raise ValueError(f"{name}: trained for other table sizes")
        sizes = (1 << CHAR_BITS, 1 << CHAR_BITS, 1 << WORD_BITS, 1 << WORD_BITS)
        expected = len(_MAGIC) + _HEADER.size + 4 * sum(sizes)
        if len(data) != expected:
            raise ValueError(f"{name}: {len(data)} bytes where the model takes {expected}")
        offset = len(_MAGIC) + _HEADER.size
        arrays = []
        for size in sizes:
            # Four bytes a number in memory, as on disk (a tuple of floats would take thirty).
            numbers = array("f")
            numbers.frombytes(data[offset : offset + 4 * size])
            if sys.byteorder == "big":
                numbers.byteswap()
            arrays.append(numbers)
            offset += 4 * size
        return cls(intercept, Block(arrays[0], arrays[1]), Block(arrays[2], arrays[3]))


def second_reading(
    text: str, evidence: Sequence[Signal], score: float, threshold: float
) -> Signal | None:
    """A `LEARNED_ATTACK` signal (weighing the threshold) when the model withholds `text`, else None.

    `evidence` is what the rules found in `text` (its spans index `text`), `score` what all they
    found in the field weighed. The model never lets through what the rules withheld: whatever it
    learned to read as harmless (security writing, a bot's documentation) an attacker can wrap
    around an instruction.
    """
    spans = [(signal.start, signal.end) for signal in evidence if signal.end > signal.start]
    if not EVIDENCE_FROM * threshold <= score < threshold or len(text) < FEWEST_CHARS or not spans:
        return None
    budget = MOST_CHARS
    for start, end in evidence_stretches(spans, len(text)):
        if end - start > budget:
            continue
        budget -= end - start
        likely = shipped().attack_probability(text[start:end])
        if likely >= WITHHOLD_FROM:
            return Signal(
                LEARNED_ATTACK, threshold, f"attack likelihood {likely:.2f}", start, start
            )
    return None


class LearnedSecondReading:
    """The learned reading as a reader: it reads a page the first readers scored (`Page.so_far`)
    and finds a `LEARNED_ATTACK` (see `second_reading`), or nothing."""

    name = LEARNED_ATTACK

    def read(self, page: Page) -> Evidence:
        found = Evidence()
        so_far = page.so_far
        signal = (
            None
            if so_far is None
            else second_reading(page.text, so_far.signals, so_far.score, page.threshold)
        )
        if signal is not None:
            found.count(signal.name, signal.weight)
            found.signals.append(signal)
        return found


def evidence_stretches(spans: Sequence[tuple[int, int]], length: int) -> list[tuple[int, int]]:
    """What the model reads, in order: the whole stretch of the evidence, then each of its parts."""
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1] + PART_GAP:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    whole = (max(0, merged[0][0] - CONTEXT_CHARS), min(length, merged[-1][1] + CONTEXT_CHARS))
    parts = [
        (max(0, start - PART_CONTEXT_CHARS), min(length, end + PART_CONTEXT_CHARS))
        for start, end in merged
    ]
    return [whole] + parts if len(parts) > 1 else [whole]


@cache
def shipped() -> LearnedReading:
    """The model shipped with the package, read once, when a withheld text first needs it.

    Decompressing the shipped file takes some 50 ms, which the first text the rules score just
    under their threshold would wait for in every process (each hook run in process among them):
    its numbers are kept in the cache folder, named by the shipped file, and read from there.
    """
    packed = MODEL_PATH.read_bytes()
    name = cache_folder.file_name("learned", [packed], ".bin")
    kept = cache_folder.read(name)
    if kept is not None:
        try:
            return LearnedReading.from_numbers(kept, name)
        except ValueError:
            pass  # of another layout: decompressed afresh
    data = _decompressed(packed, MODEL_PATH.name)
    model = LearnedReading.from_numbers(data, MODEL_PATH.name)
    cache_folder.write(name, data)
    return model


def _decompressed(packed: bytes, name: str) -> bytes:
    try:
        return lzma.decompress(packed)
    except lzma.LZMAError as exc:
        raise ValueError(f"{name}: not an xz file ({exc})") from exc
