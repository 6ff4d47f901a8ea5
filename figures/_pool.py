"""`python -m figures --jobs N`: the figures and the ledger's claims in N worker processes.

A figure draws the evidence of the claims it names (`Figure.claims`), and the ledger page shows
the same runs: each figure is therefore one task with the ledger claims it names, run in one
worker in one `Context` (the figure first, then those of its claims it did not ask for), so that a
claim is computed once. Figures that name a common claim are one task (drawn in their order). The
other ledger claims are one task each. Tasks are submitted slowest first by the last timing table
(`claims._jobs.known_seconds`), and their results are collected in the main process's `Context`
as the sequential run leaves them: the ledger page is then written from the same results in the
same order, and the figure files are written by the same code, so a run with `--jobs 2` writes
the bytes of a run with `--jobs 1`. A figure a worker does not know (registered at run time in
the main process only) is drawn in the main process after the pool, a claim it cannot run or send
back is run there by the ledger step; a worker that dies fails its figures and turns its claims
into error rows, as an exception would in the sequential run."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping, Sequence

import claims
from claims import Claim, Result
from claims._jobs import (Ran, claim_task, known_seconds, lookup, one_thread, pack, pool, unpack,
                          worker_error)

from ._registry import Context, Figure, load


@dataclass(frozen=True)
class Task:
    figures: tuple[str, ...]   # drawn in this order, in one Context
    claims: tuple[str, ...]    # ledger claims run after them in that Context (if not run already)


@dataclass(frozen=True)
class Drawn:
    """What a figure task sends back."""

    failed: dict[str, str]            # figure -> the line `python -m figures` reports
    seconds: dict[str, float]         # figure -> seconds drawing, its claims excluded
    ran: list[Ran] = field(default_factory=list)
    unknown: tuple[str, ...] = ()     # figures this worker does not know: drawn by the main process


def plan(shows: Mapping[str, Iterable[str]], names: Sequence[str], ledger: Sequence[str],
         seconds: Mapping[str, float] | None = None) -> list[Task]:
    """The tasks of a run drawing `names` and running the claims `ledger` (ids); `shows` maps a
    figure to the claims it shows. Slowest first by `seconds` (figure names and claim ids; unknown
    ones count 0, ties keep this order: the figures in the order of `names`, then the other claims
    in the order of `ledger`)."""
    groups: list[tuple[list[str], set[str]]] = []   # figures joined by a claim they show
    for name in names:
        named = set(shows[name])
        joined = [g for g in groups if g[1] & named]
        rest = [g for g in groups if not g[1] & named]
        members = sorted([n for g in joined for n in g[0]] + [name], key=list(names).index)
        groups = rest + [(members, named.union(*(g[1] for g in joined)))]
    groups.sort(key=lambda g: list(names).index(g[0][0]))
    shown = set().union(*(g[1] for g in groups))
    tasks = [Task(tuple(members), tuple(c for c in ledger if c in named))
             for members, named in groups]
    tasks += [Task((), (c,)) for c in ledger if c not in shown]
    cost = seconds or {}
    return sorted(tasks, key=lambda t: -sum(cost.get(x, 0.0) for x in (*t.figures, *t.claims)))


def figure_task(task: Task, out: Path, budget: str) -> Drawn:
    """A worker's task: draw the figures of `task`, then run its claims, in one Context."""
    registered = load()
    ctx = Context(out=out, budget=budget)
    failed, unknown = {}, []
    with one_thread():
        for name in task.figures:
            if name not in registered:
                unknown.append(name)
                continue
            failure = ctx.draw(registered[name])
            if failure is not None:
                failed[name] = failure
        ctx.name = ""
        for cid in task.claims:
            if lookup(cid, claims.load) is not None:   # else the main process runs it
                ctx.result(cid)
    ran = [pack(ctx._results[cid], s, where) for cid, where, s in ctx.runs]
    return Drawn(failed, dict(ctx.drawn), ran, tuple(unknown))


def run(ctx: Context, figures: Mapping[str, Figure], tasks: Sequence[Task], ledger: Sequence[Claim],
        jobs: int) -> dict[str, str]:
    """Run `tasks` in `jobs` processes into `ctx` (its claim results, `runs` and `drawn`, as the
    sequential run leaves them); return {figure: the line reported for it} of the figures that
    failed."""
    by_id = {c.id: c for c in ledger}
    failed: dict[str, str] = {}
    redo: list[str] = []

    def claim(cid: str) -> Claim:
        return by_id[cid] if cid in by_id else lookup(cid, claims.load)

    def take(ran: list[Ran]) -> None:
        for r in ran:
            if r.missing is None:   # else the ledger step runs it here
                ctx.remember(unpack(r, claim(r.id), ctx.budget), r.where, r.seconds)

    def receive(i: int, value: Drawn | list[Ran]) -> None:
        if isinstance(value, Drawn):
            failed.update(value.failed)
            ctx.drawn.update(value.seconds)
            redo.extend(value.unknown)
            value = value.ran
        take(value)

    def fail(i: int, exc: BaseException) -> None:
        for name in tasks[i].figures:
            failed[name] = f"{name}: {type(exc).__name__}: {' '.join(str(exc).split())}"
        for cid in tasks[i].claims:
            ctx.remember(Result(claim(cid), ctx.budget, None, error=worker_error(exc)), "", 0.0)

    calls = [(figure_task, (t, ctx.out, ctx.budget)) if t.figures
             else (claim_task, (t.claims, ctx.budget, claims.load)) for t in tasks]
    pool(calls, jobs, receive, fail, f"figures and claims ({ctx.budget}, {jobs} jobs)")
    for name in sorted(redo, key=list(figures).index):
        failure = ctx.draw(figures[name])
        if failure is not None:
            failed[name] = failure
    ctx.name = ""
    return failed


def tasks_of(figures: Mapping[str, Figure], names: Sequence[str], ledger: Sequence[Claim],
             budget: str) -> list[Task]:
    """The tasks of `plan`; a figure shows the claims it names (`Figure.claims`) and those that
    name it (`Claim.figures`: a claim drawn from the same computation, e.g. the same trained
    models, which one worker then computes once)."""
    shows = {n: {*figures[n].claims, *(c.id for c in ledger if n in c.figures)} for n in names}
    return plan(shows, names, [c.id for c in ledger], known_seconds(budget))
