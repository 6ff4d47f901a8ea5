"""Renderings of ledger results: terminal table, JSON, the markdown page docs/claims.md."""
from __future__ import annotations

import json
import re
import textwrap
from typing import Any, Iterable

from ._ledger import PAPERS, VERDICTS, Result

_MARK = {"holds": "holds", "holds-with-correction": "holds (corrected)", "fails": "FAILS",
         "inconclusive": "inconclusive", "error": "ERROR"}
# What a verdict says of the paper, appended to its mark on the page (`Result.kind`): a premise
# is never the paper's error, an ambiguity holds under one reading of the text.
_KIND_MARK = {"premise": "premise", "ambiguity": "ambiguous", "proxy": "at proxy scale",
              "not-reproduced": "not reproduced", "repeat": "repeats a counted sentence"}
_APART = ("premise", "repeat")   # kinds that are not statements of the paper in the tallies
KIND_SEP = " · "


def _verdict_cell(r: Result) -> str:
    kind = _KIND_MARK.get(r.kind)
    return _MARK[r.verdict] + (KIND_SEP + kind if kind else "")


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
    if isinstance(x, float):
        return f"|x| < {FLOAT_FLOOR:g}" if 0 < abs(x) < FLOAT_FLOOR else f"{x:.3g}"
    if isinstance(x, (list, tuple)):
        shown = x if full else x[:LIST_SHOWN]
        inner = ", ".join(_fmt(v, full) for v in shown)
        return f"[{inner}{_hidden(len(x) - len(shown))}]"
    if isinstance(x, dict):
        items = list(x.items()) if full else list(x.items())[:DICT_SHOWN]
        inner = ", ".join(f"{k}: {_fmt(v, full)}" for k, v in items)
        return "{" + inner + _hidden(len(x) - len(items)) + "}"
    return str(x)


def _hidden(n: int) -> str:
    return f", … ({n} more in the JSON)" if n > 0 else ""


def _full(key: str) -> bool:
    """Tables of printed values are never shortened."""
    return key.startswith("printed") or key.endswith("_printed")


def table(results: Iterable[Result]) -> str:
    """One row per claim; a claim whose check raised is an `error` row, and its exception is
    repeated in one line under the table (the traceback is on the markdown page)."""
    results = list(results)
    rows = [("id", "verdict", "expect", "method", "locator")]
    for r in results:
        flag = "" if r.as_expected else "  <-- differs from expect"
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
             f"| reading | sub-assertion | ours: d = loss(b) − loss(a), {n} seeds [unadjusted 95% CI] | status |",
             "|---|---|---|---|"]
    for rd, subs in numbers["sub_assertions"].items():
        for name, c in subs.items():
            if "mean_diff" not in c:   # runs missing: nothing measured
                lines.append(f"| {rd} | {name} | — | {c['status']} ({c.get('why', 'not measured')}) |")
                continue
            extra = f" (n = {c['n_needed']} would decide)" if c.get("n_needed") else ""
            lines.append(f"| {rd} | {name} | {c['mean_diff']:+.4f} [{c['ci95'][0]:+.4f}, "
                         f"{c['ci95'][1]:+.4f}] | {c['status']}{extra} |")
    lines += ["", "Each status is decided with Holm's adjustment over its reading's sub-assertions "
              "(family-wise level 0.05), so a status can be undecided beside an unadjusted 95% interval "
              "that excludes 0."]
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


def tallies(kinds: Iterable[tuple[str, str]]) -> dict[str, int]:
    """Counts over (verdict, kind) pairs: the papers' own statements by verdict (premises and
    repeats of a counted sentence left out), their errata and ambiguities, the premises, the repeats."""
    kinds = list(kinds)
    own = [v for v, k in kinds if k not in _APART]
    out = {v: own.count(v) for v in (*VERDICTS, "error")}
    out.update(statements=len(own), errata=sum(k == "erratum" for _, k in kinds),
               errata_corrected=sum(k == "erratum" and v == "holds-with-correction" for v, k in kinds),
               errata_failing=sum(k == "erratum" and v == "fails" for v, k in kinds),
               proxy_fails=sum(k == "proxy" for _, k in kinds),
               not_reproduced=sum(k == "not-reproduced" for _, k in kinds),
               ambiguities=sum(k == "ambiguity" for _, k in kinds),
               premises=sum(k == "premise" for _, k in kinds), repeats=sum(k == "repeat" for _, k in kinds),
               claims=len(kinds))
    return out


def _tally_line(t: dict[str, int]) -> str:
    return (f"{t['claims']} claims. Of the {t['statements']} that check a statement the paper makes: "
            f"{t['holds'] - t['ambiguities']} hold as printed, {t['ambiguities']} hold under one "
            f"reasonable reading but not another (ambiguities: a clarification, not an error), "
            f"{t['errata']} are errata ({t['errata_corrected']} hold only with a stated "
            f"correction, {t['errata_failing']} fail under every reasonable reading), "
            + (f"{t['proxy_fails']} {'is an experiment that fails' if t['proxy_fails'] == 1 else 'are experiments that fail'}"
               " at proxy scale (what holds at that scale, not an error of the paper's runs), "
               if t["proxy_fails"] else "")
            + (f"{t['not_reproduced']} {'is an experiment' if t['not_reproduced'] == 1 else 'are experiments'}"
               " at the paper's own scale not reproduced under the printed recipe (with the settings "
               "the paper leaves open filled in; not an error shown in the paper), "
               if t["not_reproduced"] else "")
            + f"{t['inconclusive']} are inconclusive" + (f", {t['error']} raised an error" if t["error"] else "") + ". "
            f"{t['premises']} check an unstated premise or an extension (never counted as the "
            "paper's error)."
            + (f" {t['repeats']} check{'s' if t['repeats'] == 1 else ''} again, at another level, a sentence "
               "that another claim counts (listed with its own verdict, counted once)." if t["repeats"] else ""))


def _claim_rows(rows: list[Result]) -> list[str]:
    out = ["| claim | locator | statement | method | verdict |", "|---|---|---|---|---|"]
    for r in rows:
        c = r.claim
        verdict = _verdict_cell(r) + ("" if r.as_expected else f" (expected {c.expected(r.budget)})")
        out.append(f"| `{c.id}` | {c.locator} | {c.statement} | {c.method} | {verdict} |")
    return out


def _quote(text: str) -> list[str]:
    return ["- paper text:", ""] + [f"  > {line}" if line else "  >" for line in text.splitlines()] + [""]


def markdown(results: Iterable[Result], budget: str) -> str:
    results = list(results)
    t = tallies((r.verdict, r.kind) for r in results)
    out = ["# The claims ledger", "",
           "Generated by `python -m figures` (or `python -m claims --markdown docs/claims.md`); "
           f"do not edit by hand. Budget: `{budget}`.", "",
           "Verdicts are computed by each check from its evidence by the criterion shown; "
           "`expect` is the verdict established earlier, kept as a regression pin. A verdict that "
           "says the paper is wrong (holds with correction, fails) is an erratum only because the "
           "quoted text fails under every reasonable reading listed with it; a statement that holds "
           "under one reading and fails under another is marked *ambiguous* and counted as holding. "
           "Claims marked *premise* check something the paper does not state (an assumption its "
           "argument needs, a setting it does not discuss) and are listed under their own heading, "
           "outside the paper's tally.", "",
           "Language-model experiment verdicts are at proxy scale: byte-level models of 0.2-0.4M "
           "parameters on a pinned Shakespeare corpus, trained on a CPU (the papers: BPE tokens of "
           "TinyStories or OpenWebText on GPUs; seed 000's models have 3.4-3.7M parameters, 9-15x "
           "ours, seeds 002 and 004's 124-354M, about 500-1600x); each states its `scale` and its "
           "`deviations` from the paper's protocol. A verdict there says what holds at that scale, "
           "on the sign of each difference the paper asserts; it is not a replication of the paper's "
           "own runs, and one that fails there is marked *at proxy scale* and counted apart from the "
           "errata. An experiment at the paper's own scale (seed 001's small networks) that fails is "
           "marked *not reproduced*: the printed recipe, with the settings the paper leaves open "
           "filled in, does not give what the paper reports of its own runs; it is counted apart "
           "from the errata too.", "",
           _tally_line(t), "",
           "| verdict | the papers' statements | premises and extensions | repeats of a counted sentence |",
           "|---|---|---|---|"]
    for v in (*VERDICTS, "error"):
        n_own = sum(1 for r in results if r.verdict == v and r.kind not in _APART)
        n_prem = sum(1 for r in results if r.verdict == v and r.kind == "premise")
        n_rep = sum(1 for r in results if r.verdict == v and r.kind == "repeat")
        if n_own or n_prem or n_rep:
            out.append(f"| {v} | {n_own} | {n_prem} | {n_rep} |")
    for paper, seed in PAPERS.items():
        rows = [r for r in results if r.claim.paper == paper]
        if not rows:
            continue
        own, premises = [r for r in rows if r.kind != "premise"], [r for r in rows if r.kind == "premise"]
        pt = tallies((r.verdict, r.kind) for r in rows)
        out += ["", f"## `{paper}` ({seed})", "", _tally_line(pt), ""] + _claim_rows(own)
        if premises:
            out += ["", f"### `{paper}`: unstated premises and extensions", "",
                    "Not statements of the paper: assumptions its arguments need or settings it does "
                    "not discuss. Their verdicts are never counted as the paper's errors.", ""]
            out += _claim_rows(premises)
        for r in own + premises:
            out += ["", f"### `{r.claim.id}`: {_verdict_cell(r)}", ""]
            if r.claim.paper_text:
                out += _quote(r.claim.paper_text)
            if r.claim.repeats:
                out.append(f"- repeats: `{r.claim.repeats}` checks the same sentence; it is counted once, there")
            if r.evidence is None:
                out += ["```", (r.error or "").strip(), "```"]
                continue
            e = r.evidence.as_dict()
            out.append(f"- criterion: {e['criterion']}")
            for rd in e["readings"]:
                extra = {k: v for k, v in rd.items() if k not in ("reading", "verdict")}
                out.append(f"- reading: {rd['reading']} → {rd['verdict']}"
                           + (f" ({_fmt(extra)})" if extra else ""))
            if e["ambiguity"]:
                out.append(f"- ambiguity: {e['ambiguity']}")
            tables = ordering_tables(r.claim.id, e["numbers"])
            for k, v in e["numbers"].items():
                if not (tables and k in _TABLED):
                    out.append(f"- {k}: {_fmt(v, _full(k))}")
            out += tables
            if e["correction"]:
                out.append(f"- correction: {e['correction']}")
            if e["counterexample"]:
                out.append(f"- counterexample: {_fmt(e['counterexample'])}")
            if r.claim.referee:
                out.append(f"- referee: {r.claim.referee}")
            if r.claim.figures:
                out.append("- figures: " + ", ".join(
                    f"[{f}](figures/{f}.png)" for f in r.claim.figures))
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ the README's summary, from the page

SUMMARY_BEGIN = "<!-- ledger-summary: generated from docs/claims.md by `python tools/sync_readme.py` -->"
SUMMARY_END = "<!-- /ledger-summary -->"
_VERDICT_OF_MARK = {mark: verdict for verdict, mark in _MARK.items()}
_ROW = re.compile(r"^\| `([a-z_]+:[^`]+)` \|.*\| ([^|]+?) \|$", re.M)
_MENTION = re.compile(r"`([a-z_]+:[A-Za-z0-9.\-]+)` → (holds-with-correction|holds|fails|inconclusive|error)")


def page_kinds(page: str) -> dict[str, tuple[str, str]]:
    """{claim id: (verdict, kind)} read back from a ledger page written by `markdown`."""
    out = {}
    for cid, cell in _ROW.findall(page):
        mark, _, tag = cell.split(" (expected ")[0].strip().partition(KIND_SEP)
        if mark not in _VERDICT_OF_MARK:
            raise ValueError(f"page: unknown verdict {cell!r} for {cid}")
        verdict = _VERDICT_OF_MARK[mark]
        kind = {m: k for k, m in _KIND_MARK.items()}.get(tag) or (
            "erratum" if verdict in ("holds-with-correction", "fails") else verdict)
        out[cid] = (verdict, kind)
    if not out:
        raise ValueError("page: no claim rows found (is it a ledger page written by `markdown`?)")
    return out


def page_verdicts(page: str) -> dict[str, str]:
    """{claim id: verdict} read back from a ledger page written by `markdown` (docs/claims.md)."""
    return {cid: v for cid, (v, _) in page_kinds(page).items()}


PROXY_SCALE = (
    "The language-model experiment verdicts among these are at proxy scale: byte-level models of "
    "0.2-0.4M parameters (seed 000's models have 3.4-3.7M, 9-15x ours; seeds 002 and 004's "
    "124-354M, about 500-1600x) trained on a pinned Shakespeare corpus on a CPU, not BPE "
    "TinyStories or OpenWebText on GPUs; each is decided on the "
    "sign of the differences the paper asserts in words and states its scale and its deviations "
    "from the paper's protocol. A `fails` there means the assertion does not hold at that scale, "
    "not that the paper's own runs are wrong.")


def ledger_summary(kinds: dict[str, tuple[str, str]]) -> str:
    """The README's generated paragraph: the tallies (errata, ambiguities and premises apart), the
    proxy scale of the experiment verdicts, then the ids of every claim that is not a plain
    hold."""
    t = tallies(kinds.values())
    lines = [SUMMARY_BEGIN] + textwrap.wrap(_tally_line(t) + " " + PROXY_SCALE, width=100) + [""]
    groups = (("erratum", "holds-with-correction", "Errata, hold only with a correction"),
              ("erratum", "fails", "Errata, fail under every reading"),
              ("proxy", "fails", "Experiments that fail at proxy scale (not errata)"),
              ("not-reproduced", "fails", "Experiments not reproduced under the printed recipe (not errata)"),
              ("ambiguity", "holds", "Ambiguous, hold under one reading"),
              ("inconclusive", "inconclusive", "Inconclusive"),
              ("premise", None, "Unstated premises and extensions"),
              ("repeat", None, "Repeats of a sentence another claim counts"), ("error", "error", "Error"))
    for kind, verdict, label in groups:
        ids = [f"`{c}`" + (f" ({v})" if kind in _APART else "")
               for c, (v, k) in sorted(kinds.items()) if k == kind and verdict in (None, v)]
        if ids:
            lines += textwrap.wrap(f"- {label} ({len(ids)}): " + ", ".join(ids) + ".", width=100,
                                   subsequent_indent="  ", break_on_hyphens=False)
    return "\n".join(lines + [SUMMARY_END])


def sync_readme(readme: str, kinds: dict[str, tuple[str, str]]) -> str:
    """`readme` with its generated summary block rewritten and every `` `id` → verdict `` mention
    set to the verdict of `kinds` ({id: (verdict, kind)}, `page_kinds`); raises ValueError for a
    missing block or an unknown id."""
    start, end = readme.find(SUMMARY_BEGIN), readme.find(SUMMARY_END)
    if start < 0 or end < start:
        raise ValueError(f"readme: no block between {SUMMARY_BEGIN!r} and {SUMMARY_END!r}")
    verdicts = {cid: v for cid, (v, _) in kinds.items()}
    readme = readme[:start] + ledger_summary(kinds) + readme[end + len(SUMMARY_END):]
    unknown = sorted({cid for cid, _ in _MENTION.findall(readme)} - set(verdicts))
    if unknown:
        raise ValueError(f"readme: mentions claims the ledger page does not list: {unknown}")
    return _MENTION.sub(lambda m: f"`{m.group(1)}` → {verdicts[m.group(1)]}", readme)


TABLES_BEGIN = "<!-- ledger-tables: generated from docs/claims.md by `python tools/sync_readme.py` -->"
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
