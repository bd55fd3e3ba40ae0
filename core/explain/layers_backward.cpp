// Backward of LayerNorm, GELU (erf form), softmax and linear layers, the
// gradients torch.autograd computes for nn.LayerNorm, nn.GELU(), softmax(dim=-1)
// and nn.Linear. Products go to Eigen's GEMM; row-wise steps split rows over OpenMP.
#include "explain/layers_backward.h"

#include <cmath>

#include "tensor/gelu.h"
#include "pass/layers.h"

namespace vit {

void linear_backward(const ConstMatRef& x, const Mat& w, const ConstMatRef& dy, MatMap dx, Mat& dw, Vec& db) {
    dx.noalias() = dy * w;
    dw.noalias() += dy.transpose() * x;
    if (db.size() > 0) db += dy.colwise().sum().transpose();
}

void layer_norm_backward(const ConstMatRef& x, const Vec& gamma, float eps, const ConstMatRef& dy, MatMap dx,
                         Vec& dgamma, Vec& dbeta) {
    const Eigen::Index rows = x.rows(), cols = x.cols();
    const float inv_cols = 1.0f / static_cast<float>(cols);
    Mat normalised(rows, cols);
#pragma omp parallel for schedule(static) if (x.size() >= kParallelMinElements)
    for (Eigen::Index r = 0; r < rows; ++r) {
        const auto row = x.row(r).array();
        const RowNorm n = row_norm(row, eps);
        normalised.row(r).array() = (row - n.mean) * n.inv_std;
        const Eigen::ArrayXf g = dy.row(r).transpose().array() * gamma.array();
        const float mean_g = g.sum() * inv_cols;
        const float mean_gx = (g * normalised.row(r).transpose().array()).sum() * inv_cols;
        dx.row(r).array() = (g.transpose() - mean_g - normalised.row(r).array() * mean_gx) * n.inv_std;
    }
    dgamma += (dy.array() * normalised.array()).colwise().sum().transpose().matrix();
    dbeta += dy.colwise().sum().transpose();
}

void gelu_backward(const ConstMatRef& x, const ConstMatRef& dy, MatMap dx) {
    const Eigen::Index rows = x.rows();
    const float inv_sqrt_2pi = 0.39894228040143268f;
#pragma omp parallel for schedule(static) if (x.size() >= kParallelMinElements)
    for (Eigen::Index r = 0; r < rows; ++r) {
        const auto row = x.row(r).array();
        const auto cdf = 0.5f * (1.0f + (row * kInvSqrt2).erf());
        const auto pdf = (-0.5f * row.square()).exp() * inv_sqrt_2pi;
        dx.row(r).array() = dy.row(r).array() * (cdf + row * pdf);
    }
}

void quick_gelu_backward(const ConstMatRef& x, const ConstMatRef& dy, MatMap dx) {
    const auto s = 1.0f / (1.0f + (-kQuickGeluScale * x.array()).exp());
    dx.array() = dy.array() * (s + kQuickGeluScale * x.array() * s * (1.0f - s));
}

void swiglu_backward(const ConstMatRef& h, const ConstMatRef& dy, MatMap dh) {
    const Eigen::Index M = dy.cols();
    const auto a = h.leftCols(M).array();
    const auto s = 1.0f / (1.0f + (-a).exp());
    dh.leftCols(M).array() = dy.array() * h.rightCols(M).array() * s * (1.0f + a * (1.0f - s));
    dh.rightCols(M).array() = dy.array() * a * s;
}

void layer_scale_backward(const ConstMatRef& x, const Vec& gamma, const ConstMatRef& dy, MatMap dx, Vec& dgamma) {
    dgamma += (dy.array() * x.array()).colwise().sum().transpose().matrix();
    dx.array() = dy.array().rowwise() * gamma.transpose().array();
}

void softmax_rows_backward(const ConstMatRef& y, const ConstMatRef& dy, MatMap dx) {
    const Eigen::Index rows = y.rows();
#pragma omp parallel for schedule(static) if (y.size() >= kParallelMinElements)
    for (Eigen::Index r = 0; r < rows; ++r) {
        const float dot = (dy.row(r).array() * y.row(r).array()).sum();
        dx.row(r).array() = y.row(r).array() * (dy.row(r).array() - dot);
    }
}

}  // namespace vit
