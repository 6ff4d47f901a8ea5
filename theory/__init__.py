"""Exact mathematics of the five papers: sympy derivations, closed forms, reduced ODEs, rates.

Never imports torch (see DESIGN.md: imports only point down)."""
