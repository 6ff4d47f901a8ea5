"""ordering-table: the papers' loss tables next to the committed studies' measured orderings."""
from __future__ import annotations

import matplotlib.pyplot as plt

from figures import Context, figure

TABLES = ["yurii:table-2", "yurii:lie-trotter-text", "yurii:table-5", "momentum_streams:table-1", "momentum_streams:table-2",
          "momentum_streams:muon-soap-text", "sympformer:table-1", "sympformer:table-2",
          "sympformer:table-3"]


def _rows(numbers: dict) -> list[list[str]]:
    """One row per arm: label, printed loss and rank (— where the table prints none), measured
    mean ± std and rank."""
    printed = numbers["printed"]
    measured = numbers.get("measured", {})
    p_rank = {label: k + 1 for k, label in enumerate(sorted(printed, key=printed.get))}
    m_rank = {label: k + 1 for k, label in enumerate(sorted(measured, key=lambda l: measured[l]["mean"]))}
    rows = []
    # the printed rows in the table's order, then the arms it prints no loss for, by name (a set's
    # order changes with the process's string hashing: never let it reach the file)
    for label in [*sorted(printed, key=printed.get), *sorted(set(measured) - set(printed))]:
        m = measured.get(label)
        rows.append([label, f"{printed[label]:.4f}" if label in printed else "—", str(p_rank.get(label, "—")),
                     f"{m['mean']:.4f} ± {m['std']:.4f}" if m else "—",
                     str(m_rank[label]) if m else "—"])
    return rows


# Data precision (figures/_registry.py): losses, paired differences and their CIs over seeds of
# the committed runs; the papers print 4 decimals (losses ~1-3) and seed noise is ~1e-3: 6 digits.
DIGITS, FLOOR = 6, 0.0


@figure("ordering-table", claims=TABLES, digits=DIGITS, floor=FLOOR)
def draw(ctx: Context) -> None:
    """Printed best validation losses and ranks vs our full-split losses, mean ± std over seeds."""
    evidence = {cid: ctx.evidence(cid) for cid in TABLES}
    heights = [len(ev.numbers["printed"]) + 3 for ev in evidence.values()]
    fig, axes = plt.subplots(len(TABLES), 1, figsize=(9, 0.3 * sum(heights)),
                             gridspec_kw={"height_ratios": heights})
    data = {}
    for ax, (cid, ev) in zip(axes, evidence.items()):
        n = ev.numbers
        rows = _rows(n)
        ax.axis("off")
        table = ax.table(cellText=rows, colLabels=["row", "paper", "rank", "ours (mean ± std)", "rank"],
                         loc="center", cellLoc="center", colWidths=[0.34, 0.12, 0.08, 0.3, 0.08])
        table.auto_set_font_size(False)
        table.set_fontsize(7)
        agreement = n.get("table_agreement")
        pairs = (f"printed pairs reproduced {agreement['status_counts']['agree']}/{len(agreement['pairs'])}, "
                 f"tau {agreement['kendall_tau']:+.2f}" if agreement
                 else f"{n['n_seeds']} paired seeds committed")
        ax.set_title(f"{cid} ({n.get('source', '')}; study {n['study']}, n = {n['n_seeds']}): "
                     f"{ev.verdict}; {pairs}", fontsize=8)
        data[cid] = {"verdict": ev.verdict, "criterion": ev.criterion, "rows": rows,
                     "sub_assertions": n.get("sub_assertions"), "n_seeds": n["n_seeds"]}
    fig.suptitle("ordering-table: printed orderings vs the committed studies (results/lm)", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.6 / fig.get_figheight()))
    ctx.save(fig)
    ctx.save_json(data)
