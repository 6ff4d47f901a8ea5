"""Renderings of ledger results: terminal table, JSON, the pieces of the ledger pages (verdict
cells, evidence values, ordering tables, tallies; the pages themselves: `claims._pages`) and the
README's summary read back from those pages."""
from __future__ import annotations

import json
import re
import textwrap
from typing import Any, Iterable

from ._ledger import KINDS, Result, RoundingLevel

_MARK = {"holds": "holds", "holds-with-correction": "holds (corrected)", "fails": "FAILS",
         "inconclusive": "inconclusive", "error": "ERROR"}
# What a verdict says of the paper, appended to its mark on the page (`Result.kind`): a premise
# is never the paper's error, an ambiguity holds under one reading of the text.
_KIND_MARK = {"misprint": "misprint", "erratum": "erratum", "premise": "premise",
              "extension": "extension", "ambiguity": "ambiguous", "proxy": "at proxy scale",
              "not-reproduced": "not reproduced", "repeat": "repeats a counted sentence"}
_APART = ("premise", "extension", "repeat")   # kinds that are not statements of the paper
KIND_SEP = " · "
ROOT_MARK = "consequence of "


def _verdict_cell(r: Result) -> str:
    kind = _KIND_MARK.get(r.kind)
    root = (f", {ROOT_MARK}`{r.claim.root_cause}`"
            if r.kind in ("misprint", "erratum") and r.claim.root_cause != r.claim.id else "")
    return _MARK[r.verdict] + (KIND_SEP + kind + root if kind else "")


# Rounding floor of the page: a float this small is at rounding level on every machine, and its
# digits differ between CPUs (1.55e-16 here, 1.54e-16 there; a 50-step float64 trajectory
# difference of 3e-13 with AVX2 kernels is below 1e-13 with AVX-512 ones); the page prints the
# bound, the JSON keeps the value.
FLOAT_FLOOR = 1e-12
LIST_SHOWN, DICT_SHOWN = 6, 12  # entries of a list / dict shown inline; the rest are counted


def _fmt(x: Any, full: bool = False) -> str:
    """A value as the page prints it: 3 significant digits, floats below FLOAT_FLOOR as a bound,
    a long list or dict shortened with the number of entries it hides (`full`: never shortened,
    for tables of printed values); the JSON (`--json`) always has every entry."""
    if isinstance(x, RoundingLevel):
        return f"< {x.bound:g} (rounding level)"
    if isinstance(x, float):
        return f"|x| < {FLOAT_FLOOR:g}" if 0 < abs(x) < FLOAT_FLOOR else f"{x:.3g}"
    if isinstance(x, (list, tuple)):
        shown = x if full else x[:LIST_SHOWN]
        inner = ", ".join(_fmt(v, full) for v in shown)
        return f"[{inner}{_hidden(len(x) - len(shown))}]"
    if isinstance(x, dict):
        items = list(x.items()) if full else list(x.items())[:DICT_SHOWN]
        inner = ", ".join(f"{_key(k)}: {_fmt(v, full)}" for k, v in items)
        return "{" + inner + _hidden(len(x) - len(items)) + "}"
    return str(x)


_FLOAT_KEY = re.compile(r"^[-+]?\d*\.\d{7,}(e[-+]?\d+)?$")


def _key(k: Any) -> str:
    """A dictionary key as the page prints it: a float key (a grid value such as κ) at 6
    significant digits, the precision of the claims' grids, so that its last bits, which differ
    between CPUs (9.391585430568988 here, 9.39158543056899 there), never reach the page."""
    if isinstance(k, float) or (isinstance(k, str) and _FLOAT_KEY.match(k)):
        return f"{float(k):.6g}"
    return str(k)


def _hidden(n: int) -> str:
    return f", … ({n} more in the JSON)" if n > 0 else ""


def _full(key: str) -> bool:
    """Tables of printed values and the deviations from a paper's protocol are never shortened."""
    return key.startswith("printed") or key.endswith("_printed") or key == "deviations"


def table(results: Iterable[Result]) -> str:
    """One row per claim; a claim whose check raised is an `error` row, and its exception is
    repeated in one line under the table (the traceback is on the markdown page)."""
    results = list(results)
    rows = [("id", "verdict", "expect", "method", "locator")]
    for r in results:
        flag = ("" if r.as_expected else "  <-- differs from expect"
                if r.as_reviewed else f"  <-- class {r.kind}, the review decided {r.claim.review['decided']}")
        rows.append((r.claim.id, r.verdict, r.claim.expected(r.budget) + flag, r.claim.method, r.claim.locator))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row[:4], widths)) + "  " + row[4]
             for row in rows]
    lines += ["error in " + r.claim.id + ": " + (r.error or "").partition("\n")[0]
              for r in results if r.evidence is None]
    return "\n".join(lines)


def to_json(results: Iterable[Result]) -> str:
    return json.dumps([r.as_dict() for r in results], indent=2, sort_keys=False)


_TABLED = ("printed", "measured", "sub_assertions", "table_agreement", "scale", "deviations", "flatness")
TABLE_BEGIN, TABLE_END = "<!-- ordering-table {} -->", "<!-- /ordering-table -->"


def _m(x: float) -> str:
    """A count in words' units: 8.19M, 4.92G."""
    return f"{x / 1e9:.3g}G" if x >= 1e9 else f"{x / 1e6:.3g}M" if x >= 1e5 else f"{x:,.0f}"


def ordering_tables(cid: str, numbers: dict) -> list[str]:
    """An experiment claim's evidence as markdown between markers (copied into docs/training.md
    by tools/sync_readme.py): its proxy scale and deviations from the paper's protocol, every
    sub-assertion of every reading with our paired difference, its 95% CI and status, the
    paper's table beside ours (mean ± SD over the paired seeds), the table agreement (never a
    verdict; every printed pair's status), and the flatness of every arm; [] for other claims."""
    if not set(_TABLED) <= set(numbers):
        return []
    n, measured, sc = numbers.get("n_seeds"), numbers["measured"], numbers["scale"]
    o, p = sc["ours"], sc["paper"]
    lines = ["", TABLE_BEGIN.format(cid), "",
             f"Proxy scale: ours {_m(o['params'])} parameters, {o['layers_heads_width']} "
             f"(layers/heads/width), context {o['context']}, {_m(o['tokens_seen'])} tokens seen, "
             f"{o['tokenizer']}, {o['corpus']}, {o['hardware']}; the paper ({p['source']}): "
             f"{_m(p['params'])} parameters ({p['params_printed']}), {p['layers_heads_width']}, context "
             f"{p['context']}, {_m(p['tokens_seen'])} tokens, {p['tokenizer']}, {p['corpus']}, "
             f"{p['hardware']}: {sc['params_ratio_paper_over_ours']:.0f}x our parameters, "
             f"{sc['tokens_ratio_paper_over_ours']:.0f}x our tokens.", "",
             "Deviations from the paper's protocol: " + "; ".join(
                 f"{d['setting']} {d['paper']} → {d['ours']}" for d in numbers["deviations"]) + ".", "",
             f"| reading | sub-assertion | ours: d = loss(b) − loss(a), {n} seeds unless stated [unadjusted 95% CI] | status |",
             "|---|---|---|---|"]
    for rd, subs in numbers["sub_assertions"].items():
        for name, c in subs.items():
            if "mean_diff" not in c:   # runs missing: nothing measured
                lines.append(f"| {rd} | {name} | — | {c['status']} ({c.get('why', 'not measured')}) |")
                continue
            extra = f" (n = {c['n_needed']} would decide)" if c.get("n_needed") else ""
            # a member decided on other seeds (its own arms, a confirmatory sample) says how many
            seeds = f", {c['n_seeds']} seeds" if c.get("n_seeds", n) != n else ""
            lines.append(f"| {rd} | {name} | {c['mean_diff']:+.4f} [{c['ci95'][0]:+.4f}, "
                         f"{c['ci95'][1]:+.4f}]{seeds} | {c['status']}{extra} |")
    lines += ["", "Each status is decided with Holm's adjustment over its reading's sub-assertions "
              "(family-wise level 0.05; 0.05/m for each of the m members of a reading that one member suffices for), so a status can be undecided "
              "beside an unadjusted 95% interval that excludes 0."]
    lines += ["", f"| row | printed | ours: mean ± SD over {n} seeds (nats/byte) |", "|---|---|---|"]
    for row in sorted(measured, key=lambda r: numbers["printed"].get(r, float("inf"))):
        m, pr = measured[row], numbers["printed"].get(row)
        lines.append(f"| {row} | {'—' if pr is None else f'{pr:.4g}'} | {m['mean']:.4f} ± {m['std']:.4f} |")
    ta = numbers["table_agreement"]
    lines += ["", f"Table agreement (evidence, not a verdict): {ta['status_counts']['agree']} of "
              f"{len(ta['pairs'])} printed pairs reproduced ({ta['share_reproduced']:.0%}), "
              f"{ta['status_counts']['reversed']} reversed, {ta['status_counts']['undecided']} "
              f"undecided; Kendall's tau between printed and measured means {ta['kendall_tau']:+.2f} "
              f"(bootstrap 95% CI [{ta['kendall_tau_ci95'][0]:+.2f}, {ta['kendall_tau_ci95'][1]:+.2f}]).",
              "", "<details><summary>every printed pair</summary>", "",
              "| printed pair (a < b) | printed a, b | ours: b − a [95% CI] | status |", "|---|---|---|---|"]
    for pair, c in ta["pairs"].items():
        lines.append(f"| {pair} | {c['printed'][0]:.4g}, {c['printed'][1]:.4g} | {c['mean_diff']:+.4f} "
                     f"[{c['ci95'][0]:+.4f}, {c['ci95'][1]:+.4f}] | {c['status']} |")
    fl = numbers["flatness"]
    lines += ["", "</details>", "",
              f"Flatness ({fl['rule']}): " + ", ".join(
                  f"{arm} {f['mean']:.1%} (max {f['max']:.1%})" for arm, f in fl["per_arm"].items())
              + (f". Above the rule: {', '.join(fl['arms_above_rule'])}." if fl["arms_above_rule"]
                 else ". Every arm meets the rule.")]
    return lines + ["", TABLE_END]


def ordering_blocks(page: str) -> dict[str, str]:
    """{claim id: its ordering-table block, markers included} of a ledger page."""
    begin = re.escape(TABLE_BEGIN).replace(r"\{\}", r"([a-z_]+:[A-Za-z0-9.\-]+)")
    pattern = begin + r".*?" + re.escape(TABLE_END)
    return {m.group(1): m.group(0) for m in re.finditer(pattern, page, re.S)}


def tallies(rows: Iterable[tuple[str, str, str]]) -> dict[str, int]:
    """Counts over (verdict, kind, root cause) triples: the claims of each kind (`KINDS`), the
    papers' own statements (premises, extensions and repeats left out), the root causes of the
    misprints and errata (one slip, one count) and their consequences, and the proxy experiments
    by verdict."""
    rows = list(rows)
    out = {k: sum(kind == k for _, kind, _ in rows) for k in KINDS}
    for k in ("misprint", "erratum"):
        roots = {root for _, kind, root in rows if kind == k}
        out[f"{k}_roots"] = len(roots)
        out[f"{k}_consequences"] = out[k] - len(roots)
    out.update(claims=len(rows), statements=sum(kind not in _APART for _, kind, _ in rows),
               proxy_holds=sum(kind == "proxy" and v == "holds" for v, kind, _ in rows),
               proxy_fails=sum(kind == "proxy" and v != "holds" for v, kind, _ in rows))
    return out


def _n(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _tally_line(t: dict[str, int]) -> str:
    slips = t["misprint_roots"] + t["erratum_roots"]
    consequences = t["misprint_consequences"] + t["erratum_consequences"]
    return (f"{t['claims']} claims. Of the {t['statements']} that check a statement the paper makes: "
            f"{t['holds']} hold as printed; "
            f"{_n(t['misprint_roots'], 'misprint', 'misprints')} (false as printed, the intended form "
            f"shown by the paper itself) and {_n(t['erratum_roots'], 'erratum', 'errata')} (false "
            f"under every admissible reading, the correction derived): {slips} errors of the papers, "
            f"counted once per root cause, which make {_n(consequences, 'further statement', 'further statements')} "
            f"fail as consequences; "
            f"{_n(t['ambiguity'], 'ambiguity', 'ambiguities')} (two readings the words support, one "
            f"holds: a clarification, not an error); "
            f"{_n(t['proxy'], 'experiment', 'experiments')} decided at proxy scale ({t['proxy_holds']} "
            f"hold, {t['proxy_fails']} fail there: neither holds as printed nor an error of the "
            f"paper's runs)"
            + (f"; {_n(t['not-reproduced'], 'experiment', 'experiments')} at the paper's own scale "
               "not reproduced under the printed recipe (not an error shown in the paper)"
               if t["not-reproduced"] else "")
            + f"; {t['inconclusive']} inconclusive" + (f"; {t['error']} raised an error" if t["error"] else "")
            + f". {_n(t['premise'], 'claim checks', 'claims check')} an unstated premise and "
            f"{_n(t['extension'], 'an extension', 'extensions')} (sharper than the text), never "
            "counted as the paper's error."
            + (f" {_n(t['repeat'], 'claim checks', 'claims check')} again, at another level, a "
               "sentence that another claim counts (listed with its own verdict, counted once)."
               if t["repeat"] else ""))


# ------------------------------------------------------------------ the README's summary, from the page

SUMMARY_BEGIN = "<!-- ledger-summary: generated from docs/ledger/ by `python tools/sync_readme.py` -->"
SUMMARY_END = "<!-- /ledger-summary -->"
_VERDICT_OF_MARK = {mark: verdict for verdict, mark in _MARK.items()}
_KIND_OF_MARK = {m: k for k, m in _KIND_MARK.items()}
_ROW = re.compile(r"^\| `([a-z_]+:[^`]+)` \|.*\| ([^|]+?) \|$", re.M)
_MENTION = re.compile(r"`([a-z_]+:[A-Za-z0-9.\-]+)` → (holds-with-correction|holds|fails|inconclusive|error)")


def page_kinds(page: str) -> dict[str, tuple[str, str, str]]:
    """{claim id: (verdict, kind, root cause)} read back from ledger pages written by
    `claims._pages` (the per-paper pages, concatenated: `claims._pages.read_pages`)."""
    out = {}
    for cid, cell in _ROW.findall(page):
        mark, _, tag = cell.split(" (expected ")[0].strip().partition(KIND_SEP)
        if mark not in _VERDICT_OF_MARK:
            raise ValueError(f"page: unknown verdict {cell!r} for {cid}")
        tag, _, root = tag.partition(", " + ROOT_MARK)
        verdict = _VERDICT_OF_MARK[mark]
        kind = _KIND_OF_MARK.get(tag) or verdict
        out[cid] = (verdict, kind, root.strip("`") or cid)
    if not out:
        raise ValueError("page: no claim rows found (is it a ledger page written by claims._pages?)")
    return out


def page_verdicts(page: str) -> dict[str, str]:
    """{claim id: verdict} read back from ledger pages (`page_kinds`)."""
    return {cid: v for cid, (v, _, _) in page_kinds(page).items()}


PROXY_SCALE = (
    "The language-model experiment verdicts among these are at proxy scale: byte-level models of "
    "0.2-0.4M parameters (seed 000's models have 3.4-3.7M, 9-15x ours; seeds 002 and 004's "
    "124-354M, about 500-1600x) trained on a pinned Shakespeare corpus on a CPU, not BPE "
    "TinyStories or OpenWebText on GPUs; each is decided on the "
    "sign of the differences the paper asserts in words and states its scale and its deviations "
    "from the paper's protocol. A `fails` there means the assertion does not hold at that scale, "
    "not that the paper's own runs are wrong.")


def ledger_summary(kinds: dict[str, tuple[str, str, str]]) -> str:
    """The README's generated paragraph: the tallies (misprints and errata by root cause, their
    consequences, ambiguities, proxy experiments, premises and extensions apart), the proxy scale
    of the experiment verdicts, then the ids of every claim that is not a plain hold."""
    t = tallies(kinds.values())
    lines = [SUMMARY_BEGIN] + textwrap.wrap(_tally_line(t) + " " + PROXY_SCALE, width=100) + [""]
    groups = (("misprint", "Misprints (errata of the typo class; the paper shows the intended form), by root cause"),
              ("erratum", "Errata (false under every admissible reading; the correction derived), by root cause"),
              ("proxy", "Experiments decided at proxy scale (not errata)"),
              ("not-reproduced", "Experiments not reproduced under the printed recipe (not errata)"),
              ("ambiguity", "Ambiguities (two admissible readings, one holds)"),
              ("inconclusive", "Inconclusive"), ("premise", "Unstated premises"),
              ("extension", "Extensions (sharper than the text)"),
              ("repeat", "Repeats of a sentence another claim counts"), ("error", "Error"))
    for kind, label in groups:
        mine = {c: (v, r) for c, (v, k, r) in sorted(kinds.items()) if k == kind}
        if not mine:
            continue
        if kind in ("misprint", "erratum"):
            roots = sorted({r for _, r in mine.values()})
            ids = [f"`{root}`" + ("" if not (cons := [c for c, (_, r) in mine.items() if r == root and c != root])
                                  else " (with " + ", ".join(f"`{c}`" for c in cons) + ")") for root in roots]
            n = len(roots)
        else:
            ids = [f"`{c}`" + (f" ({v})" if kind in (*_APART, "proxy") else "") for c, (v, _) in mine.items()]
            n = len(ids)
        lines += textwrap.wrap(f"- {label} ({n}): " + ", ".join(ids) + ".", width=100,
                               subsequent_indent="  ", break_on_hyphens=False)
    return "\n".join(lines + [SUMMARY_END])


def sync_readme(readme: str, kinds: dict[str, tuple[str, str, str]]) -> str:
    """`readme` with its generated summary block rewritten and every `` `id` → verdict `` mention
    set to the verdict of `kinds` ({id: (verdict, kind, root)}, `page_kinds`); raises ValueError
    for a missing block or an unknown id."""
    start, end = readme.find(SUMMARY_BEGIN), readme.find(SUMMARY_END)
    if start < 0 or end < start:
        raise ValueError(f"readme: no block between {SUMMARY_BEGIN!r} and {SUMMARY_END!r}")
    verdicts = {cid: v for cid, (v, _, _) in kinds.items()}
    readme = readme[:start] + ledger_summary(kinds) + readme[end + len(SUMMARY_END):]
    unknown = sorted({cid for cid, _ in _MENTION.findall(readme)} - set(verdicts))
    if unknown:
        raise ValueError(f"readme: mentions claims the ledger pages do not list: {unknown}")
    return _MENTION.sub(lambda m: f"`{m.group(1)}` → {verdicts[m.group(1)]}", readme)


TABLES_BEGIN = "<!-- ledger-tables: generated from docs/ledger/ by `python tools/sync_readme.py` -->"
TABLES_END = "<!-- /ledger-tables -->"


def sync_tables(doc: str, page: str) -> str:
    """`doc` with its generated block rewritten: every ordering table of the ledger page, under its
    claim id and verdict; raises ValueError for a missing block."""
    start, end = doc.find(TABLES_BEGIN), doc.find(TABLES_END)
    if start < 0 or end < start:
        raise ValueError(f"doc: no block between {TABLES_BEGIN!r} and {TABLES_END!r}")
    verdicts, lines = page_verdicts(page), [TABLES_BEGIN]
    for cid, block in ordering_blocks(page).items():
        lines += ["", f"#### `{cid}` → {verdicts[cid]}", "", block]
    return doc[:start] + "\n".join(lines + ["", TABLES_END]) + doc[end + len(TABLES_END):]


COVERAGE_BEGIN = "<!-- coverage-summary: generated from docs/coverage.md by `python tools/sync_readme.py` -->"
COVERAGE_END = "<!-- /coverage-summary -->"
_COVERAGE_TABLE = re.compile(r"^\| paper \| items \|.*?\n(?=\n)", re.M | re.S)


def sync_coverage(readme: str, coverage_page: str) -> str:
    """`readme` with its coverage block rewritten: the first per-paper table of the coverage page
    (docs/coverage.md, protocol items included: items per level, the full share and the full +
    partial + proxy share); raises ValueError for a missing block or table."""
    start, end = readme.find(COVERAGE_BEGIN), readme.find(COVERAGE_END)
    if start < 0 or end < start:
        raise ValueError(f"readme: no block between {COVERAGE_BEGIN!r} and {COVERAGE_END!r}")
    table = _COVERAGE_TABLE.search(coverage_page)
    if table is None:
        raise ValueError("coverage_page: no per-paper table ('| paper | items | ...')")
    return readme[:start] + f"{COVERAGE_BEGIN}\n{table.group(0)}{COVERAGE_END}" + readme[end + len(COVERAGE_END):]
