"""The training-study verdicts that serve several papers (shared machinery of the ledger, like
`claims._experiment` and `claims._stats`, with the claims decided on it):

- `tables`     the loss-table sentences of seeds 000 (Tables 1-3), 002 (Tables 1-2, §4.2) and 004
               (Tables 2 and 5, §5.4), decided on the committed studies (results/lm/)
- `structure`  what needs no training: parameter counts, containments, oracle calls, causality
- `wallclock`  the wall-clock sentences of seeds 000, 002 and 004 (GPU measurement, cost model)
- `gpu`        the committed GPU measurements and the papers' step settings they are held against

`python -m claims --only PAPER` loads the paper's package and this one.
"""
