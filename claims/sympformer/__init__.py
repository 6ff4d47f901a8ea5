"""Seed 000, Stein, Li, Steidl: "SympFormer: Accelerated attention blocks via inertial dynamics on
density manifolds" (000_63047fa14d9c3172.txt). The paper's map, module by module:

- `abstract`      the abstract's sentence on faster convergence at the same oracle calls
- `nesterov`      §2 eqs. (2)-(3): Nesterov's scheme, its ODE limit, the O(1/k²) and O(1/t²) rates
- `flows`         §1-§3 around the Nesterov flow: the rate improvement and its optimality, (2)⇔(3)⇔(4),
                  the accelerated density flow (7)-(11), damping schedules, the empirical measure,
                  (18)-(21) and the mean-field limit (22)
- `hamiltonian`   §2 and App. B: the damped Hamiltonian form (4), (12)-(13), the conformal
                  symplecticity of the schemes (14)-(15), Table 4
- `schemes`       §2: exponential Euler (16) and its weight, variable-step AB-2 (17), the order
                  barrier of explicit two-step methods, oracle calls per step
- `linear`        §4: linear attention as a Stein flow (23), the kernel of (5), Proposition 4.1,
                  Example 4.2, Proposition 4.3, Corollary 4.4, Proposition 4.5
- `softmax`       §5: softmax attention as a Stein flow (29)-(32), Propositions 5.1-5.2, Remark 5.3,
                  Examples 5.4-5.5, causal masking, the schemes of §2 applied to (34)
- `remarks`       §4-§7 beside the numbered results: affine invariance, elliptical moments, the
                  proofs of Propositions 4.5 and 5.1 (App. A), the mobility χ, Remark 5.3's text,
                  head averaging, the simultaneous-update rationale, the conclusion's structure
- `training`      §6-§7 and App. B on the training path: Tables 1-3 on the committed studies (and
                  the leak of the printed force beside Table 1), the causal decoder's force
                  (§5.2 (34)-(35), a premise), the wall-time sentence of §6
- `consistency`   the paper against itself: §6-§7 prose against Tables 1-3, App. B's settings,
                  Algorithm 1 and Figure 1
- `inventory`     every checkable item of the paper and the claims that check it
"""
