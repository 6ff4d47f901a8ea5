"""The variant table: every residual-update rule of seeds 000, 002 and 004 as a configuration of
the one block template of `particles.lm.blocks`.

A `Variant` names its rule and the rule's keyword arguments, the auxiliary streams and how they
start (``"embedding"``: separate learned token + position tables, seed 004 App. A.1 / seed 002
§4.1; ``"ones"``: S_0 = 1; ``"identity"``: R_0 = I_D per token; ``"zeros"``: SympFormer's y = 0),
its learned scalars with their parametrisations and inits, and its auxiliary LayerNorms. The
keyword ``"attention": "linear"`` gives the block linear attention (`blocks.CausalSelfAttention`);
the default is softmax.

Scalar inits: seed 002 App. D.2 fixes nu = softplus(raw) ~ 1 (TMMFormer starts as YuriiFormer)
and lambda = sigmoid(-5) (AdamWFormer); seed 000 App. B fixes h_0 (0.25 first-order, 0.01
second-order schemes, Table 2 settings). Where the papers give no init we use momentum-style
values 0.9 for (0, 1) scalars, 1.0 for gains, 0.95 / 0.99 for Adam decays (stated, not claimed).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Mapping

from .blocks import Kick, Scalar, gd, imex, kicks, preconditioned, sympformer


@dataclass(frozen=True)
class Variant:
    name: str
    paper: str  # seed tag
    locator: str  # where the update is printed
    rule: Callable
    kwargs: Mapping = field(default_factory=dict)
    streams: Mapping[str, str] = field(default_factory=dict)  # stream -> init kind
    scalars: Mapping[str, Scalar] = field(default_factory=dict)
    norms: tuple[str, ...] = ()
    extra_linear: tuple[str, ...] = ()
    label: str = ""

    def with_inits(self, **inits: float) -> "Variant":
        """This variant with the named scalars starting at other values (e.g. seed 000 App. B's
        per-table step size h_0: ``with_inits(h_x=0.1, h_y=0.1)``); the parametrisation stays."""
        unknown = sorted(set(inits) - set(self.scalars))
        if unknown:
            raise ValueError(f"inits: variant {self.name} has no scalar(s) {unknown}; it has "
                             f"{sorted(self.scalars)}")
        return replace(self, scalars={name: Scalar(spec.kind, inits.get(name, spec.init))
                                      for name, spec in self.scalars.items()})


U = lambda init=0.9: Scalar("unit", init)  # noqa: E731  (sigmoid-parametrised, in (0, 1))
P = lambda init=1.0: Scalar("pos", init)  # noqa: E731  (softplus-parametrised, > 0)

VARIANTS: dict[str, Variant] = {}


def _add(v: Variant) -> None:
    VARIANTS[v.name] = v


# --- seed 004 (YuriiFormer), §2 eqs. (4)-(5), §3.2, §6, App. B.2 ------------------------------
_add(Variant("gd-euler", "yurii", "seed 004 eq. (4)", gd, {"split": "euler"}, label="GD+Euler"))
_add(Variant("gd-lt", "yurii", "seed 004 eq. (5) (= nanoGPT)", gd, {"split": "lt"},
             label="GD+Lie-Trotter (nanoGPT)"))
# seed 000 §6.2, Tables 2-3: the vanilla baseline with linear attention (the attention oracle of
# the SympFormer linear variants, `blocks.CausalSelfAttention(kind="linear")`)
_add(Variant("gd-lt-linear", "sympformer", "seed 000 §6.2, Tables 2-3 (Baseline, linear attention)",
             gd, {"split": "lt", "attention": "linear"}, label="Baseline (linear attention)"))


def _momentum(name, label, locator, lookahead: bool, split: str, reinject: bool = False,
              norms_per_substep: bool = False, paper="yurii", attention="softmax"):
    if split == "euler":
        steps = (Kick("am", "beta", "gamma", mu="mu" if lookahead else None),)
        scalars = {"beta": U(), "gamma": P()} | ({"mu": U()} if lookahead else {})
        norms = ("v",)
    else:
        steps, scalars = [], {}
        for sub in ("a", "m"):
            norm = f"v_{sub}" if norms_per_substep else "v"
            steps.append(Kick(sub, f"beta_{sub}", f"gamma_{sub}", mu=f"mu_{sub}" if lookahead else None,
                              drift=f"nu_{sub}" if reinject else "one", norm=norm))
            scalars |= {f"beta_{sub}": U(), f"gamma_{sub}": P()}
            scalars |= {f"mu_{sub}": U()} if lookahead else {}
            scalars |= {f"nu_{sub}": P(1.0)} if reinject else {}
        steps = tuple(steps)
        norms = ("v_a", "v_m") if norms_per_substep else ("v",)
    _add(Variant(name, paper, locator, kicks, {"steps": steps, "attention": attention},
                 {"v": "embedding"}, scalars, norms, label=label))


_momentum("polyak-euler", "Polyak+Euler", "seed 004 §6", False, "euler")
_momentum("polyak-lt", "Polyak+Lie-Trotter", "seed 004 §6", False, "lt")
_momentum("nesterov-euler", "Nesterov+Euler", "seed 004 §3.2", True, "euler")
_momentum("nesterov-lt", "Nesterov+Lie-Trotter (YuriiFormer)", "seed 004 §3.2", True, "lt")
_momentum("nesterov-lt-linear", "YuriiFormer-Lie-Trotter (linear attention)",
          "seed 000 §6.2, Tables 2-3 (YuriiFormer, linear attention)", True, "lt", paper="sympformer",
          attention="linear")


def _prk(order: str):
    outer, inner = order[0], order[1]
    steps = (Kick(outer, "beta", f"gamma_{outer}", mu=f"mu_{outer}", scale=0.5),
             Kick(inner, "beta", f"gamma_{inner}", mu=f"mu_{inner}"),
             Kick(outer, "beta", f"gamma_{outer}", mu=f"mu_{outer}", scale=0.5))
    scalars = {"beta": U(), "gamma_a": P(), "gamma_m": P(), "mu_a": U(), "mu_m": U()}
    tag = order.upper() + order[0].upper()
    _add(Variant(f"prk-verlet-{tag.lower()}", "yurii", "seed 004 App. B.2 (PRK-Verlet)", kicks,
                 {"steps": steps}, {"v": "embedding"}, scalars, ("v",), label=f"PRK-Verlet ({tag})"))


_prk("am")
_prk("ma")

for _order in ("am", "ma"):
    for _k in (1, 2):
        for _each in (False, True):
            _tag = "AMA" if _order == "am" else "MAM"  # the paper's table labels
            _add(Variant(f"imex{'-lnv' if _each else ''}-k{_k}-{_order}", "yurii",
                         "seed 004 App. B.2 (IMEX)", imex, {"order": _order, "k": _k, "ln_each": _each},
                         {"v": "embedding"},
                         {"beta": U(), "gamma_e": P(), "gamma_i": P(), "mu_e": U(), "mu_i": U()}, ("v",),
                         label=f"IMEX{'+LN_v' if _each else ''} k={_k} ({_tag})"))

_add(Variant("hamiltonian", "yurii", "seed 004 App. B.2 (Hamiltonian symplectic Euler)", kicks,
             {"steps": (Kick("a", "beta", "gamma_a", mu="mu", drift="delta", sign=-1.0, norm="v"),
                        Kick("m", "beta", "gamma_m", mu="mu", drift=None, sign=-1.0, norm="v"))},
             {"v": "embedding"}, {"beta": U(), "gamma_a": P(), "gamma_m": P(), "mu": U(), "delta": P()},
             ("v",), label="Hamiltonian (symplectic Euler)"))

# --- seed 002 (momentum streams), §4.1 and App. B ------------------------------------------
_momentum("tmm", "TMMFormer", "seed 002 §4.1", True, "lt", reinject=True, norms_per_substep=True,
          paper="momentum_streams")
_momentum("yurii", "YuriiFormer (seed 002 form)", "seed 002 §4.1 (nu = 1)", True, "lt",
          norms_per_substep=True, paper="momentum_streams")
_momentum("hb", "HBFormer", "seed 002 App. B.3.1", False, "lt", norms_per_substep=True,
          paper="momentum_streams")


def _precond(name, label, locator, first_moment, precond, decay=False):
    scalars, streams = {}, {}
    if first_moment:
        streams["m"] = "embedding"
    if precond == "diag":
        streams["s"] = "ones"
    if precond == "right":
        streams["r"] = "identity"
    for sub in ("a", "m"):
        scalars[f"gamma_{sub}"] = P()
        if first_moment:
            scalars[f"beta1_{sub}"] = U()
        if precond == "diag":
            scalars[f"beta2_{sub}"] = U(0.99)
        if precond == "right":
            scalars[f"betaR_{sub}"] = U(0.99)
        if decay:
            scalars[f"lambda_{sub}"] = U(1.0 / (1.0 + 2.718281828459045 ** 5))  # sigmoid(-5)
    _add(Variant(name, "momentum_streams", locator, preconditioned,
                 {"first_moment": first_moment, "precond": precond, "decay": decay},
                 streams, scalars, ("u_a", "u_m"), label=label))


_precond("adam", "AdamFormer", "seed 002 §4.1", True, "diag")
_precond("adamw", "AdamWFormer", "seed 002 App. B.1", True, "diag", decay=True)
_precond("rmsprop", "RMSPropFormer", "seed 002 App. B.3.2", False, "diag")
_precond("muon", "MuonFormer", "seed 002 §4.1", True, "spectral")
_precond("ortho", "OrthoFormer", "seed 002 App. B.3.3", False, "spectral")
_precond("soap", "SOAPFormer", "seed 002 App. B.2", True, "right")
_precond("shampoo", "ShampooFormer", "seed 002 App. B.3.4", False, "right")

# --- seed 000 (SympFormer), Algorithm 1 with Table 4 ----------------------------------------
SYMPFORMER_SCHEMES = ("plain-euler", "presymp-euler", "presymp-expeuler", "presymp-ab2",
                      "presymp-etd-ab2")
for _attention in ("softmax", "linear"):
    for _scheme in SYMPFORMER_SCHEMES:
        _h0 = 0.01 if _scheme.endswith("ab2") else 0.25  # seed 000 App. B (Table 2 settings)
        _scalars = {"h_x": P(_h0), "h_y": P(_h0), "c_log": P(3.0), "c_lin": P(0.1),
                    "m_mlp": U(), "beta_mlp": U(), "gamma_mlp": P()}
        if _scheme == "plain-euler":
            _scalars["alpha"] = U()
        _add(Variant(f"symp-{_attention}-{_scheme}", "sympformer", "seed 000 Algorithm 1, Table 4",
                     sympformer, {"scheme": _scheme, "attention": _attention}, {"y": "zeros"},
                     _scalars, ("y", "v"), extra_linear=("B",) if _attention == "softmax" else (),
                     label=f"SympFormer {_scheme} ({_attention})"))
# seed 000 Table 3 (App. B: "a look-ahead step for the presymplectic discretizations"): the oracles
# at x + mu_att y (Figure 1), mu_att learned in (0, 1) from 0.9 like every look-ahead of seed 004
_base = VARIANTS["symp-linear-presymp-euler"]
_add(replace(_base, name=f"{_base.name}-lookahead", locator="seed 000 Algorithm 1, Figure 1, App. B (Table 3)",
             kwargs=_base.kwargs | {"lookahead": True}, scalars=_base.scalars | {"mu_att": U()},
             label="SympFormer presymp-euler with look-ahead (linear)"))
# seed 000 eq. (35) under the causal mask of §6: the force as -grad H of the global Hamiltonian
# by autograd (`blocks.hamiltonian_softmax_oracles`), once made causal (keys held fixed) and once
# as printed, which leaks later tokens (`sympformer:causal-hamiltonian`). Trained only to measure
# what the leak alone is worth beside the causal scheme (`sympformer:table-1`'s evidence); the
# leaky one is the one variant that is not causal, and says so in its name.
_base = VARIANTS["symp-softmax-presymp-etd-ab2"]
for _force in ("hamgrad", "hamgrad-leaky"):
    _add(replace(_base, name=f"{_base.name}-{_force}", locator="seed 000 eqs. (34)-(35), §6 (causal mask)",
                 kwargs=_base.kwargs | {"force": _force},
                 label=f"SympFormer presymp-etd-ab2, -grad H by autograd "
                       f"({'leaks later tokens' if _force.endswith('leaky') else 'causal'})"))
# the variants whose logits may depend on later tokens, by construction (tested to do so)
NON_CAUSAL = frozenset(n for n in VARIANTS if n.endswith("-leaky"))


def get_variant(name: str) -> Variant:
    if name not in VARIANTS:
        raise ValueError(f"variant: unknown variant {name!r}; known: {', '.join(sorted(VARIANTS))}")
    return VARIANTS[name]
