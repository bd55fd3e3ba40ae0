// PCA and the patch colours made of it (see pca.h).
#include "findings/pca.h"

#include <Eigen/SVD>
#include <algorithm>

namespace vit {

Pca pca(const Mat& samples, int k) {
    using MatD = Eigen::MatrixXd;
    MatD x = samples.cast<double>();
    x.rowwise() -= x.colwise().mean();
    Pca out;
    k = std::min<int>(k, static_cast<int>(std::min(x.rows(), x.cols())));
    if (k <= 0) return out;
    Eigen::BDCSVD<MatD> svd(x, Eigen::ComputeThinV);
    MatD v = svd.matrixV().leftCols(k);
    MatD z = x * v;
    const double total = svd.singularValues().squaredNorm();
    for (int c = 0; c < k; ++c) {
        Eigen::Index at = 0;
        z.col(c).cwiseAbs().maxCoeff(&at);
        if (z(at, c) < 0) z.col(c) *= -1.0, v.col(c) *= -1.0;
        const double s = svd.singularValues()(c);
        out.share.push_back(total > 0 ? static_cast<float>(s * s / total) : 0.f);
    }
    out.components = v.transpose().cast<float>();
    out.coords = z.cast<float>();
    return out;
}

// Column c of `coords` scaled to 0…1 over its rows.
static Eigen::VectorXf min_max(const Mat& coords, int c) {
    Eigen::VectorXf col = coords.col(c);
    const float lo = col.minCoeff(), hi = col.maxCoeff();
    return hi > lo ? Eigen::VectorXf((col.array() - lo) / (hi - lo)) : Eigen::VectorXf::Zero(col.size());
}

// Colours of rows `rows` of `features` (its PCA) written at their patches.
static void colour_rows(const Mat& features, const std::vector<int>& rows, const PatchTokens& tokens,
                        PatchColours& out) {
    Mat chosen(static_cast<int>(rows.size()), features.cols());
    for (size_t r = 0; r < rows.size(); ++r) chosen.row(static_cast<int>(r)) = features.row(rows[r]);
    const Pca p = pca(chosen, 3);
    out.share = p.share;
    for (int c = 0; c < p.coords.cols(); ++c) {
        const Eigen::VectorXf v = min_max(p.coords, c);
        for (size_t r = 0; r < rows.size(); ++r) out.rgb[3 * tokens.patches[rows[r]] + c] = v(static_cast<int>(r));
    }
    for (int r : rows) out.foreground[tokens.patches[r]] = 1;
}

PatchColours patch_pca_colours(const Tensor& x, const PatchTokens& tokens, bool two_step, float threshold) {
    const int n = static_cast<int>(tokens.patches.size()), cells = tokens.grid * tokens.grid;
    PatchColours out;
    out.rgb.assign(3 * static_cast<size_t>(cells), 0.f);
    out.foreground.assign(cells, 0);
    if (n < 2) return out;
    const Mat features = x.mat().middleRows(tokens.prefix, n);
    std::vector<int> rows;
    if (two_step) {
        const Eigen::VectorXf first = min_max(pca(features, 1).coords, 0);
        for (int i = 0; i < n; ++i)
            if (first(i) >= threshold) rows.push_back(i);
    } else {
        for (int i = 0; i < n; ++i) rows.push_back(i);
    }
    if (rows.size() >= 2) colour_rows(features, rows, tokens, out);
    return out;
}

Pca filter_components(const Model& model, int k) { return pca(model.patch_w, k); }

}  // namespace vit
