// The backward pass of the row-wise layers (layers.h): given the forward
// inputs and dL/dy, each writes dL/dx and adds its parameters' gradients to
// what they hold (so the samples of a batch sum into one set).
// Shapes as in the forward; tokens are rows.
#pragma once
#include "tensor/tensor.h"

namespace vit {

// y = x · wᵀ + b:  dx = dy · w,  dw += dyᵀ · x,  db += Σ_rows dy
//   x: T×D_in, w: D_out×D_in, dy: T×D_out → dx: T×D_in, dw: D_out×D_in, db: D_out
// (db is left alone when it is empty: a layer without bias)
void linear_backward(const ConstMatRef& x, const Mat& w, const ConstMatRef& dy, MatMap dx, Mat& dw, Vec& db);

// y = x̂ · γ + β with x̂ = (x − mean) / σ per row:
//   g = dy ⊙ γ,  dx = (g − mean(g) − x̂ · mean(g ⊙ x̂)) / σ,  dγ += Σ_rows dy ⊙ x̂,  dβ += Σ_rows dy
//   x, dy, dx: T×D; γ, β: D
void layer_norm_backward(const ConstMatRef& x, const Vec& gamma, float eps, const ConstMatRef& dy, MatMap dx,
                         Vec& dgamma, Vec& dbeta);

// y = x · Φ(x):  dx = dy ⊙ (Φ(x) + x · φ(x)),  Φ = ½(1 + erf(x/√2)), φ = e^(−x²/2)/√(2π)
void gelu_backward(const ConstMatRef& x, const ConstMatRef& dy, MatMap dx);

// y = x · s(x), s = sigmoid(1.702 x):  dx = dy ⊙ (s + 1.702 x · s (1 − s))
void quick_gelu_backward(const ConstMatRef& x, const ConstMatRef& dy, MatMap dx);

// y = SiLU(a) ⊙ b for h = [a | b], s = sigmoid(a):
//   da = dy ⊙ b ⊙ s (1 + a (1 − s)),  db = dy ⊙ SiLU(a)   (h, dh: T×2M; dy: T×M)
void swiglu_backward(const ConstMatRef& h, const ConstMatRef& dy, MatMap dh);

// y = x ⊙ γ per row:  dx = dy ⊙ γ,  dγ += Σ_rows dy ⊙ x
void layer_scale_backward(const ConstMatRef& x, const Vec& gamma, const ConstMatRef& dy, MatMap dx, Vec& dgamma);

// y = softmax(x) per row:  dx = y ⊙ (dy − Σ_cols dy ⊙ y)   (dx may alias dy)
void softmax_rows_backward(const ConstMatRef& y, const ConstMatRef& dy, MatMap dx);

}  // namespace vit
