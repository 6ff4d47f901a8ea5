"""Seed 003, Agarwal, Mulcahy, Pal, Harchaoui: "Heat flow through pretrained transformer" (JMM 2025
slides on arXiv 2406.10823; 003_7e01566b1ff8f023.txt). The slides' map, module by module:

- `ot`          "Notation" and "Optimal Transport": push-forwards, couplings, Brenier's theorem
- `bridges`     Sinkformer attention, the same-marginal Schrödinger bridge, its particle ODE,
                Results 2-3 and the "Claim" slide (the heat flow)
- `langevin`    "Result 1" and "Result 2: One Step Approximation": the bridge against the Langevin
                diffusion, the barycentric projection x + (ε/2)∇log ρ
- `sinkformer`  "Finite particles", "Infinite particles", the Result-2 takeaway (score from samples)
- `scaling`     the mean-field limit of Sinkformers and the near-linear cost of Sinkhorn, at scale
- `inventory`   every checkable item of the slides and the claims that check it
"""
