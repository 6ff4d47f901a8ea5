"""Many runs of the committed studies at once, on the CPU cores or one shared GPU, by a deadline.

    python -m particles.lm study run all|NAME [--variants ... --seeds ...] \\
        [--device cuda] [--jobs N] [--deadline-s S]

`plan_tasks` lists the runs in order (``all``: `studies.PLAN`, seed-major within each group, each
run once). `run_tasks` starts `jobs` worker processes (forked by a clean ``forkserver`` that has
imported torch once and never touched CUDA; one job runs in this process); each walks the list in
order and takes the next run nobody is training (`Study.train_run`: under the run's lock in
``runs/lm/<study>/``, after checking that no valid result and no divergence record exists; a live
process of another invocation holds its runs the same way). A finished run's result is written atomically as it finishes (`train`), so an
interrupted invocation loses at most the steps since the runs in flight last evaluated, and a
second invocation trains nothing that is done. The studies' models are tiny and launch-bound on a
GPU (89k tokens/s for one process on an H100), so several processes share one GPU.

A deadline (`deadline_s` seconds after the start) is kept twice over:

* a run is not started when its estimate ends after the deadline: its remaining steps (after its
  checkpoint) x seconds per step x (1 + `EVAL_MARGIN`) + `STARTUP_S`. Seconds per step come from
  this invocation's runs of the study (their pace on this device, at this sharing), else from the
  study's committed runs of the same device kind (`Study.step_seconds`: the variant's own, else
  vanilla's x its `bench-training` ratio); with neither the run is started.
* a running run projects its end at every checkpoint (every evaluation) from its own pace; when
  that is after the deadline it stops there (`Stopped`), its checkpoint kept: the next invocation
  resumes it with identical curves. A run started without an estimate thus gives its slot back
  after one evaluation interval when it cannot finish.

With `partial` (``--partial``) runs that cannot finish are started too (when they reach a
checkpoint by the deadline) and a running run goes on to its last checkpoint before the deadline:
every slot trains until the deadline, and what did not finish lives in its checkpoint (runs longer
than one call of a lent machine progress from call to call, when the checkpoints come back).

Outcomes, and each run's step at every checkpoint, go to a JSON-lines log that the parent reads,
prints and returns (`Summary`); with `progress` and several jobs the parent shows one tqdm bar over
the steps of every run it has to train (one job: the run's own bar), and a finished run's line is
printed at once (flushed: under ``nohup`` a log shows it as it happens).
"""
from __future__ import annotations

import json
import multiprocessing as mp
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import torch

from . import studies
from .train import ResultError, run_stem

EVAL_MARGIN = 0.15  # evaluations (32 forward batches per 200 steps) and the final full-split one
STARTUP_S = 15.0  # process, corpus and device start of a run (a CUDA context takes seconds)
# the outcome that describes a run best when several workers reported on it
PRIORITY = ("trained", "diverged", "stopped", "failed", "invalid", "not-started", "held", "other-device", "done")
PRINTED = ("trained", "diverged", "stopped", "failed", "invalid")
_now = time.time  # the clock of the deadline (a test replaces it)


@dataclass(frozen=True)
class Task:
    study: studies.Study
    variant: str
    seed: int

    @property
    def name(self) -> str:
        return f"{self.study.name}/{run_stem(self.variant, self.seed)}"


class Stopped(Exception):
    """A run stopped at a checkpoint because it could not finish by the deadline."""


def plan_tasks(name: str, variants=None, seeds=None) -> list[Task]:
    """The runs of study `name` (`variants` x `seeds`, seed-major), or with ``all`` those of
    `studies.PLAN` in its order, each run once."""
    if name == "all":
        groups = [(studies.STUDIES[n], v, s) for n, v, s in studies.PLAN]
    else:
        study = studies.get_study(name)
        groups = [(study, tuple(variants or study.variants), tuple(seeds or study.seeds))]
    tasks = {}
    for study, vs, ss in groups:
        for s in ss:
            for v in vs:
                tasks.setdefault((study.name, v, s), Task(study, v, s))
    return list(tasks.values())


@dataclass
class Summary:
    """Each run's outcome (task name -> 'trained', 'stopped', 'not-started', 'done', ...; the most
    telling report of any worker) with a line of detail, and the invocation's seconds."""

    tasks: list[Task]
    outcomes: dict[str, str] = field(default_factory=dict)
    details: dict[str, str] = field(default_factory=dict)
    elapsed_s: float = 0.0

    def named(self, outcome: str) -> list[str]:
        return [t.name for t in self.tasks if self.outcomes.get(t.name) == outcome]

    def lines(self) -> list[str]:
        counts = {o: len(self.named(o)) for o in PRIORITY if self.named(o)}
        out = [f"{len(self.tasks)} runs in {self.elapsed_s:.0f} s: "
               + ", ".join(f"{n} {o}" for o, n in counts.items())]
        for o in ("trained", "stopped", "diverged", "failed", "invalid", "not-started"):
            out += [f"  {o} {name}: {self.details.get(name, '')}".rstrip(": ") for name in self.named(o)]
        return out


def run_tasks(tasks: list[Task], *, device: str = "cpu", jobs: int = 1, threads: int | None = None,
              deadline_s: float | None = None, partial: bool = False, recompute: bool = False,
              progress: bool = False, poll=None, poll_s: float = 5.0, echo=None) -> Summary:
    """Train the runs of `tasks` that are not done with `jobs` processes on `device` (each with
    `threads` torch threads; default: the cores shared out), by `deadline_s` (module docstring;
    `partial`: also start runs that cannot finish by then, and stop them at their last checkpoint
    before it). `poll(summary)` is called every `poll_s` seconds and at the end (a copier of
    finished results); `echo` prints each finished, stopped or failed run (default: a flushed
    print, through the progress bar when there is one)."""
    if jobs < 1:
        raise ValueError(f"jobs must be >= 1, got {jobs}")
    if deadline_s is not None and not deadline_s > 0:
        raise ValueError(f"deadline_s must be > 0, got {deadline_s}")
    if threads is None and jobs > 1:
        threads = max(1, (os.cpu_count() or 1) // jobs)
    tasks = [Task(t.study.on(device, threads), t.variant, t.seed) for t in tasks]  # checks the device
    start = time.time()
    deadline_at = _now() + deadline_s if deadline_s is not None else None
    summary = Summary(tasks)
    todo, sample_devices = [], {}  # the device kinds of each confirmatory sample's committed runs
    for t in tasks:  # what is done needs no process (a worker checks again under the run's lock)
        try:
            done = not recompute and (t.study.divergence(t.variant, t.seed) is not None or (
                t.study.path(t.variant, t.seed).exists() and bool(t.study.read(t.variant, t.seed))))
        except ResultError as exc:
            summary.outcomes[t.name], summary.details[t.name] = "invalid", str(exc)
            (echo or print)(f"invalid {t.name}: {exc}")
            continue
        if t.study.confirmatory and t.study.name not in sample_devices:
            sample_devices[t.study.name] = t.study.collect().devices(t.study.variants, t.study.seeds)
        kinds = sample_devices.get(t.study.name, set())
        if done:
            summary.outcomes[t.name] = "done"
        elif kinds - {torch.device(device).type}:  # a confirmatory sample trains on one device kind
            summary.outcomes[t.name] = "other-device"
            summary.details[t.name] = (f"confirmatory sample {t.study.name} has runs on {', '.join(sorted(kinds))}: "
                                       f"its other runs train there, not on {device}")
        else:
            todo.append(t)
    jobs = min(jobs, len(todo))
    bar = None
    if progress and jobs > 1:
        from tqdm import tqdm
        bar = tqdm(total=sum(t.study.config.steps for t in todo), unit="step",
                   desc=f"{len(todo)} runs, {jobs} jobs")
    say = echo or (bar.write if bar is not None else lambda line: print(line, flush=True))
    steps: dict[str, int] = {}  # each task's last reported step
    with tempfile.TemporaryDirectory(prefix="lm-runner-") as tmp:
        events = Path(tmp) / "events.jsonl"
        events.touch()
        args = (todo, deadline_at, partial, recompute and start, studies.RESULTS_ROOT, studies.WEIGHTS_ROOT,
                events)
        seen = 0

        def collect():
            nonlocal seen
            lines = _lines(events)
            for e in map(json.loads, lines[seen:]):
                name, outcome = e["task"], e["outcome"]
                if "step" in e:
                    steps[name] = e["step"]
                if outcome == "checkpoint":
                    continue
                if outcome in PRINTED:
                    say(f"{outcome} {name}: {e['detail']}" if e["detail"] else f"{outcome} {name}")
                known = summary.outcomes.get(name)
                if known is None or PRIORITY.index(outcome) < PRIORITY.index(known):
                    summary.outcomes[name], summary.details[name] = outcome, e["detail"]
            seen = len(lines)
            summary.elapsed_s = time.time() - start
            if bar is not None:
                bar.update(sum(steps.values()) - bar.n)

        if jobs == 1:
            _work(0, *args, progress=progress)
        elif jobs > 1:
            ctx = mp.get_context("forkserver")  # a clean server forks the workers: fork-safe for CUDA,
            ctx.set_forkserver_preload([__name__])  # and torch is imported once, not once per worker
            procs = [ctx.Process(target=_work, args=(i, *args), daemon=False) for i in range(jobs)]
            for p in procs:
                p.start()
            while any(p.is_alive() for p in procs):
                for p in procs:
                    p.join(timeout=poll_s / len(procs))
                collect()
                if poll is not None:
                    poll(summary)
            bad = [f"worker {i} exit status {p.exitcode}" for i, p in enumerate(procs) if p.exitcode]
            if bad:
                say("; ".join(bad))
        collect()
    if bar is not None:
        bar.close()
    if poll is not None:
        poll(summary)
    return summary


def _work(worker: int, tasks: list[Task], deadline_at: float | None, partial: bool, recompute: float | bool,
          results_root: Path, weights_root: Path, events: Path, progress: bool = False) -> None:
    """One worker: every task in order that is not done and that nobody trains, within the deadline
    (`recompute`: the invocation's start time, when every run is retrained once)."""
    studies.RESULTS_ROOT, studies.WEIGHTS_ROOT = Path(results_root), Path(weights_root)  # a worker process
    committed: dict[str, studies.Collected] = {}

    def report(task: Task, outcome: str, detail: str = "", **extra) -> None:
        line = json.dumps({"task": task.name, "study": task.study.name, "variant": task.variant,
                           "seed": task.seed, "outcome": outcome, "detail": detail[:1000], "worker": worker,
                           "kind": torch.device(task.study.config.device).type, **extra})
        with open(events, "a") as f:  # one short append: whole lines, in any order between workers
            f.write(line + "\n")

    for task in tasks:
        study, v, s = task.study, task.variant, task.seed
        if deadline_at is not None and (recompute or not _done(study, v, s)):
            if study.name not in committed:
                committed[study.name] = study.collect()
            pace = _pace(task, committed[study.name], events)
            why = _no_start(task, pace, deadline_at, partial)
            if why:
                report(task, "not-started", why)
                continue
        t0 = time.time()
        deadline = _deadline_hook(task, deadline_at, partial, report) if deadline_at is not None else None

        def hook(step: int, elapsed: float, task=task, deadline=deadline) -> None:
            report(task, "checkpoint", step=step)  # the parent's progress bar
            if deadline is not None:
                deadline(step, elapsed)
        try:
            outcome, result = study.train_run(v, s, progress=progress, recompute=bool(recompute), on_checkpoint=hook,
                                              since=recompute or None)
        except Stopped:
            continue  # reported by the hook
        except ResultError as exc:
            report(task, "invalid", str(exc))
            continue
        except Exception as exc:  # noqa: BLE001 -- one failed run must not stop the others
            report(task, "failed", f"{type(exc).__name__}: {exc}")
            continue
        if outcome == "trained":
            report(task, outcome, f"val (full split) {result['val_loss_full']:.4f}, {result['step_time_s']:.4f} "
                   f"s/step, {time.time() - t0:.0f} s", pace=result["step_time_s"], step=study.config.steps)
        else:
            report(task, outcome)


def _no_start(task: Task, pace: float | None, deadline_at: float, partial: bool) -> str | None:
    """Why the task is not started now (None: start it). Without a pace it starts while time is left."""
    left = deadline_at - _now()
    if left <= 0:
        return "the deadline has passed"
    if pace is None:
        return None
    cfg = task.study.config
    need = (cfg.steps - _checkpoint_step(task)) * pace * (1 + EVAL_MARGIN) + STARTUP_S
    if need <= left:
        return None
    if partial and min(cfg.eval_interval, cfg.steps) * pace * (1 + EVAL_MARGIN) + STARTUP_S <= left:
        return None  # it reaches a checkpoint by the deadline
    return f"could not finish by the deadline (estimate {need:.0f} s, {left:.0f} s left)"


def _lines(events: Path) -> list[str]:
    """The complete lines of the event log (a line being appended is left for the next read)."""
    text = events.read_text()
    return text[: text.rfind("\n") + 1].splitlines()


def _done(study: studies.Study, variant: str, seed: int) -> bool:
    """A result file (valid or not: `Study.read` says) or a committed divergence exists."""
    return study.path(variant, seed).exists() or study.divergence(variant, seed) is not None


def _pace(task: Task, committed: studies.Collected, events: Path) -> float | None:
    """Training seconds per step of the task on its device kind: from this invocation's runs of its
    study (finished or stopped), else from the study's committed runs; None when neither tells."""
    study, kind = task.study, torch.device(task.study.config.device).type
    paces: dict[str, dict[int, dict]] = {}
    for e in map(json.loads, _lines(events)):
        if e["study"] == study.name and e.get("pace") and e["kind"] == kind:
            paces.setdefault(e["variant"], {})[e["seed"]] = {"step_time_s": e["pace"], "config": {"device": kind}}
    pace = study.step_seconds(studies.Collected(paces), task.variant, kind) if paces else None
    return pace if pace is not None else study.step_seconds(committed, task.variant, kind)


def _checkpoint_step(task: Task) -> int:
    """The step a run would resume from (0 without a readable checkpoint)."""
    path = studies.WEIGHTS_ROOT / task.study.name / f"{run_stem(task.variant, task.seed)}.ckpt"
    try:
        return int(torch.load(path, map_location="cpu", weights_only=False)["step"]) if path.exists() else 0
    except Exception:  # noqa: BLE001 -- a corrupt checkpoint is `train`'s to report
        return 0


def _deadline_hook(task: Task, deadline_at: float, partial: bool, report):
    """`train`'s `on_checkpoint`: a run whose own pace ends it after the deadline stops there
    (`Stopped`, its checkpoint kept) -- with `partial`, only at the last checkpoint before the
    deadline. The pace is the faster of the last interval between checkpoints and the run's since
    it started (the whole run at the first checkpoint): a run slows down when another job shares
    its core for a while (7 Dec 2026: a regeneration beside two runs made the last-interval pace
    stop runs that would have finished), and one slow interval must not stop it."""
    last: list[tuple[int, float]] = []
    cfg = task.study.config

    def hook(step: int, elapsed: float) -> None:
        prev_step, prev_elapsed = last[-1] if last else (0, 0.0)
        interval = (elapsed - prev_elapsed) / max(1, step - prev_step)
        pace = min(interval, elapsed / max(1, step))
        last.append((step, elapsed))
        now = _now()
        end = now + (cfg.steps - step) * pace * (1 + EVAL_MARGIN)
        if end <= deadline_at:
            return
        if partial and now + min(cfg.eval_interval, cfg.steps - step) * pace * (1 + EVAL_MARGIN) <= deadline_at:
            return  # the next checkpoint still comes before the deadline
        report(task, "stopped", f"at step {step} of {cfg.steps} (it would end {end - deadline_at:.0f} s after "
               f"the deadline); its checkpoint resumes it", pace=elapsed / max(1, step), step=step)
        raise Stopped(task.name)
    return hook
