"""Byte-level corpora for the training path, with a content hash recorded in every result.

Three sources (`load_corpus(source)`):

* ``"stdlib"`` (default, offline everywhere): the ``.py`` sources of the running interpreter's
  standard library (``sysconfig.get_paths()["stdlib"]``, ``site-packages`` and ``test``/``tests``
  folders excluded). Documents are ordered by ``sha256(relative path)`` (deterministic, and a
  `max_bytes` prefix is a spread sample of the library); a document goes to the validation split
  when that hash is 0 mod ``val_every`` (~5%).
* ``"tinystories"``: the TinyStories corpus through the optional ``datasets`` library (its own
  train/validation splits), a clear ``RuntimeError`` when the library or the network is missing.
* any other string: a path to a local UTF-8 text file, split by its last ``val_fraction`` bytes.

Tokens are bytes (vocabulary 256). The corpus hash is the sha256 over the document names and
bytes in order, so two machines with different Python versions record different hashes.
"""
from __future__ import annotations

import hashlib
import sysconfig
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch

VOCAB_SIZE = 256
SOURCES = ("stdlib", "tinystories", "<path to a text file>")


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


def _path_hash(name: str) -> int:
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big")


def _stdlib_files(root: Path) -> list[Path]:
    skip = {"site-packages", "test", "tests", "__pycache__"}
    files = (p for p in root.rglob("*.py") if not skip.intersection(p.relative_to(root).parts))
    return sorted(files, key=lambda p: (_path_hash(p.relative_to(root).as_posix()),
                                        p.relative_to(root).as_posix()))


@lru_cache(maxsize=4)
def _load_stdlib(val_every: int, max_bytes: int | None) -> Corpus:
    root = Path(sysconfig.get_paths()["stdlib"])
    digest = hashlib.sha256()
    train, val, n_docs, total = [], [], 0, 0
    for path in _stdlib_files(root):
        name = path.relative_to(root).as_posix()
        if max_bytes is not None and total + path.stat().st_size + 1 > max_bytes:
            continue
        data = path.read_bytes() + b"\n"
        total += len(data)
        n_docs += 1
        digest.update(name.encode() + b"\0" + data)
        is_val = _path_hash(name) % val_every == 0
        (val if is_val else train).append(data)
    return Corpus("stdlib", np.frombuffer(b"".join(train), dtype=np.uint8),
                  np.frombuffer(b"".join(val), dtype=np.uint8), digest.hexdigest(), n_docs)


@lru_cache(maxsize=2)
def _load_tinystories(max_bytes: int | None) -> Corpus:
    try:
        import datasets  # optional extra: pip install '.[data]'
    except ImportError as exc:
        raise RuntimeError("data='tinystories' needs the optional 'datasets' library "
                           "(pip install '.[data]'); use data='stdlib' offline") from exc
    try:
        ds = datasets.load_dataset("roneneldan/TinyStories")
    except Exception as exc:  # network or hub failure: say so, name the offline alternative
        raise RuntimeError(f"data='tinystories' could not be downloaded ({type(exc).__name__}: "
                           f"{exc}); use data='stdlib' or a local file path offline") from exc
    digest = hashlib.sha256()
    splits = {}
    for split in ("train", "validation"):
        chunks, total = [], 0
        for row in ds[split]:
            data = row["text"].encode("utf-8") + b"\n\n"
            if max_bytes is not None and total + len(data) > max_bytes:
                break
            chunks.append(data)
            total += len(data)
        blob = b"".join(chunks)
        digest.update(split.encode() + b"\0" + blob)
        splits[split] = np.frombuffer(blob, dtype=np.uint8)
    return Corpus("tinystories", splits["train"], splits["validation"], digest.hexdigest(),
                  len(ds["train"]) + len(ds["validation"]))


def _load_file(path: Path, val_fraction: float, max_bytes: int | None) -> Corpus:
    data = path.read_bytes()[:max_bytes]
    cut = int(len(data) * (1.0 - val_fraction))
    digest = hashlib.sha256(path.name.encode() + b"\0" + data).hexdigest()
    arr = np.frombuffer(data, dtype=np.uint8)
    return Corpus(str(path), arr[:cut], arr[cut:], digest, 1)


def load_corpus(source: str = "stdlib", *, max_bytes: int | None = None, val_every: int = 20,
                val_fraction: float = 0.05) -> Corpus:
    """The byte corpus named by `source` ("stdlib", "tinystories" or a text-file path)."""
    if not isinstance(source, str) or not source:
        raise TypeError(f"source must be a non-empty string, got {source!r}")
    if max_bytes is not None and max_bytes <= 0:
        raise ValueError(f"max_bytes must be positive, got {max_bytes}")
    if source == "stdlib":
        return _load_stdlib(val_every, max_bytes)
    if source == "tinystories":
        return _load_tinystories(max_bytes)
    path = Path(source)
    if not path.is_file():
        raise ValueError(f"data: unknown source {source!r}; use one of 'stdlib', 'tinystories' "
                         "or the path of an existing text file")
    if not 0.0 < val_fraction < 1.0:
        raise ValueError(f"val_fraction must be in (0, 1), got {val_fraction}")
    return _load_file(path, val_fraction, max_bytes)


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
