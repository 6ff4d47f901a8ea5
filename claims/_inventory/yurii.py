"""The checkable items of seed 004_bfbae7e9ba22b155.txt (`yurii`), in the paper's order."""
from . import Item


def _i(locator, kind, what, claims=(), reason=""):
    return Item("yurii", locator, kind, what, tuple(claims), reason)


ITEMS = (
    _i('§3.1, eq. (6); §6', 'equation',
       "Polyak's heavy ball is NAG (6) with μ_t = 0, also for the Lie–Trotter blocks",
       ('yurii:eq-6-heavy-ball',)),
    _i('§3.1', 'equation',
       'classical momentum schemes collapse into the single acceleration template (6)',
       ('yurii:momentum-template-text', 'yurii:nag-rate-convex',)),
    _i("§6 ('no extra oracle calls'); Appendix B.2, B.3", 'count',
       'Momentum variants keep 1 Attn + 1 MLP per block; IMEX uses 1 Attn + k MLP (AMA) or k Attn + 1 MLP (MAM); PR...',
       ('yurii:oracle-calls',)),
    _i('Appendix A.1; Table 1', 'table',
       'GD baselines have 123.6M (12L/12H/768d) and 353.6M (24L/16H/1024d) non-positional parameters; the v0 token ...',
       ('yurii:param-count',)),
    _i('Appendix A.1', 'count',
       'The Nesterov variants have the same non-positional parameter counts as the GD baselines (123.6M / 353.6M) u...',
       ('yurii:param-count-momentum',)),
    _i('§6 (Polyak = mu_t = 0 specialization)', 'equation',
       'The Polyak heavy-ball blocks (Euler and Lie-Trotter) are the mu_t = 0 specialisations of the YuriiFormer bl...',
       ('yurii:sec-6-polyak-blocks',)),
    _i('Table 2 (TinyStories small, best val loss)', 'table',
       'The best-validation-loss ordering of GD/Polyak/Nesterov x Euler/Lie-Trotter (Nesterov+Lie-Trotter lowest) r...',
       ('yurii:table-2',)),
    _i('Appendix B.3, Table 5 (TinyStories small, best val loss)', 'table',
       'The best-validation-loss ordering of all 17 update rules (GD/Polyak/Nesterov, Hamiltonian, IMEX(+LN_v) k in...',
       ('yurii:table-5',)),
    _i('§6 (Polyak vs Nesterov)', 'table',
       "Nesterov's lookahead comes at the same compute as Polyak's heavy ball (no extra attention/MLP oracle calls)...",
       ('yurii:wall-clock',)),
)
