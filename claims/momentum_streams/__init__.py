"""Seed 002, Gai, Huang, Wu: "Momentum streams for optimizer-inspired transformers"
(002_395af419a1c7ba67.txt). The paper's map, module by module:

- `methods`          §3 and App. A-B: gradient oracles and the Lie-Trotter block, Muon's Newton-Schulz
                     polar factor, SOAP's covariance, the recurrence (F.3), the readout (3), the
                     sharpness estimators and SAM's ascent (App. G)
- `families`         §3.2, §5.3, App. A.2, F.3: Theorem 5.2's filter orders, Corollary F.3's families,
                     whether ν enlarges TMM's class, the table of worst-case rates
- `rates`            the printed rates of named methods: NAG (§3.2, A.1), TMM's optimality (§1, D.7),
                     TMM against Nesterov (§4.2)
- `preconditioning`  Appendices C and E: Proposition C.1, Remark C.2, Theorem E.1, LayerNorm's scale
                     invariance
- `contraction`      Appendix F: Lemmas F.1-F.2, the scope of the heavy-ball rate
- `depth`            Appendix F at finite depth: Theorem F.4 and Lemma F.2's finite-depth sentence
                     (and its sharper form at 12 layers, an extension)
- `remarks`          Remark F.5, Remark E.2's balance premise, A.3's Adam, App. D.1's vocabulary,
                     App. G's attention kernels, trace scale and power iteration
- `overhead`         App. I's SAWD overhead (≈1/6 of training, ≈17% rather than ≈2×) and Remark E.2 on
                     trained streams (an extension, waiting for the second-moment diagnostics)
- `architecture`     App. D.5's and D.1's parameter counts, the containments of §4.1 and App. B.1/B.3,
                     the causality of the Newton-Schulz and SOAP streams (§4.1, App. B.2)
- `training`         Tables 1-2 (§4.2, §5.1-5.2) and "MuonFormer and SOAPFormer trail" on the
                     committed studies
- `wallclock`        §4.2 and App. D.6's step times (GPU measurement, cost model)
- `diagnostics`      §5.3 (Jacobians) and §6.1 (flatness) on trained compact models
- `ablation`         §4.2's ablations at proxy scale (pure AdamW, half Muon rate, parameter-matched)
- `ablation_arithmetic`  the derived numbers of the ablations (§4.2, App. D.5, D.7)
- `consistency`      the paper against itself: prose about results against its tables
- `protocol`         the training protocol against itself: OWT ablations (Table 8), App. D.4's
                     configurations, learned-scalar counts, schedules (7), (9), seeds and corpora
- `misprints`        table references that name the wrong table (§4.2, §5.1, App. D, D.3, D.7, H)
- `inventory`        every checkable item of the paper and the claims that check it
"""
