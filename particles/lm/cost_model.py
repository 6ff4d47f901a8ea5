"""A roofline cost model of one training step, per variant (issue 25, item 5).

The papers' wall-clock statements (seed 002 §4.2 and App. D.6, seed 004 §6, seed 000 §6 /
Table 1) are about GPU seconds per step at their own sizes (12 layers, width 768, T = 1024;
seed 000 Table 1: 8 layers, width 64, T = 512). This CPU cannot time those; it can count them.

Counting. One training step (`accumulation` forward + backward passes of a micro-batch, then one
optimizer step) is traced op by op under torch's `FakeTensorMode` (shapes and dtypes only: no
memory, seconds at 124M parameters), optionally under `torch.autocast(bfloat16)` as the papers
train. Every dispatched aten op is recorded with

* FLOPs: `torch.utils.flop_counter`'s formulas (the registry `FlopCounterMode` uses: mm, addmm,
  bmm, baddbmm, attention), plus the same SDPA formulas for the CPU flash-attention kernels that
  registry lacks; the trace's total is checked against `FlopCounterMode` run beside it.
  Pointwise arithmetic is not counted (FLOPs of the matmul class only); the flash-attention
  backward counts the recomputation of the scores (5 matmuls, not 4).
* bytes: the tensors an op reads (its tensor arguments) and writes (its outputs), each counted
  once per op, at the distinct memory it spans (a broadcast/expanded operand counts its stored
  elements only); views, `detach` and allocation move nothing.

Two execution models turn the trace into bytes moved per step:

* eager: every non-view op is one kernel that reads its operands and writes its results
  (PyTorch eager, as the CPU benchmark runs);
* fused: pointwise and reduction ops that feed each other within one phase (forward, backward,
  optimizer) form one kernel (as torch.compile's inductor fuses them; seed 002 App. D.4 trains
  compiled): a fused kernel reads only the tensors produced outside it and writes only the
  tensors read outside it (by a matmul, another kernel, a later phase, or persistent state).
  Matmuls, attention and embedding kernels stay their own kernels. This is an ideal-fusion
  lower bound on traffic: real compilers fuse less.

Time. Per kernel k, t_k = max(F_k / P, B_k / W(B_k)) (the roofline), with causal attention
executing half of its counted FLOPs (flash kernels skip the masked blocks), plus a fixed cost c
per dispatched op:

* CPU (one thread, synchronous): t = Σ_ops c + Σ_k t_k + (batched matmuls) Σ n_batch c_bmm,
  with P, W(B) (bandwidth of an elementwise op whose operands total B bytes: cache levels
  included), c and c_bmm measured by `measure_cpu` (microbenchmarks, none fitted to the step
  timings it is validated against);
* GPU (asynchronous launches): t = Σ_k max(c_launch, t_k): a kernel shorter than its launch
  costs the launch.

The model's CPU prediction is validated against the committed measurement of
`particles.lm.bench.training_throughput` (ratios t_variant / t_vanilla); the paper-scale ratio
on `H100` carries that validation error (claims/_wallclock.py).
"""
from __future__ import annotations

import contextlib
import math
import time
from dataclasses import asdict, dataclass, replace

import numpy as np
import torch
from torch.utils import flop_counter as fc
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten

from theory.checks import positive_int

from .timing import logits_cross_entropy, step_optimizers, time_training

aten = torch.ops.aten

# The CPU flash-attention kernels `scaled_dot_product_attention` dispatches to on this CPU,
# counted with the formulas torch's registry uses for the CUDA flash kernels.
_CPU_SDPA = aten._scaled_dot_product_flash_attention_for_cpu
_CPU_SDPA_BACKWARD = aten._scaled_dot_product_flash_attention_for_cpu_backward


def _cpu_sdpa_flops(query, key, value, *args, out_shape=None, **kwargs) -> int:
    return fc.sdpa_flop_count(query, key, value)


def _cpu_sdpa_backward_flops(grad_out, query, key, value, *args, out_shape=None, **kwargs) -> int:
    return fc.sdpa_backward_flop_count(grad_out, query, key, value)


CUSTOM_FLOPS = {_CPU_SDPA: _cpu_sdpa_flops, _CPU_SDPA_BACKWARD: _cpu_sdpa_backward_flops}
ATTENTION_OPS = {"_scaled_dot_product_flash_attention_for_cpu", "_scaled_dot_product_flash_attention_for_cpu_backward",
                 "_scaled_dot_product_flash_attention", "_scaled_dot_product_flash_attention_backward",
                 "_scaled_dot_product_efficient_attention", "_scaled_dot_product_efficient_attention_backward"}
BATCHED = {"bmm", "baddbmm"}
# Kernels an ideal compiler does not fuse with their pointwise neighbours.
GATHER_OPS = {"embedding", "embedding_dense_backward"}
# Ops that alias their input without a view schema (move no data, like views).
ALIASING = {"_unsafe_view", "_reshape_alias"}
# Dispatched ops that move no data: allocation and bookkeeping (views are recognised by schema).
NO_DATA = {"empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided", "lift_fresh",
           "_local_scalar_dense", "detach", "alias", "set_", "resize_"}


def _effective_bytes(t: torch.Tensor) -> int:
    """Bytes of distinct memory a tensor spans: a dimension of stride 0 (broadcast) counts once."""
    n = 1
    for size, stride in zip(t.shape, t.stride()):
        if stride != 0:
            n *= size
    return n * t.element_size()



@dataclass(frozen=True)
class Op:
    """One dispatched aten op: `reads`/`writes` are (tensor id, buffer id, bytes) of its distinct
    tensor operands and results (a view's buffer is its base's; an in-place op writes the buffer
    it mutates); `index` is its position in the trace."""

    index: int
    name: str
    phase: str
    kind: str  # "matmul" | "attention" | "gather" | "pointwise" (fusible) | "view" | "free"
    flops: float = 0.0
    causal: bool = False
    batch: int = 0  # batch size of a batched matmul (bmm, baddbmm)
    dtype: str = ""  # dtype of the first result (a matmul's precision)
    reads: tuple = ()
    writes: tuple = ()

    @property
    def read(self) -> int:
        return sum(b for _, _, b in self.reads)

    @property
    def written(self) -> int:
        return sum(b for _, _, b in self.writes)


class Recorder(TorchDispatchMode):
    """Records every aten op dispatched inside `with Recorder() as rec:` with its FLOPs (torch's
    formulas) and the bytes it reads and writes (`rec.ops`); `rec.phase` labels the ops that follow.
    Every tensor seen is kept alive, so `id` keys are unique for the recording's lifetime."""

    def __init__(self):
        super().__init__()
        self.ops: list[Op] = []
        self.phase = "forward"
        self.registry = fc.FlopCounterMode(display=False, custom_mapping=CUSTOM_FLOPS).flop_registry
        self.buffer_of: dict[int, int] = {}  # tensor id -> buffer id (its own, or its base's)
        self.created: dict[int, int] = {}  # buffer id -> index of the op that created it
        self.readers: dict[int, list[int]] = {}  # buffer id -> indices of the ops that read it
        self._keep: list[torch.Tensor] = []

    def _buffer(self, t: torch.Tensor, base: int | None = None) -> int:
        key = id(t)
        if key not in self.buffer_of:
            self.buffer_of[key] = key if base is None else base
            self.created.setdefault(self.buffer_of[key], len(self.ops))
            self._keep.append(t)
        return self.buffer_of[key]

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        if func.namespace != "aten":  # prim.device, profiler markers: not ops
            return out
        name = func.overloadpacket.__name__
        ins = list({id(t): t for t in tree_flatten((args, kwargs))[0] if isinstance(t, torch.Tensor)}.values())
        outs = list({id(t): t for t in tree_flatten(out)[0] if isinstance(t, torch.Tensor)}.values())
        index = len(self.ops)
        view = func.is_view or name in ALIASING
        if view or name in NO_DATA:
            base = self._buffer(ins[0]) if ins and view else None
            for t in outs:
                self._buffer(t, base)
            self.ops.append(Op(index, name, self.phase, "view" if view else "free"))
            return out
        flops = float(self.registry[func.overloadpacket](*args, **kwargs, out_val=out)) \
            if func.overloadpacket in self.registry else 0.0
        kind = ("attention" if name in ATTENTION_OPS else "matmul" if flops else
                "gather" if name in GATHER_OPS else "pointwise")
        reads = tuple((id(t), self._buffer(t), _effective_bytes(t)) for t in ins)
        mutated = {id(a) for a, arg in zip(args, func._schema.arguments)
                   if isinstance(a, torch.Tensor) and arg.alias_info is not None and arg.alias_info.is_write}
        # results: the returned tensors, and tensors mutated in place (returned or not)
        written = {id(t): t for t in outs} | {id(t): t for t in ins if id(t) in mutated}
        writes = tuple((key, self._buffer(t), _effective_bytes(t)) for key, t in written.items())
        for _, buf, _ in reads:
            self.readers.setdefault(buf, []).append(index)
        causal = name in ATTENTION_OPS and _argument(func, args, kwargs, "is_causal", False)
        batch = int(outs[0].shape[0]) if name in BATCHED and outs else 0
        dtype = str(outs[0].dtype).removeprefix("torch.") if outs else ""
        self.ops.append(Op(index, name, self.phase, kind, flops, bool(causal), batch, dtype, reads, writes))
        return out


def _argument(func, args, kwargs, name: str, default):
    if name in kwargs:
        return kwargs[name]
    for a, arg in zip(args, func._schema.arguments):
        if arg.name == name:
            return a
    return default


def fuse(ops: list[Op], created: dict[int, int], readers: dict[int, list[int]]) -> list[Op]:
    """The kernels of `ops` (a contiguous slice of one trace) under ideal fusion (module docstring).

    Pointwise ops joined by a tensor that one writes and the next reads, within one phase, form a
    kernel; it reads each tensor produced outside it once and writes the tensors that persist
    (created before `ops[0]`: parameters, gradients, optimizer state) or that an op outside the
    kernel reads. Matmul, attention and gather ops are kernels of their own, with their own
    operands, except that a tensor never read again and not persistent is not written."""
    ops = [op for op in ops if op.kind not in ("view", "free")]
    if not ops:
        return []
    start = ops[0].index
    parent = {op.index: op.index for op in ops}

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    last_writer: dict[int, Op] = {}
    for op in ops:
        if op.kind == "pointwise":
            for _, buf, _ in op.reads:
                w = last_writer.get(buf)
                if w is not None and w.kind == "pointwise" and w.phase == op.phase:
                    parent[root(op.index)] = root(w.index)
        for _, buf, _ in op.writes:
            last_writer[buf] = op
    groups: dict[int, list[Op]] = {}
    for op in ops:
        groups.setdefault(root(op.index), []).append(op)
    kernels = []
    for members in groups.values():
        inside = {op.index for op in members}
        produced = {buf for op in members for _, buf, _ in op.writes if created.get(buf, -1) >= start}
        reads = {key: (key, buf, b) for op in members for key, buf, b in op.reads if buf not in produced}
        writes = {}
        for op in members:
            for key, buf, b in op.writes:
                persistent = created.get(buf, -1) < start
                read_outside = any(i not in inside for i in readers.get(buf, ()) if i > op.index)
                if persistent or read_outside:
                    writes[key] = (key, buf, b)
        first = members[0]
        kernels.append(replace(first, name="+".join(dict.fromkeys(op.name for op in members)) if len(members) > 1
                               else first.name, flops=sum(op.flops for op in members),
                               reads=tuple(reads.values()), writes=tuple(writes.values())))
    return kernels


@dataclass(frozen=True)
class StepSetting:
    """What one training step is: model size, micro-batch, accumulation, precision, optimizer.

    `batch_size` sequences of `block_size` tokens per forward/backward pass on one device,
    `accumulation` such passes per optimizer step on that device, `autocast` the mixed precision
    of the forward pass ("bfloat16", as the papers train, or None: float32, as the CPU benchmark),
    `optimizer` "adamw" (every parameter) or "muon" (2-D block weights by `torch.optim.Muon`, the
    rest by AdamW: `particles.lm.train.build_optimizers`, seed 002 App. D.3)."""

    n_layer: int
    n_head: int
    n_embd: int
    block_size: int
    vocab_size: int
    batch_size: int
    accumulation: int = 1
    autocast: str | None = None
    optimizer: str = "adamw"

    def __post_init__(self):
        for name in ("n_layer", "n_head", "n_embd", "block_size", "vocab_size", "batch_size", "accumulation"):
            positive_int(getattr(self, name), name)
        if self.n_embd % self.n_head:
            raise ValueError(f"n_embd {self.n_embd} must be divisible by n_head {self.n_head}")
        if self.autocast not in (None, "bfloat16"):
            raise ValueError(f"autocast must be None or 'bfloat16', got {self.autocast!r}")
        if self.optimizer not in ("adamw", "muon"):
            raise ValueError(f"optimizer must be 'adamw' or 'muon', got {self.optimizer!r}")

    def gpt_config(self):
        from .model import GPTConfig
        return GPTConfig(vocab_size=self.vocab_size, block_size=self.block_size, n_layer=self.n_layer,
                         n_head=self.n_head, n_embd=self.n_embd)

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class StepTrace:
    """The traced ops of one training step in its steady state: the first micro-batch's forward +
    backward (`micro_first`: it creates the gradients), a later one's (`micro_rest`: gradients
    accumulate into them), and one optimizer step with its state already allocated; with what
    `fuse` needs. `flop_counter_total` is `FlopCounterMode`'s own count of the same ops."""

    setting: StepSetting
    variant: str
    params: int
    micro_first: list[Op]
    micro_rest: list[Op]
    optimizer: list[Op]
    created: dict
    readers: dict
    flop_counter_total: float

    def parts(self) -> list[tuple[list[Op], int]]:
        """(ops, multiplicity) in one optimizer step: the first micro-batch, `accumulation` - 1
        more, one update."""
        return [(self.micro_first, 1), (self.micro_rest, self.setting.accumulation - 1),
                (self.optimizer, 1)]

    def step_ops(self) -> list[tuple[Op, int]]:
        return [(op, m) for ops, m in self.parts() if m for op in ops]

    def kernels(self, fused: bool = False) -> list[tuple[Op, int]]:
        """(kernel, multiplicity) in one optimizer step: every op that moves data (eager), or the
        kernels of `fuse`."""
        if not fused:
            return [(op, m) for op, m in self.step_ops() if op.kind not in ("view", "free")]
        return [(k, m) for ops, m in self.parts() if m for k in fuse(ops, self.created, self.readers)]

    @property
    def flops(self) -> float:
        """FLOPs of one optimizer step (the matmul class, as torch's formulas count them)."""
        return sum(op.flops * m for op, m in self.step_ops())

    def bytes_moved(self, fused: bool = False) -> float:
        """Bytes read + written in one optimizer step under the eager or the fused model."""
        return float(sum((k.read + k.written) * m for k, m in self.kernels(fused)))

    def dispatched(self) -> int:
        """Aten ops dispatched in one optimizer step, views included (the CPU's fixed costs)."""
        return sum(m for _, m in self.step_ops())


def trace_step(variant: str, setting: StepSetting, *, foreach: bool = False, fake: bool = True) -> StepTrace:
    """Trace one training step of `GPT(setting.gpt_config(), variant)` under `FakeTensorMode`
    (`fake=False`: on real CPU tensors, the same ops, faster at toy sizes and exact at any).

    Two micro-batches and two optimizer steps are run; the second of each is kept (the steady
    state: gradients accumulate into existing tensors, optimizer state exists). The loss is the
    benchmark's (`bench.logits_cross_entropy`, float32 logits). `foreach`: AdamW's multi-tensor
    kernels (torch's default on CUDA) instead of one kernel per parameter (its default on CPU)."""
    from torch._subclasses.fake_tensor import FakeTensorMode

    from .model import GPT
    from .variants import get_variant
    get_variant(variant)
    cfg = setting.gpt_config()
    rec = Recorder()
    counters = [fc.FlopCounterMode(display=False, custom_mapping=CUSTOM_FLOPS) for _ in range(3)]
    autocast = (torch.autocast("cpu", dtype=torch.bfloat16) if setting.autocast == "bfloat16"
                else contextlib.nullcontext())
    marks = []
    with (FakeTensorMode(allow_non_fake_inputs=False) if fake else contextlib.nullcontext()):
        model = GPT(cfg, variant)
        opts = step_optimizers(model, setting, foreach)
        idx = torch.zeros(setting.batch_size, cfg.block_size, dtype=torch.long)

        def micro():
            rec.phase = "forward"
            with autocast:
                loss = logits_cross_entropy(model, idx, idx)
            rec.phase = "backward"
            loss.backward()

        def update():
            rec.phase = "optimizer"
            for opt in opts:
                opt.step()

        with rec:
            micro()  # warm-up: the autocast weight casts and the first gradients
            model.zero_grad(set_to_none=True)
            for counter in counters[:2]:  # the first micro-batch, then one that accumulates
                marks.append(len(rec.ops))
                with counter:
                    micro()
            marks.append(len(rec.ops))
            update()  # the first update allocates the optimizer state: keep the second
            marks.append(len(rec.ops))
            with counters[2]:
                update()
            marks.append(len(rec.ops))
        params = sum(p.numel() for p in model.parameters())
    a, b, c, d, e = marks
    total = (counters[0].get_total_flops() + (setting.accumulation - 1) * counters[1].get_total_flops()
             + counters[2].get_total_flops())
    return StepTrace(setting, variant, params, rec.ops[a:b], rec.ops[b:c], rec.ops[d:e], rec.created,
                     rec.readers, float(total))


# ---------------------------------------------------------------------------------------------
# Machines and the roofline

CAUSAL_FRACTION = 0.5  # causal flash attention executes about half of its counted score FLOPs


@dataclass(frozen=True)
class Machine:
    """A roofline: matmul peak `peak_flops` (FLOP/s; `peak_flops_fp32` for float32 matmuls where
    it differs), `bandwidth` as (bytes moved by a kernel, bytes/s) points interpolated in log
    bytes (constant beyond the ends: one point is a single bandwidth), `op_overhead` seconds per
    dispatched op, `bmm_overhead` seconds per matrix of a batched matmul. `synchronous`: the
    CPU adds its dispatch cost to every op's time; a GPU overlaps launches with running kernels,
    so a kernel costs max(launch, roofline time)."""

    name: str
    peak_flops: float
    bandwidth: tuple
    op_overhead: float
    synchronous: bool
    bmm_overhead: float = 0.0
    peak_flops_fp32: float | None = None
    source: str = ""

    def __post_init__(self):
        for name in ("peak_flops", "op_overhead", "bmm_overhead"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value >= 0):
                raise ValueError(f"{name} must be a finite non-negative number, got {value!r}")
        if self.peak_flops <= 0:
            raise ValueError(f"peak_flops must be positive, got {self.peak_flops!r}")
        points = tuple((float(b), float(w)) for b, w in self.bandwidth)
        if not points or any(b <= 0 or w <= 0 or not math.isfinite(w) for b, w in points) or \
                any(b1 >= b2 for (b1, _), (b2, _) in zip(points, points[1:])):
            raise ValueError(f"bandwidth must be (bytes, bytes/s) points with increasing positive "
                             f"bytes and positive rates, got {self.bandwidth!r}")
        object.__setattr__(self, "bandwidth", points)

    def bandwidth_at(self, nbytes: float) -> float:
        if len(self.bandwidth) == 1 or nbytes <= self.bandwidth[0][0]:
            return self.bandwidth[0][1]
        xs = [math.log(b) for b, _ in self.bandwidth]
        return float(np.interp(math.log(nbytes), xs, [w for _, w in self.bandwidth]))

    def peak_for(self, dtype: str) -> float:
        return self.peak_flops_fp32 if dtype in ("float32", "float64") and self.peak_flops_fp32 else self.peak_flops

    def kernel_seconds(self, k: Op) -> tuple[float, float]:
        """(compute-bound, memory-bound) seconds of one kernel on this roofline."""
        flops = k.flops * (CAUSAL_FRACTION if k.causal else 1.0)
        nbytes = k.read + k.written
        return flops / self.peak_for(k.dtype), (nbytes / self.bandwidth_at(nbytes) if nbytes else 0.0)

    def as_dict(self) -> dict:
        return asdict(self)


# NVIDIA H100 SXM5 (NVIDIA H100 Tensor Core GPU datasheet): 989.4 TFLOP/s dense BF16 tensor core
# (1,979 with 2:4 sparsity), 66.9 TFLOP/s FP32 (matmuls in float32 without TF32, torch's
# default), 3.35 TB/s HBM3. Launch floor: 5 µs of host-side dispatch per eager op (the low end
# of the 5-25 µs that a PyTorch op spends in Python, the dispatcher, autograd and
# cudaLaunchKernel before its kernel runs; Lin, "From PyTorch op to kernel launch").
H100 = Machine("NVIDIA H100 SXM5 (datasheet roofline)", peak_flops=989.4e12, peak_flops_fp32=66.9e12,
               bandwidth=((1.0, 3.35e12),), op_overhead=5e-6, synchronous=False,
               source="NVIDIA H100 Tensor Core GPU datasheet (SXM5): 989.4 TFLOP/s dense BF16, "
                      "66.9 TFLOP/s FP32, 3.35 TB/s HBM3; 5 µs launch floor per kernel")


def predict_seconds(trace: StepTrace, machine: Machine, fused: bool = False) -> dict:
    """Seconds of one optimizer step of `trace` on `machine` (module docstring), with its parts:
    `compute` (kernels whose FLOPs bind), `memory` (kernels whose bytes bind), `overhead`
    (dispatch on a CPU; on a GPU the launch floor of kernels shorter than it), `bmm_matrices`."""
    compute = memory = overhead = 0.0
    bmm = 0.0
    kernels = trace.kernels(fused)
    for k, m in kernels:
        tc, tm = machine.kernel_seconds(k)
        t = max(tc, tm)
        if not machine.synchronous and machine.op_overhead > t:
            overhead += m * machine.op_overhead
        elif tc >= tm:
            compute += m * tc
        else:
            memory += m * tm
        bmm += m * k.batch * machine.bmm_overhead
    if machine.synchronous:
        overhead = machine.op_overhead * (trace.dispatched() if not fused else sum(m for _, m in kernels))
    total = compute + memory + overhead + bmm
    return {"seconds": total, "compute": compute, "memory": memory, "overhead": overhead, "bmm_matrices": bmm}


def _seconds(call, repeat: int, rounds: int = 7) -> float:
    """Median over `rounds` of the mean process time of `repeat` calls (after one warm-up call)."""
    call()
    times = []
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(repeat):
            call()
        times.append((time.process_time() - start) / repeat)
    return float(np.median(times))


# Elements per operand of the bandwidth points: 16 KiB to 32 MiB per float32 operand, spanning
# this CPU's L1/L2/L3 and main memory.
BANDWIDTH_SIZES = tuple(2 ** k for k in range(12, 24, 2))
OVERHEAD_SETTING = StepSetting(n_layer=2, n_head=1, n_embd=8, block_size=4, vocab_size=16, batch_size=1)


def measure_cpu(threads: int = 1) -> Machine:
    """This CPU's roofline, from microbenchmarks on `threads` threads (process time):

    * peak: a 1024 x 1024 x 1024 float32 matmul, 2·1024³ FLOPs over its time;
    * bandwidth: `torch.add(x, y, out=z)` on float32 operands of `BANDWIDTH_SIZES` elements,
      12·n bytes over its time less that of the same call on one element (the dispatch);
    * op overhead: a training step (`particles.lm.bench`'s: forward, cross-entropy, backward,
      AdamW, zero_grad) of a vanilla GPT so small (2 layers, width 8, 4 tokens, vocabulary 16)
      that its FLOPs and bytes are negligible, over the number of aten ops it dispatches;
    * bmm overhead: `torch.bmm` of 4096 pairs of 4 x 4 matrices, per matrix, less the dispatch.
    """
    from particles.threads import torch_threads

    from .model import GPT
    with torch_threads(threads):
        g = torch.Generator().manual_seed(0)
        a, b = (torch.randn(1024, 1024, generator=g) for _ in range(2))
        peak = 2 * 1024 ** 3 / _seconds(lambda: a @ b, 3)
        one = torch.ones(1)
        bare = _seconds(lambda: torch.add(one, one, out=one), 2000)
        points = []
        for n in BANDWIDTH_SIZES:
            x, y, z = (torch.randn(n, generator=g) for _ in range(3))
            t = _seconds(lambda: torch.add(x, y, out=z), max(3, 2 ** 22 // n))
            points.append((12 * n, 12 * n / max(t - bare, 1e-12)))
        mats = torch.randn(4096, 4, 4, generator=g)
        bmm = (_seconds(lambda: torch.bmm(mats, mats), 50) - bare) / 4096
        torch.manual_seed(0)
        s = OVERHEAD_SETTING
        model = GPT(s.gpt_config(), "gd-lt")
        idx = torch.randint(0, s.vocab_size, (s.batch_size, s.block_size), generator=g)
        step = np.median(time_training({"toy": model}, idx, idx, rounds=7, steps=20, warmup=3)["toy"].step_seconds)
        overhead = float(step) / trace_step("gd-lt", s).dispatched()
    return Machine(f"this CPU ({threads} thread{'s' if threads > 1 else ''}, measured)", peak_flops=peak,
                   bandwidth=tuple(points), op_overhead=overhead, synchronous=True, bmm_overhead=max(bmm, 0.0),
                   source="measure_cpu: 1024^3 float32 matmul; torch.add bandwidth by operand size; "
                          "dispatch cost per aten op of a toy training step; per-matrix cost of bmm")

