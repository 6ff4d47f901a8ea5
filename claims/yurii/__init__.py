"""Seed 004, Zimin, Polyanskiy, Rigollet: "YuriiFormer: a suite of Nesterov-accelerated
transformers" (004_bfbae7e9ba22b155.txt). The paper's map, module by module:

- `optimization`  §3.1 and §6: heavy ball (6), the momentum template, Nesterov's rate on convex f
- `schemes`       §2-§3 and App. B.2: the update rules as numerical schemes (oracles (1)-(2),
                  (4)-(5), the Lie-Trotter splitting of §3.2)
- `appendix`      §3.1 (Adam folded into the preconditioner) and App. B.2 (IMEX, PRK-Verlet, the
                  Hamiltonian block)
- `architecture`  App. A.1's parameter counts, §6's Polyak blocks (mu = 0) and same parameter budget,
                  oracle calls per block (App. B.2-B.3), causality of every update rule (§5.1)
- `training`      Tables 2 and 5 and the Lie-Trotter sentence (§5.2-§6) on the committed studies,
                  §6's "the same compute" (FLOPs, GPU step time)
- `tables`        Tables 2-5 as printed (data for the consistency claims; no claims)
- `consistency`   the paper against itself: prose against Tables 2-5, captions, appendix, counts
- `figure2`       §5.2, Figure 2: the validation minimum "around step 7.6k" against Table 2 and the
                  token budget (the step itself waits for the curves)
- `inventory`     every checkable item of the paper and the claims that check it
"""
