"""Seed 004's printed result tables, transcribed once (Tables 2-5) for the consistency claims
(`claims/yurii/consistency.py`). Values as printed; `*_BOLD` lists the boldfaced cells.

Rows use the paper's method names. A printed number stands for its rounding interval (± half a
unit in its last place): two different printed values of one column are ordered whatever their
true values in those intervals; equal printed values are ties.
"""
from __future__ import annotations

METHODS = ("GD+Euler", "Polyak+Euler", "Nesterov+Euler", "GD+Lie-Trotter", "Polyak+Lie-Trotter",
           "Nesterov+Lie-Trotter")
GD = ("GD+Euler", "GD+Lie-Trotter")
BASELINE = "GD+Lie-Trotter"   # "GD+Lie–Trotter (nanoGPT)", App. A.1

# Table 2: TinyStories (small; 10k steps), nats/token: Best, Final, Train @10k
TABLE_2_COLUMNS = ("Best", "Final", "Train@10k")
TABLE_2 = {
    "GD+Euler": (1.107, 1.113, 0.962),
    "Polyak+Euler": (1.099, 1.110, 0.933),
    "Nesterov+Euler": (1.101, 1.112, 0.953),
    "GD+Lie-Trotter": (1.106, 1.114, 0.985),
    "Polyak+Lie-Trotter": (1.083, 1.096, 0.899),
    "Nesterov+Lie-Trotter": (1.078, 1.090, 0.896),
}
TABLE_2_BOLD = {("Nesterov+Lie-Trotter", c) for c in TABLE_2_COLUMNS}

# Table 3: OpenWebText (30k steps), validation nats/token
TABLE_3_COLUMNS = ("small Best", "small Final", "medium Best", "medium Final")
TABLE_3 = {
    "GD+Euler": (3.014, 3.023, 2.770, 2.775),
    "Polyak+Euler": (2.965, 2.972, 2.730, 2.734),
    "Nesterov+Euler": (2.959, 2.966, 2.726, 2.731),
    "GD+Lie-Trotter": (2.990, 2.998, 2.758, 2.764),
    "Polyak+Lie-Trotter": (2.925, 2.931, 2.705, 2.710),
    "Nesterov+Lie-Trotter": (2.920, 2.926, 2.702, 2.707),
}
TABLE_3_BOLD = {("Nesterov+Lie-Trotter", c) for c in TABLE_3_COLUMNS}

# Table 4: OpenWebText acc_norm (%), standard errors ±0.5 (HS) and ±1.0 (ARC)
TABLE_4_COLUMNS = ("small HS 10-shot", "small ARC 25-shot", "small HS 0-shot", "small ARC 0-shot",
                   "medium HS 10-shot", "medium ARC 25-shot", "medium HS 0-shot", "medium ARC 0-shot")
TABLE_4 = {
    "GD+Euler": (29.9, 39.8, 30.2, 38.5, 34.7, 46.0, 34.4, 40.5),
    "Polyak+Euler": (30.9, 41.3, 30.5, 39.8, 36.3, 48.2, 36.1, 43.4),
    "Nesterov+Euler": (31.2, 41.6, 30.5, 41.2, 36.3, 48.0, 35.4, 43.5),
    "GD+Lie-Trotter": (30.0, 40.5, 29.7, 39.4, 35.5, 45.4, 35.2, 42.6),
    "Polyak+Lie-Trotter": (31.6, 42.5, 31.2, 41.1, 37.1, 49.0, 36.8, 44.0),
    "Nesterov+Lie-Trotter": (31.8, 42.6, 31.2, 41.1, 36.8, 48.5, 36.5, 45.7),
}
TABLE_4_SE = {c: 0.5 if " HS " in c else 1.0 for c in TABLE_4_COLUMNS}
TABLE_4_BOLD = ({("Polyak+Lie-Trotter", c) for c in TABLE_4_COLUMNS}
                | {("Nesterov+Lie-Trotter", c) for c in TABLE_4_COLUMNS}
                | {("Nesterov+Euler", "small ARC 0-shot")})

# Table 5: TinyStories (small; 10k steps), 17 update rules in two compute panels
TABLE_5_STANDARD = {   # 1 Attn + 1 MLP per block
    "GD+Euler": (1.107, 1.113, 0.962),
    "GD+Lie-Trotter": (1.106, 1.114, 0.985),
    "Nesterov+Euler": (1.101, 1.112, 0.953),
    "Nesterov+Lie-Trotter": (1.078, 1.090, 0.896),
    "Polyak+Euler": (1.099, 1.110, 0.933),
    "Polyak+Lie-Trotter": (1.083, 1.096, 0.899),
    "Hamiltonian (symplectic Euler)": (1.080, 1.092, 0.916),
    "IMEX k=1 (MAM)": (1.083, 1.095, 0.912),
    "IMEX k=1 (AMA)": (1.086, 1.097, 0.929),
    "IMEX+LN_v k=1 (MAM)": (1.112, 1.123, 1.008),
    "IMEX+LN_v k=1 (AMA)": (1.078, 1.091, 0.892),
}
TABLE_5_EXTRA = {      # extra attention/MLP oracle calls per block
    "PRK-Verlet (MAM)": (1.077, 1.090, 0.886),
    "PRK-Verlet (AMA)": (1.074, 1.088, 0.874),
    "IMEX k=2 (MAM)": (1.081, 1.096, 0.921),
    "IMEX k=2 (AMA)": (1.078, 1.088, 0.921),
    "IMEX+LN_v k=2 (MAM)": (1.097, 1.104, 0.966),
    "IMEX+LN_v k=2 (AMA)": (1.070, 1.084, 0.884),
}
TABLE_5_BOLD = {("Nesterov+Lie-Trotter", "Best"), ("IMEX+LN_v k=1 (AMA)", "Best"),
                ("Nesterov+Lie-Trotter", "Final"), ("IMEX+LN_v k=1 (AMA)", "Train@10k"),
                ("IMEX+LN_v k=2 (AMA)", "Best"), ("IMEX+LN_v k=2 (AMA)", "Final"),
                ("PRK-Verlet (AMA)", "Train@10k")}


def column(table: dict, columns: tuple, name: str) -> dict:
    """{row: value} of one named column."""
    j = columns.index(name)
    return {row: values[j] for row, values in table.items()}


def extreme_rows(values: dict, top: int = 1, largest: bool = False) -> set:
    """The rows ranked within the `top` best printed values (lowest loss, or highest with
    `largest`), ties at the printed precision included: fewer than `top` rows strictly better."""
    better = (lambda w, v: w > v) if largest else (lambda w, v: w < v)
    return {row for row, v in values.items() if sum(better(w, v) for w in values.values()) < top}
