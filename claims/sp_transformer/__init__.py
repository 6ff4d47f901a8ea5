"""Seed 001, Brantner, de Romemont, Kraus, Li: "Structure-preserving transformers for learning
parametrized Hamiltonian systems" (001_d3cec3f2b99ca2ba.txt). The paper's map, module by module:

- `foundations`   §1-§3 beyond the theorems: eqs. (1)-(3), Example 1, ω as oriented areas, the
                  argument before Theorem 2, softmax attention (5)-(6), the gradient form of the
                  SympNet layers
- `integrators`   §1.2: "long-term stability, higher accuracy and (near) conservation of energy"
- `theorems`      Theorems 1-2, eq. (4), the SympNet and PSD-like layers (eqs. (15)-(16), (29)-(31))
- `approximation` Theorem 3 (SympNet universal approximation): its constructive content
- `attention`     §4: the product space and Λ̃ (17)-(18), (22)-(24), the Cayley transform (19)-(20),
                  the attention map Z ↦ ZΛ(Z) (volume, symplecticity) against softmax attention
- `architecture`  §4-§5: the product form J̃ of (17), the removed add connection, "Λ(Z) is a
                  symplectic matrix", what the networks see of a time series, Figure 5
- `experiment`    §5: the coupled-oscillator experiment (Figures 6-7, Table 3), trained networks
- `oscillator_runs` §5: the committed oscillator runs (n40 decides, 2N = 20 as sensitivity) and their statistics
- `comparison`    §5: the four trained networks held against each other (Figure 7)
- `consistency`   the paper against itself: §5's prose against eq. (28), Table 2, Figure 7's captions
- `section5`      §5 below Figure 7: the warm-up's timing (5 steps, t = 2.0) and the one-step networks'
                  "similar trajectories regardless of k" (structure for any weights; the sentence waits
                  for trained rollouts)
- `misprints`     symbols, indices and cross-references printed for what the paper names otherwise
                  (eqs. (2), (4), (18), footnote 16, Theorem 2, the sentence before eq. (23), §5)
- `inventory`     every checkable item of the paper and the claims that check it
"""
