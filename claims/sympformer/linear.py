"""Seed 000 (SympFormer), Section 4: linear attention as a Stein gradient flow (eq. (23), the
kernel of (5), Proposition 4.1), the elliptical moment ODEs (Example 4.2, Proposition 4.3,
Corollary 4.4) and the accelerated linear particle system (Proposition 4.5).

Section 5 (softmax attention) is in `claims/sympformer/softmax.py`, the abstract's claim in
`claims/sympformer/abstract.py`, Section 2 in `claims/sympformer/hamiltonian.py`. Every check is float64 with
fixed seeds.
"""
from __future__ import annotations

import math

import numpy as np
import sympy as sp
import torch
from torch.func import grad, vmap

from claims import Evidence, claim, decide, decide_readings, reading
from claims._attention_setup import (LINEAR_SETUP, f64, linear_problem, nesterov_alpha, random_spd,
                                     random_sym, rel_error)
from particles import accelerated as acc
from particles import attention as att
from theory import elliptical as ell


# ====================================================================== Section 4: linear attention

EQ_23_TEXT = (
    r"For the linear attention, the transformer PDE (22) reads as "
    r"$\partial_{t}\rho_{t}=-\nabla\cdot\Big(\rho_{t}(x)\int y^{\mathrm{T}}Ax\,Vy\rho_{t}(y)\mathop{}\!\mathrm{d}y\Big).$ "
    r"(23) Assume that $V$ is symmetric. … "
    r"$\operatorname{\mathcal{F}}^{\operatorname{lin}}(\rho)\coloneqq-\frac{1}{2}\int y^{\mathrm{T}}\,Vy\,\rho(y)\mathop{}\!\mathrm{d}y,$ "
    r"we have that "
    r"$\Big[\frac{\delta\operatorname{\mathcal{F}}^{\operatorname{lin}}(\rho)}{\delta\rho}\Big](y)=-\frac{1}{2}y^{\mathrm{T}}Vy,\qquad\nabla_{y}\Big[\frac{\delta\operatorname{\mathcal{F}}^{\operatorname{lin}}(\rho)}{\delta\rho}\Big]=-Vy.$ "
    r"Thus, defining the inverse metric tensor by "
    r"$(G^{\operatorname{lin}}_{\rho})^{-1}[\Phi]\coloneqq-\nabla\cdot\left(\rho(x)\,\int y^{\mathrm{T}}Ax\,\nabla\Phi(y)\,\rho(y)\mathop{}\!\mathrm{d}y\right),$ "
    r"we conclude that "
    r"$\partial_{t}\rho_{t}=-(G_{\rho_{t}}^{\operatorname{lin}})^{-1}\left[\frac{\delta\operatorname{\mathcal{F}}^{\operatorname{lin}}(\rho_{t})}{\delta\rho_{t}}\right].$ "
    r"This transformer PDE is exactly the Stein variational gradient flow (5) with respect to the "
    r"energy functional $\operatorname{\mathcal{F}}^{\operatorname{lin}}$ with kernel "
    r"$k(x,y)\coloneqq y^{\mathrm{T}}Ax$.")
STEIN_TEXT = (
    r"For any density function $\rho\in\operatorname{\mathcal{P}}(\Omega)$, a metric tensor is an "
    r"invertible mapping operator $G_{\rho}:T_{\rho}\mathcal{P}(\Omega)\to T_{\rho}^{*}\mathcal{P}(\Omega)$ "
    r"… where $k\colon\Omega\times\Omega\Omega\to\mathbb{R}$ is a symmetric, integrally strictly positive "
    r"definite kernel with $\int_{\Omega}k(x,x)\mathop{}\!\mathrm{d}x<\infty$. … This formalism is only "
    r"rigorous on compact manifolds; we treat the case of $\Omega=\operatorname{\mathbb{R}}^{d}$ only "
    r"formally. … Thus, defining the inverse metric tensor by "
    r"$(G^{\operatorname{lin}}_{\rho})^{-1}[\Phi]\coloneqq-\nabla\cdot\left(\rho(x)\,\int y^{\mathrm{T}}Ax\,\nabla\Phi(y)\,\rho(y)\mathop{}\!\mathrm{d}y\right),$ "
    r"… This transformer PDE is exactly the Stein variational gradient flow (5) with respect to the "
    r"energy functional $\operatorname{\mathcal{F}}^{\operatorname{lin}}$ with kernel "
    r"$k(x,y)\coloneqq y^{\mathrm{T}}Ax$.")
PROP_4_1_TEXT = (
    r"Proposition 4.1 (Accelerated linear attention PDE). The accelerated linear self-attention "
    r"transformer flow in (9) satisfies "
    r"$\begin{cases}\partial_{t}\rho_{t}(x)+\nabla\cdot\left(\rho_{t}(x)\int y^{\mathrm{T}}Ax\nabla\Phi_{t}(y)\rho_{t}(y)\mathop{}\!\mathrm{d}{y}\right)=0,&\rho_{t}|_{t=0}=\rho_{0}\\[4.30554pt] \partial_{t}\Phi_{t}(x)+\alpha_{t}\Phi_{t}(x)+\int\langle\nabla\Phi_{t}(x),\nabla\Phi_{t}(y)\rangle y^{\mathrm{T}}Ax\rho_{t}(y)\mathop{}\!\mathrm{d}{y}-\frac{1}{2}x^{\mathrm{T}}Vx=0,&\Phi_{0}=0.\end{cases}$ "
    r"(24)")
EX_4_2_TEXT = (
    r"For $g(x)=(2\pi)^{-\frac{d}{2}}e^{-\frac{1}{2}x}$, we obtain Gaussian distributions, and for "
    r"$g(x)=\tfrac{\Gamma\left(\frac{v+d}{2}\right)}{\Gamma\left(\frac{v}{2}\right)}(v\pi)^{-\frac{d}{2}}\left(1+\frac{1}{v}x\right)^{-\frac{v+d}{2}}$, "
    r"we get the multivariate Student-t distributions with $v>2$ degrees of freedom. There are also "
    r"other less-known examples, such as logistic distributions, even power-exponential "
    r"distributions, and generalized hyperbolic distributions, see [30, Sec. 6]. … For Gaussian "
    r"distributions, we have $\kappa_{g}=1$ and for the Student-$t$ distribution with $v$ degrees of "
    r"freedom $\kappa_{g}=\frac{v}{v-2}$.")
PROP_4_3_TEXT = (
    r"Let $(\rho_{t},\Phi_{t})_{t\geq 0}$ satisfy (24) and $\rho_{0}=E(m,\Sigma,g)$. Then it holds "
    r"$\rho_{t}=E(m_{t},\Sigma_{t},g)\qquad\text{and}\qquad\Phi_{t}(x)=\frac{1}{2}x^{\mathrm{T}}P_{t}x,$ "
    r"with $m_{t}$ and $\Sigma_{t},P_{t}\in\operatorname{Sym}(\operatorname{\mathbb{R}};d)$ determined by "
    r"$\begin{cases}\dot{m}_{t}=C_{t}m_{t},&m_{t}|_{t=0}=m_{0},\\ \dot{\Sigma}_{t}=\Sigma_{t}C_{t}^{\mathrm{T}}+C_{t}\Sigma_{t},&\Sigma_{t}|_{t=0}=\Sigma_{0},\end{cases}$ "
    r"(25) where $C_{t}\coloneqq P_{t}(\kappa_{g}\Sigma_{t}+m_{t}m_{t}^{\mathrm{T}})A$ and "
    r"$\begin{cases}\dot{P}_{t}=-\alpha_{t}P_{t}-(C_{t}^{\mathrm{T}}P_{t}+P_{t}C_{t})+V,&t>0,\\ P_{0}=0.\end{cases}$ (26)")
PROP_4_5_TEXT = (
    r"The deterministic interacting particle system associated to (24) is "
    r"$\begin{cases}\dot{X}_{i}(t)=\frac{1}{N}\sum_{j=1}^{N}Y_{j}(t)X_{j}(t)^{\mathrm{T}}AX_{i}(t),&X_{i}(0)=X_{i,0},\\ \dot{Y}_{i}(t)=-\alpha_{t}Y_{i}(t)-\frac{1}{N}\sum_{j=1}^{N}\langle Y_{i}(t),Y_{j}(t)\rangle AX_{j}(t)+VX_{i}(t),&Y_{i}(0)=0,\end{cases}$ "
    r"where $Y_{i}(t)=\nabla\Phi_{t}(X_{i}(t))$. In the matrix form, the above system satisfies "
    r"$\begin{cases}\dot{\mathbf{X}}(t)=\frac{1}{N}\mathbf{X}(t)A\mathbf{X}(t)^{\mathrm{T}}\mathbf{Y}(t),&\mathbf{X}(0)=X_{0},\\ \dot{\mathbf{Y}}(t)=-\alpha(t)\mathbf{Y}(t)-\frac{1}{N}\mathbf{Y}(t)\mathbf{Y}(t)^{\mathrm{T}}\mathbf{X}(t)A+\mathbf{X}(t)V,&\mathbf{Y}(0)=\mathbf{0}.\end{cases}$ (28)")
PARTICLES_HAMILTONIAN_TEXT = (
    r"We will discretize certain accelerated gradient flows by approximating the density "
    r"$\rho_{t}$ by the empirical measure $\frac{1}{N}\sum_{j=1}^{N}\delta_{X_{i}(t)}$ and setting "
    r"$Y_{i}(t)\coloneqq\nabla\Phi_{t}(X_{i}(t))$, yielding a finite-dimensional linearly damped "
    r"Hamiltonian system in Euclidean space (4).")
COR_4_4_TEXT = (
    r"Let $(\rho_{t},\Phi_{t})_{t\geq 0}$ satisfy (24) and $\rho_{0}=E(0,\Sigma,g)$. Then, "
    r"$\rho_{t}=E(0,\Sigma_{t},g)\qquad\text{and}\qquad\Phi_{t}(x)=\frac{1}{2}x^{\mathrm{T}}P_{t}x,$ "
    r"with $\Sigma_{t},P_{t}\in\operatorname{Sym}(\operatorname{\mathbb{R}};d)$ determined by "
    r"$\dot{\Sigma}_{t}=\kappa_{g}\left(\Sigma_{t}A\Sigma_{t}P_{t}+P_{t}\Sigma_{t}A\Sigma_{t}\right),$ and "
    r"$\begin{cases}\dot{P}_{t}=-\alpha_{t}P_{t}-\kappa_{g}(A\Sigma_{t}P_{t}^{2}+P_{t}^{2}\Sigma_{t}A)+V,&t>0,\\ P_{0}=0.\end{cases}$ (27)")
PROP_4_5_EULER_TEXT = (
    r"The explicit Euler discretization (14) with step sizes $(h_{k})_{k\in\operatorname{\mathbb{N}}}$ "
    r"of (28) is "
    r"$\begin{cases}\mathbf{X}^{(k+1)}=\mathbf{X}^{(k)}+\frac{h_{k}}{N}\mathbf{X}^{(k)}A(\mathbf{X}^{(k)})^{\operatorname{\mathsf{T}}}\mathbf{Y}^{(k)},&\mathbf{X}^{(0)}=\mathbf{X}_{0},\\ \mathbf{Y}^{(k+1)}=\alpha_{k}\mathbf{Y}^{(k)}-\frac{h_{k}}{N}\mathbf{Y}^{(k)}\left(\mathbf{Y}^{(k)}\right)^{\operatorname{\mathsf{T}}}\mathbf{X}^{(k)}A+\mathbf{X}^{(k)}V,&\mathbf{Y}^{(0)}=\mathbf{0}.\end{cases}$")


@claim("sympformer:eq-23", locator="Section 4.1, eq. (23)",
       statement="the linear-attention transformer PDE (23) is the Stein gradient flow (5) of "
                 "F^lin(ρ) = −½∫yᵀVyρ with kernel k(x,y) = yᵀAx (V symmetric)",
       method="symbolic", expect="holds", threads=1, paper_text=EQ_23_TEXT)
def eq_23(budget: str) -> Evidence:
    d = 2
    x = sp.Matrix(sp.symbols("x1:3"))
    y = sp.Matrix(sp.symbols("y1:3"))
    A = sp.Matrix(d, d, lambda i, j: sp.Symbol(f"a{min(i, j)}{max(i, j)}"))
    V = sp.Matrix(d, d, lambda i, j: sp.Symbol(f"v{min(i, j)}{max(i, j)}"))
    V_general = sp.Matrix(d, d, lambda i, j: sp.Symbol(f"w{i}{j}"))

    def flux_residual(V_):
        # F^lin is linear in ρ with integrand −½ yᵀVy, so δF^lin/δρ (y) = −½ yᵀVy; its gradient:
        dF = (-sp.Rational(1, 2) * y.T * V_ * y)[0]
        grad_dF = sp.Matrix([sp.diff(dF, yi) for yi in y])
        k = (y.T * A * x)[0]
        # −(G^S)^{-1}[δF/δρ] = ∇·(ρ ∫ k ∇δF/δρ ρ) must equal −∇·(ρ ∫ yᵀAx V y ρ) of (23): compare
        # the integrands of the two fluxes pointwise in (x, y).
        return (-k * grad_dF - (y.T * A * x)[0] * V_ * y).applyfunc(sp.expand)

    res_sym = flux_residual(V)
    res_gen = flux_residual(V_general)
    printed_grad = sp.Matrix([sp.diff((-sp.Rational(1, 2) * y.T * V * y)[0], yi) for yi in y]) + V * y
    # the velocity of (23) and F^lin at ρ_N as the toolkit computes them (particles.attention, a
    # general A), against v(x_i) = (1/N) Σ_j (x_jᵀAx_i) V x_j and −(1/(2N)) Σ_i x_iᵀVx_i written out
    rng = np.random.default_rng(23)
    N = 6
    X, A_n, V_n = rng.standard_normal((N, d)), rng.standard_normal((d, d)), random_sym(rng, d)
    velocity = np.array([sum((X[j] @ A_n @ X[i]) * (V_n @ X[j]) for j in range(N)) / N for i in range(N)])
    err_field = rel_error(att.linear_attention(f64(X), f64(A_n), f64(V_n)).numpy(), velocity)
    err_energy = abs(float(att.energy_lin(f64(X), f64(V_n))) / (-sum(x @ V_n @ x for x in X) / (2 * N)) - 1)
    ok = (res_sym.is_zero_matrix and printed_grad.applyfunc(sp.expand).is_zero_matrix
          and max(err_field, err_energy) < 1e-13)
    return decide(
        bool(ok),
        criterion="sympy: the flux integrands of −(G^S_ρ)^{-1}[δF^lin/δρ] with k(x,y)=yᵀAx and of (23) "
                  "agree identically for generic symmetric V, A (d=2), and ∇_y δF^lin/δρ = −Vy as "
                  "printed; the toolkit's linear-attention field and F^lin at ρ_N equal (23)'s velocity "
                  "and the energy written out (< 1e-13 relative, float64 sums)",
        numbers={"residual_symmetric_V": str(list(res_sym)), "gradient_residual": str(list(printed_grad)),
                 "residual_general_V": str(list(res_gen)),
                 "rel_error_linear_attention_vs_23": err_field, "rel_error_energy_lin": err_energy,
                 "note": "for non-symmetric V the flow is that of the symmetric part (V+Vᵀ)/2: the "
                         "residual above is nonzero, so the paper's assumption 'V symmetric' is needed"})


@claim("sympformer:stein-kernel", locator="Section 4.1 with eq. (5)",
       statement="k(x,y) = yᵀAx is an admissible Stein kernel of (5): symmetric, integrally strictly "
                 "positive definite, ∫k(x,x)dx < ∞, so G^lin is an invertible metric tensor",
       method="property", expect="holds", threads=1, paper_text=STEIN_TEXT,
       referee="changed: the mathematics stands (yᵀAx is positive semi-definite of rank d, not "
               "integrally strictly positive definite on any domain: a measure with zero first "
               "moment has ∫∫k dμdμ = 0; ∫k(x,x)dx = ∞ on R^d; G^lin annihilates every Φ with "
               "∫∇Φ(y)yᵀρ(y)dy = 0), but the paper never prints that yᵀAx is ISPD: its sentence "
               "identifies (23) with the formula of the Stein flow (5) for this kernel, which holds "
               "(eq-23), and it treats R^d 'only formally'. Read as 'k belongs to (5)'s kernel class' "
               "(on R^d or a compact domain) it fails: an ambiguity the authors could clarify "
               "(a degenerate, rank-d Stein metric), not an erratum")
def stein_kernel(budget: str) -> Evidence:
    rng = np.random.default_rng(0)
    d = 2
    A = random_spd(rng, d)
    # Integral strict positive definiteness fails: for a signed measure μ, ∫∫ k dμ dμ =
    # (∫x dμ)ᵀ A (∫y dμ), which vanishes for every μ with zero first moment, e.g. μ = δ_e1 + δ_{−e1}.
    pts = np.array([[1.0, 0.0], [-1.0, 0.0]])
    mu = np.array([1.0, 1.0])
    quad_form = float(mu @ (pts @ A @ pts.T) @ mu)
    # ∫ k(x,x) dx = ∫ xᵀAx dx over R^d diverges: the integral over the ball of radius R grows like R^{d+2}.
    radii = [1.0, 2.0, 4.0, 8.0]
    sphere = 2 * math.pi ** (d / 2) / math.gamma(d / 2)  # |S^{d-1}|
    ball = [float(np.trace(A) / d * sphere * R ** (d + 2) / (d + 2)) for R in radii]  # ∫_{|x|<R} xᵀAx dx
    # The metric is degenerate: for ρ = N(0, 1) in d = 1, Φ(y) = y³ − 3y (Hermite He3) is not
    # constant but ∫ Φ'(y) y ρ(y) dy = 0, so (G^lin_ρ)^{-1}[Φ] = −∂_x(ρ(x) x a ∫Φ'(y) y ρ dy) = 0.
    yy = sp.Symbol("y", real=True)
    rho = sp.exp(-yy ** 2 / 2) / sp.sqrt(2 * sp.pi)
    phi = yy ** 3 - 3 * yy
    moment = sp.integrate(sp.diff(phi, yy) * yy * rho, (yy, -sp.oo, sp.oo))
    # The correction: k is a symmetric positive semi-definite kernel of rank d (Gram matrices PSD, rank ≤ d).
    Xs = rng.standard_normal((12, d))
    gram = Xs @ A @ Xs.T
    eig = np.linalg.eigvalsh(gram)
    rank = int(np.sum(eig > 1e-10 * eig[-1]))
    # On a compact domain (the unit ball: ∫k(x,x) finite, = tr(A)|B|/(d+2)) the measure above still
    # gives 0, and for ρ uniform on [−1, 1] (d = 1) the non-constant Φ = y³ has ∫Φ'(y) y ρ dy = 0.
    ball_integral = ball[0]
    ball_growth = float(np.polyfit(np.log(radii), np.log(ball), 1)[0])  # d + 2: ∫_{R^d} k(x,x) = ∞
    moment_compact = sp.integrate(sp.diff(yy ** 3, yy) * yy / 2, (yy, -1, 1))
    formula_identity = eq_23(budget).verdict == "holds"   # (23) = the Stein-flow formula with k
    correction_ok = eig[0] > -1e-12 * eig[-1] and rank == d
    readings = [
        reading("k belongs to the kernel class of (5) on Ω = R^d (symmetric, integrally strictly "
                "positive definite, ∫k(x,x)dx < ∞) and G^lin is an invertible metric tensor",
                quad_form > 0 and sp.simplify(moment) != 0 and ball_growth < 0.5,
                ball_integral_growth_exponent=ball_growth),
        reading("the same on a compact domain, where the paper says the formalism is rigorous "
                "(Ω the unit ball, ρ uniform)",
                quad_form > 0 and sp.simplify(moment_compact) != 0 and math.isfinite(ball_integral),
                int_unit_ball_k_xx=ball_integral, moment_y3_uniform=str(moment_compact)),
        reading("'the Stein variational gradient flow (5) with kernel yᵀAx' as (5)'s formula with "
                "this k (the kernel conditions left aside, as 'only formally' allows; the bilinear "
                "kernels of the authors' [31]): the PDE identity of claim eq-23", formula_identity),
    ]
    return decide_readings(
        readings, correction_ok,
        criterion="ISPD needs ∫∫k dμdμ > 0 for every nonzero μ; G^lin invertible needs G^{-1}[Φ] ≠ 0 for "
                  "non-constant Φ; ∫k(x,x)dx < ∞ on R^d needs ∫_{|x|<R} k(x,x)dx to stop growing (fitted "
                  "exponent in R < 0.5; it is d + 2); the formula "
                  "reading holds iff claim eq-23's identity holds; the correction passes if Gram matrices "
                  "are PSD (λ_min ≥ −1e-12 λ_max, float64) with numerical rank exactly d",
        numbers={"quadratic_form_zero_mean_measure": quad_form, "int_ball_k_xx": dict(zip(radii, ball)),
                 "moment_He3": str(moment), "moment_y3_uniform_on_[-1,1]": str(moment_compact),
                 "gram_eigenvalues": eig, "gram_rank": rank, "d": d},
        counterexample={"measure": "δ_(1,0) + δ_(−1,0)", "value": quad_form,
                        "degenerate_direction": "ρ = N(0,1), Φ = y³ − 3y ⇒ (G^lin_ρ)^{-1}[Φ] = 0"},
        correction="k(x,y) = yᵀAx is symmetric positive semi-definite of rank d (not ISPD, ∫k(x,x)dx = ∞); "
                   "G^lin is degenerate (only ∫∇Φ(y)yᵀρ(y)dy enters), so the Stein-flow identification of "
                   "(23) is formal: the flow moves only along linear maps x ↦ Cx",
        ambiguity="(23) is the Stein-flow formula (5) with k = yᵀAx (claim eq-23), but yᵀAx is not in "
                  "the kernel class (5) requires: it is positive semi-definite of rank d, not integrally "
                  "strictly positive definite on any domain, with ∫k(x,x)dx = ∞ on R^d, so G^lin is "
                  "degenerate and not an invertible metric tensor. The authors could say the Stein "
                  "metric here is degenerate (rank d) and the identification formal")


def _psi_weights(w, pts, grad_phi, A):
    """Ψ(ρ) = ½ ∫∫ ⟨∇Φ(x), ∇Φ(y)⟩ yᵀAx ρ(x)ρ(y) for ρ = Σ w_i δ_{pts_i}."""
    G = grad_phi @ grad_phi.T * (pts @ A @ pts.T).T
    return 0.5 * w @ G @ w


@claim("sympformer:prop-4.1", locator="Proposition 4.1, eq. (24); proof in Appendix A",
       statement="(9) with G^lin and F^lin is (24): δ/δρ ½∫Φ(G^lin)^{-1}[Φ] = ∫⟨∇Φ(x),∇Φ(y)⟩yᵀAxρ(y)dy "
                 "(A symmetric) and δF^lin/δρ = −½xᵀVx",
       method="property", expect="holds", threads=1, paper_text=PROP_4_1_TEXT)
def prop_4_1(budget: str) -> Evidence:
    rng = np.random.default_rng(1)
    n, d = 7, 3
    A, A_ns = f64(random_spd(rng, d)), f64(rng.standard_normal((d, d)))
    P, b = f64(random_sym(rng, d)), f64(rng.standard_normal(d))
    pts, w0 = f64(rng.standard_normal((n, d))), f64(rng.uniform(0.1, 1.0, n))

    def phi(x):  # a non-quadratic potential: ½xᵀPx + bᵀx + Σ sin(x)
        return 0.5 * x @ P @ x + b @ x + torch.sin(x).sum()

    grad_phi = vmap(grad(phi))(pts)

    def printed_variation(A_):
        return (grad_phi @ grad_phi.T * (pts @ A_ @ pts.T).T) @ w0  # ∫⟨∇Φ(x),∇Φ(y)⟩ yᵀAx ρ(y)dy at x_i

    errs = {}
    for name, A_ in (("symmetric_A", A), ("nonsymmetric_A", A_ns)):
        w = w0.clone().requires_grad_(True)
        (g,) = torch.autograd.grad(_psi_weights(w, pts, grad_phi, A_), w)
        errs[name] = rel_error(g.numpy(), printed_variation(A_).numpy())
    # Integration by parts in the proof (d = 1, ρ Gaussian, Φ a cubic): ½∫Φ (G^lin)^{-1}[Φ] = Ψ(ρ).
    x, y = sp.symbols("x y", real=True)
    a = sp.Rational(3, 2)
    rho = lambda z: sp.exp(-(z - sp.Rational(1, 3)) ** 2 / 2) / sp.sqrt(2 * sp.pi)  # noqa: E731
    Phi = lambda z: z ** 3 / 3 - z / 2  # noqa: E731
    inner = sp.integrate(y * a * sp.diff(Phi(y), y) * rho(y), (y, -sp.oo, sp.oo))  # ∫ y a Φ'(y) ρ(y) dy
    lhs = sp.Rational(1, 2) * sp.integrate(Phi(x) * (-sp.diff(rho(x) * x * inner, x)), (x, -sp.oo, sp.oo))
    rhs = sp.Rational(1, 2) * sp.integrate(sp.diff(Phi(x), x) * x * rho(x), (x, -sp.oo, sp.oo)) * inner
    ibp = sp.simplify(lhs - rhs)
    ok = errs["symmetric_A"] < 1e-13 and ibp == 0
    return decide(
        ok,
        criterion="autograd first variation of Ψ over atom weights equals the printed derivative to "
                  "< 1e-13 relative (float64 rounding of O(n²) sums), and the integration by parts is "
                  "exactly zero in sympy",
        numbers={"rel_error_symmetric_A": errs["symmetric_A"], "rel_error_nonsymmetric_A": errs["nonsymmetric_A"],
                 "integration_by_parts_residual": str(ibp), "atoms": n, "d": d,
                 "note": "for non-symmetric A the derivative is ½∫⟨∇Φ(x),∇Φ(y)⟩(yᵀAx + xᵀAy)ρ(y)dy; "
                         "Section 4 assumes A symmetric"})


@claim("sympformer:ex-4.2", locator="Example 4.2 and condition i) of Section 4.2",
       statement="κ_g = 1 (Gaussian) and v/(v−2) (Student-t, v>2); the printed generators satisfy "
                 "normalization i); further families of [30, Sec. 6] have explicit κ_g",
       method="symbolic", expect="holds", threads=1, paper_text=EX_4_2_TEXT)
def ex_4_2(budget: str) -> Evidence:
    v = sp.Symbol("v", positive=True)
    dims = (1, 2, 3) if budget == "quick" else (1, 2, 3, 4, 5)
    rows, ok = {}, True
    for d in dims:
        kg, kt = ell.kappa_g(ell.g_gaussian(d), d), ell.kappa_g(ell.g_student_t(d, v), d)
        ng, nt = ell.normalization(ell.g_gaussian(d), d), ell.normalization(ell.g_student_t(d, v), d)
        res = [sp.simplify(kg - 1), sp.simplify(kt - v / (v - 2)), sp.simplify(ng - 1), sp.simplify(nt - 1)]
        rows[f"d={d}"] = {"kappa_gaussian": str(kg), "kappa_student_t": str(kt),
                          "norm_gaussian": str(ng), "norm_student_t": str(nt)}
        ok &= all(r == 0 for r in res)
    # Power-exponential family: normalization and κ_g by integration vs the closed form.
    pe = {}
    for d in (1, 2):
        for beta in (sp.Rational(1, 2), sp.Integer(2)):
            g = ell.g_power_exponential(d, beta)
            k = ell.kappa_g(g, d)
            res = sp.simplify(k - ell.kappa_power_exponential(d, beta))
            nrm = sp.simplify(ell.normalization(g, d) - 1)
            pe[f"d={d},beta={beta}"] = {"kappa": str(k), "float": float(k)}
            ok &= res == 0 and nrm == 0
    # Logistic family: closed form via the Dirichlet eta function vs 30-digit quadrature.
    logi = {d: (ell.kappa_logistic(d), ell.kappa_logistic_quadrature(d)) for d in (1, 2, 3)}
    logi_err = max(abs(a - b) / b for a, b in logi.values())
    ok &= logi_err < 1e-13 and abs(logi[2][0] - math.log(2)) < 1e-15
    return decide(
        bool(ok),
        criterion="sympy residuals exactly 0 (Gaussian, Student-t with symbolic v, power-exponential); "
                  "logistic closed form vs mpmath quadrature < 1e-13 relative (float64 of a 30-digit value)",
        numbers={"gaussian_student_t": rows, "power_exponential": pe,
                 "logistic_closed_vs_quadrature": {str(d): list(vv) for d, vv in logi.items()},
                 "logistic_max_rel_error": logi_err})


# ---------------------------------------------------------------------- Proposition 4.3 / Cor. 4.4


def _empirical(X: np.ndarray):
    """Empirical mean, (biased) covariance and second moment of the rows of X."""
    m = X.mean(axis=0)
    K = (X - m).T @ (X - m) / X.shape[0]
    return m, K, X.T @ X / X.shape[0]


def linear_particles_vs_moments(family: str, N: int, seed: int, t_eval, empirical: bool,
                                rtol: float = 1e-11):
    """Run the particle system (28) from N samples of E(m0, Σ0, g) with Y(t0) = 0 and compare with the
    moment ODEs (25)-(26), started either from the empirical moments of the sample
    (`empirical=True`: the exact finite-N statement) or from the population (m0, Σ0)."""
    from functools import partial
    A, V, Sigma0 = linear_problem()
    m0 = np.array(LINEAR_SETUP["m0"])
    v = LINEAR_SETUP["v"]
    kappa = ell.kappa_value(family, v)
    X0 = ell.sample_elliptical(family, m0, Sigma0, N, np.random.default_rng(seed), v=v)
    t0 = LINEAR_SETUP["t0"]
    Xt, Yt = acc.solve_particles(partial(acc.linear_oracles, A=f64(A), V=f64(V)), f64(X0), f64(np.zeros_like(X0)),
                                 nesterov_alpha, t_eval, t0=t0, rtol=rtol, atol=rtol * 0.1)
    if empirical:
        m_N, K_N, _ = _empirical(X0)
        path = ell.solve_25_26(m_N, K_N / kappa, A, V, kappa, nesterov_alpha, t_eval, t0=t0)
    else:
        path = ell.solve_25_26(m0, Sigma0, A, V, kappa, nesterov_alpha, t_eval, t0=t0)
    Xt, Yt = Xt.numpy(), Yt.numpy()
    out = {"mean": [], "cov": [], "Y_eq_XP": [], "linear_pushforward": [], "particle_cov": [],
           "ode_cov": path.covariance}
    for k in range(len(t_eval)):
        m_k, K_k, _ = _empirical(Xt[k])
        out["particle_cov"].append(K_k)
        out["mean"].append(float(np.linalg.norm(m_k - path.m[k]) / max(np.linalg.norm(path.m[k]), 1e-12)))
        out["cov"].append(rel_error(K_k, path.covariance[k]))
        out["Y_eq_XP"].append(rel_error(Yt[k], Xt[k] @ path.P[k]))
        G, *_ = np.linalg.lstsq(X0, Xt[k], rcond=None)  # X(t) = X(0) Gᵀ for one matrix G?
        out["linear_pushforward"].append(rel_error(X0 @ G, Xt[k]))
    return out


@claim("sympformer:prop-4.3", locator="Proposition 4.3, eqs. (25)-(26)",
       statement="particles of (28) started from Gaussian / Student-t samples stay elliptical and their "
                 "moments follow (25)-(26); exactly at finite N with empirical moments in place of "
                 "(m, κ_gΣ), with Y_i = P_t X_i",
       method="property", expect="holds", figures=["elliptical-covariance"], threads=1,
       paper_text=PROP_4_3_TEXT)
def prop_4_3(budget: str) -> Evidence:
    N = 200 if budget == "quick" else 1000
    t_eval = np.linspace(LINEAR_SETUP["t0"], LINEAR_SETUP["T"], 9)
    worst, numbers, series = 0.0, {"N": N, "t_eval": t_eval, **LINEAR_SETUP}, {}
    A, V, Sigma0 = linear_problem()
    for family in ("gaussian", "student_t"):
        res = linear_particles_vs_moments(family, N, seed=11, t_eval=t_eval, empirical=True)
        numbers[family] = {k: max(v) for k, v in res.items() if k not in ("particle_cov", "ode_cov")}
        worst = max(worst, *numbers[family].values())
        kappa = ell.kappa_value(family, LINEAR_SETUP["v"])
        population = ell.solve_25_26(LINEAR_SETUP["m0"], Sigma0, A, V, kappa, nesterov_alpha, t_eval, t0=LINEAR_SETUP["t0"])
        series[family] = {"particles": np.array(res["particle_cov"]), "ode_empirical_start": res["ode_cov"],
                          "ode_population_start": population.covariance, "kappa": kappa}
    numbers["series"] = series
    return decide(
        worst < 1e-8,
        criterion="max relative error over t of: particle mean/covariance vs (25)-(26) started at the "
                  "empirical moments, Y(t) vs X(t)P_t, and the best linear map X(0) ↦ X(t), all < 1e-8 "
                  "(both sides integrated by DOP853 at rtol 1e-11 over t ∈ [1, 3])",
        numbers={**numbers, "worst": worst,
                 "derivation": "with Y_i = P X_i, (28) gives Ẋ_i = P S_N A X_i, S_N = (1/N)XᵀX, so X(t) = "
                               "X(0)G_tᵀ and (m_N, K_N, P) obey (25)-(26) with κ_gΣ ↦ K_N exactly"})


@claim("sympformer:prop-4.3-mean-field", locator="Proposition 4.3 (mean-field limit of Proposition 4.5)",
       statement="the particle covariance at time T converges to the population κ_gΣ_T of (25)-(26) at the "
                 "Monte-Carlo rate N^{-1/2} (Gaussian and Student-t with v = 5)",
       method="convergence", expect="holds", figures=["elliptical-covariance"], threads=1,
       paper_text=r"We now discretize (24) in space. For $t>0$, we approximate the density $\rho_{t}$ by "
                  r"the empirical measure $\frac{1}{N}\sum_{j=1}^{N}\delta_{X_{i}(t)}$. In Appendix A, we "
                  r"provide the following discretization result. … " + PROP_4_3_TEXT)
def prop_4_3_mean_field(budget: str) -> Evidence:
    Ns = [100, 400, 1600] if budget == "quick" else [50, 200, 800, 3200, 12800]
    seeds = range(6) if budget == "quick" else range(32)
    t_eval = [LINEAR_SETUP["t0"], LINEAR_SETUP["T"]]
    numbers, ok = {"N": Ns, "seeds": len(seeds)}, True
    for family in ("gaussian", "student_t"):
        err = [float(np.sqrt(np.mean([linear_particles_vs_moments(family, N, 1000 + s, t_eval, False, 1e-8)["cov"][-1] ** 2
                                      for s in seeds]))) for N in Ns]
        slope = float(np.polyfit(np.log(Ns), np.log(err), 1)[0])
        numbers[family] = {"rms_rel_cov_error_T": err, "slope": slope}
        ok &= -0.75 < slope < -0.25
    return decide(
        ok,
        criterion="least-squares slope of log(rms relative covariance error at T) vs log N within "
                  "(−0.75, −0.25) for both families (Monte-Carlo rate −½; band allows the sampling "
                  "noise of the rms over the seeds; solver rtol 1e-8 ≪ errors ≥ 1e-2)",
        numbers=numbers)


@claim("sympformer:cor-4.4", locator="Corollary 4.4, eq. (27)",
       statement="with m_0 = 0, (25)-(26) reduce to (27)",
       method="symbolic", expect="holds", threads=1, paper_text=COR_4_4_TEXT)
def cor_4_4(budget: str) -> Evidence:
    res_S, res_P = ell.corollary_4_4_residual_sym(2 if budget == "quick" else 3)
    A, V, Sigma0 = linear_problem()
    t_eval = np.linspace(LINEAR_SETUP["t0"], LINEAR_SETUP["T"], 5)
    p43 = ell.solve_25_26(np.zeros(2), Sigma0, A, V, 1.5, nesterov_alpha, t_eval, t0=LINEAR_SETUP["t0"])
    p44 = ell.solve_27(Sigma0, A, V, 1.5, nesterov_alpha, t_eval, t0=LINEAR_SETUP["t0"])
    num = max(rel_error(p43.Sigma, p44.Sigma), rel_error(p43.P, p44.P))
    ok = res_S.is_zero_matrix and res_P.is_zero_matrix and num < 1e-9
    return decide(
        bool(ok),
        criterion="sympy residuals of (25)-(26)|_{m=0} − (27) vanish identically for generic symmetric "
                  "A, V, Σ, P; numerically the two solve_ivp solutions agree to < 1e-9 (rtol 1e-11)",
        numbers={"sym_residual_Sigma": str(list(res_S)), "sym_residual_P": str(list(res_P)),
                 "numeric_rel_difference": num, "kappa": 1.5})


# ---------------------------------------------------------------------- Proposition 4.5


@claim("sympformer:prop-4.5", locator="Proposition 4.5, eq. (28)",
       statement="the component form and the matrix form (28) of the accelerated linear-attention "
                 "particle system agree, and their conservative part is Hamiltonian",
       method="property", expect="holds", threads=1,
       paper_text=PROP_4_5_TEXT + " … " + PARTICLES_HAMILTONIAN_TEXT)
def prop_4_5(budget: str) -> Evidence:
    rng = np.random.default_rng(5)
    worst, worst_ham, nonsym = 0.0, 0.0, 0.0
    for N, d in ((3, 1), (7, 2), (16, 4), (40, 3)):
        X, Y = f64(rng.standard_normal((N, d))), f64(rng.standard_normal((N, d)))
        A, V = f64(random_spd(rng, d)), f64(random_sym(rng, d))
        comp, mat = acc.linear_component_rhs(X, Y, A, V, 0.7), acc.linear_matrix_rhs(X, Y, A, V, 0.7)
        worst = max(worst, *(rel_error(a.numpy(), b.numpy()) for a, b in zip(comp, mat)))
        Xr, Yr = X.clone().requires_grad_(True), Y.clone().requires_grad_(True)
        gX, gY = torch.autograd.grad(acc.hamiltonian_lin(Xr, Yr, A, V), (Xr, Yr))
        F, G = acc.linear_oracles(X, Y, A, V)
        worst_ham = max(worst_ham, rel_error(gY.numpy(), F.numpy()), rel_error(-gX.numpy(), G.numpy()))
        A_ns = A + f64(0.5 * rng.standard_normal((d, d)))
        if d > 1:
            c2, m2 = acc.linear_component_rhs(X, Y, A_ns, V), acc.linear_matrix_rhs(X, Y, A_ns, V)
            nonsym = max(nonsym, rel_error(c2[0].numpy(), m2[0].numpy()))
    ok = worst < 1e-13 and worst_ham < 1e-13
    return decide(
        ok,
        criterion="max relative difference component vs matrix form < 1e-13 and of (∂H/∂Y, −∂H/∂X) "
                  "(autograd of H^lin = tr(YᵀXAXᵀY)/(2N) − tr(XVXᵀ)/2) vs (28) < 1e-13 (float64 sums)",
        numbers={"component_vs_matrix": worst, "hamiltonian_vs_28": worst_ham,
                 "component_vs_matrix_nonsymmetric_A": nonsym,
                 "note": "the two forms agree only for symmetric A (Section 4's assumption)"})


@claim("sympformer:prop-4.5-euler", locator="Proposition 4.5, explicit Euler form printed after (28)",
       statement="the printed explicit-Euler update (Y⁺ = α_kY − (h/N)YYᵀXA + XV) is (14) applied to (28), "
                 "a consistent first-order scheme",
       method="convergence", expect="holds-with-correction", threads=1, paper_text=PROP_4_5_EULER_TEXT,
       referee="changed (26 Nov 2026), holds-with-correction -> holds with an ambiguity (the misprint "
               "convention of docs/architecture.md): read literally, the update leaves XV without the "
               "h_k that (14) puts on the whole force (printed − (14) = (1 − h_k)XV, defect ~ ‖XV‖/h_k, "
               "inconsistent with (28) for either α_k of (14)). But the display is announced as '(14) "
               "... of (28)', both are printed, and Algorithm 1 (y ← ζ₁y + h_Y ζ₂G, G the right-hand "
               "side of (28), §6.1) with Table 4's plain Euler (ζ₁ = α, ζ₂ = 1) prints the intended "
               "update: a dropped h_k whose intended form the paper states. Issue 38 (R2): the dropped "
               "h_k is a correction, not a reading: holds-with-correction, a misprint")
def prop_4_5_euler(budget: str) -> Evidence:
    """The consistency defect ‖(z⁺ − z)/h − f(z)‖ of one step from a random (X, Y), as h → 0, under
    the two choices (14) leaves for α_k: constant damping μ with α_k = 1 − μh, and Nesterov's
    α_k = (k−1)/(k+2) at t = kh = 1 (continuous damping 3/t). Consistent iff the defect is at
    rounding level or decays (fitted slope in h > 0.5)."""
    rng = np.random.default_rng(6)
    N, d, mu = 12, 2, 0.5
    X, Y = f64(rng.standard_normal((N, d))), f64(0.3 * rng.standard_normal((N, d)))
    A, V = f64(random_spd(rng, d)), f64(random_sym(rng, d))
    hs = [2.0 ** -k for k in range(4, 12)]
    schedules = {"constant μ = 0.5, α_k = 1 − μh": (lambda h: 1 - mu * h, mu),
                 "Nesterov α_k = (k−1)/(k+2), t = kh = 1": (lambda h: (round(1 / h) - 1) / (round(1 / h) + 2), 3.0)}
    F, G = acc.linear_oracles(X, Y, A, V)
    out = {}
    for name, (alpha_k_of, alpha_t) in schedules.items():
        X_dot, Y_dot = acc.linear_matrix_rhs(X, Y, A, V, alpha_t)
        scale = float(torch.linalg.norm(torch.cat([X_dot, Y_dot])))
        printed, corrected = [], []
        for h in hs:
            Xp, Yp = acc.linear_euler_printed(X, Y, h, alpha_k_of(h), A, V)
            Xc, Yc = X + h * F, alpha_k_of(h) * Y + h * G  # (14) applied to (28): h on every force term
            printed.append(float(torch.linalg.norm(torch.cat([(Xp - X) / h - X_dot, (Yp - Y) / h - Y_dot]))))
            corrected.append(float(torch.linalg.norm(torch.cat([(Xc - X) / h - X_dot, (Yc - Y) / h - Y_dot]))))
        slopes = [float(np.polyfit(np.log(hs), np.log(np.maximum(e, 1e-300)), 1)[0]) for e in (printed, corrected)]
        consistent = [e[-1] < 1e-8 * scale or sl > 0.5 for e, sl in zip((printed, corrected), slopes)]
        out[name] = {"defect_printed": printed, "defect_corrected": corrected, "slope_printed": slopes[0],
                     "slope_corrected": slopes[1], "printed_consistent": consistent[0],
                     "corrected_consistent": consistent[1], "rhs_norm": scale}
    readings = [reading(f"as printed, α_k of (14) read as {name}", r["printed_consistent"],
                        slope_printed=r["slope_printed"], defect_at_smallest_h=r["defect_printed"][-1])
                for name, r in out.items()]
    corrected_ok = all(r["corrected_consistent"] for r in out.values())
    readings.append(reading("a dropped h_k on XV: the update is '(14) of (28)' as announced, the form "
                            "Algorithm 1 and Table 4 (plain Euler: ζ₁ = α, ζ₂ = 1) print", corrected_ok,
                            not_admitted="correction"))
    constant = out[next(iter(out))]
    return decide_readings(
        readings, corrected_ok,
        ambiguity="a misprint: the printed Y-update drops the h_k on XV that (14) applied to (28), as the "
                  "sentence announces it, and Algorithm 1 with Table 4 carry; read literally it is not "
                  "consistent with (28)",
        criterion="consistency defect ‖(z⁺−z)/h − f(z)‖ → 0 as h → 0: below 1e-8‖f‖ (explicit Euler is "
                  "exactly consistent up to rounding) or decaying (fitted slope in h > 0.5)",
        numbers={"h": hs, "schedules": out,
                 # the constant-damping series under the keys the page has shown so far
                 "defect_printed": constant["defect_printed"], "defect_corrected": constant["defect_corrected"],
                 "slope_printed": constant["slope_printed"]},
        counterexample={"N": N, "d": d, "seed": 6, "defect_printed_at_smallest_h": constant["defect_printed"][-1],
                        "reason": "X V enters without the factor h_k, so the defect grows like 1/h"},
        correction="Y⁽ᵏ⁺¹⁾ = α_k Y⁽ᵏ⁾ − (h_k/N) Y⁽ᵏ⁾(Y⁽ᵏ⁾)ᵀX⁽ᵏ⁾A + h_k X⁽ᵏ⁾V (first order, with α_k = 1 − μh_k "
                   "or the Nesterov α_k)")
