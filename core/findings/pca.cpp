// PCA and the patch colours made of it (see pca.h).
#include "findings/pca.h"

#include <Eigen/SVD>
#include <algorithm>
#include <string>
#include <utility>

#include "base/error.h"

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

// Colours of rows `rows` of `features` (their PCA, each component min-max scaled over
// those rows) written at their image's patch: row r is patch where[r].second of image where[r].first.
static void colour_rows(const Mat& features, const std::vector<int>& rows,
                        const std::vector<std::pair<int, int>>& where, std::vector<PatchColours>& out) {
    Mat chosen(static_cast<int>(rows.size()), features.cols());
    for (size_t r = 0; r < rows.size(); ++r) chosen.row(static_cast<int>(r)) = features.row(rows[r]);
    const Pca p = pca(chosen, 3);
    for (PatchColours& image : out) image.share = p.share;
    for (int c = 0; c < p.coords.cols(); ++c) {
        const Eigen::VectorXf v = min_max(p.coords, c);
        for (size_t r = 0; r < rows.size(); ++r) {
            const auto [image, patch] = where[rows[r]];
            out[image].rgb[3 * patch + c] = v(static_cast<int>(r));
        }
    }
    for (int r : rows) out[where[r].first].foreground[where[r].second] = 1;
}

std::vector<PatchColours> joint_patch_pca_colours(const std::vector<const Tensor*>& xs,
                                                  const std::vector<PatchTokens>& tokens, bool two_step,
                                                  float threshold) {
    if (xs.size() != tokens.size())
        throw Error("joint PCA: " + std::to_string(xs.size()) + " token stages but " + std::to_string(tokens.size()) +
                    " patch layouts");
    std::vector<PatchColours> out(xs.size());
    std::vector<std::pair<int, int>> where;  // each stacked patch row's image and patch
    for (size_t i = 0; i < xs.size(); ++i) {
        const size_t cells = static_cast<size_t>(tokens[i].grid) * tokens[i].grid;
        out[i].rgb.assign(3 * cells, 0.f);
        out[i].foreground.assign(cells, 0);
        for (int p : tokens[i].patches) where.emplace_back(static_cast<int>(i), p);
        if (xs[i]->cols() != xs[0]->cols())
            throw Error("joint PCA: token widths differ (" + shape_string(xs[0]->shape) + " and " +
                        shape_string(xs[i]->shape) + ")");
    }
    const int n = static_cast<int>(where.size());
    if (n < 2) return out;
    Mat features(n, xs[0]->cols());
    for (size_t i = 0, row = 0; i < xs.size(); row += tokens[i].patches.size(), ++i) {
        const int count = static_cast<int>(tokens[i].patches.size());
        features.middleRows(static_cast<int>(row), count) = xs[i]->mat().middleRows(tokens[i].prefix, count);
    }
    std::vector<int> rows;
    const Eigen::VectorXf first = two_step ? min_max(pca(features, 1).coords, 0) : Eigen::VectorXf();
    for (int i = 0; i < n; ++i)
        if (!two_step || first(i) >= threshold) rows.push_back(i);
    if (rows.size() >= 2) colour_rows(features, rows, where, out);
    return out;
}

PatchColours patch_pca_colours(const Tensor& x, const PatchTokens& tokens, bool two_step, float threshold) {
    return joint_patch_pca_colours({&x}, {tokens}, two_step, threshold).front();
}

Pca filter_components(const Model& model, int k) { return pca(model.patch_w, k); }

}  // namespace vit
