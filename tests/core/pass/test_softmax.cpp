// softmax_rows (layers.h) against a softmax in double precision, at every row
// length that reaches an edge of its 16-float sweeps (shorter than one, whole
// sweeps, a masked tail), written elsewhere or in place, with sharp rows whose
// scores span ±40 and rows holding −∞ (a weight of 0, or, by Eigen's SSE exp
// in a build without AVX-512, below 1e-30).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "pass/layers.h"

namespace {

// softmax of each row of x, in double precision
Eigen::MatrixXd reference_softmax(const vit::Mat& x) {
    Eigen::MatrixXd y = x.cast<double>();
    for (Eigen::Index r = 0; r < y.rows(); ++r) {
        y.row(r) = (y.row(r).array() - y.row(r).maxCoeff()).exp();
        y.row(r) /= y.row(r).sum();
    }
    return y;
}

}  // namespace

TEST_CASE("softmax_rows matches a double-precision softmax at every row length, in place too", "[layers]") {
    for (int cols : {1, 2, 15, 16, 17, 31, 32, 33, 64, 197})
        for (float spread : {1.0f, 40.0f})
            for (bool in_place : {false, true}) {
                vit::Mat x = vit::Mat::Random(5, cols) * spread;
                if (cols > 1) x(4, 0) = -std::numeric_limits<float>::infinity();
                const Eigen::MatrixXd want = reference_softmax(x);
                vit::Mat y = vit::Mat::Constant(5, cols, std::nanf(""));
                if (in_place) {
                    y = x;
                    vit::softmax_rows(y, vit::MatMap(y.data(), 5, cols));
                } else {
                    vit::softmax_rows(x, vit::MatMap(y.data(), 5, cols));
                }
                INFO(cols << " columns, scores within ±" << spread << (in_place ? ", in place" : ""));
                const double worst = (y.cast<double>() - want).cwiseAbs().maxCoeff<Eigen::PropagateNaN>();
                CHECK(worst <= 1e-6);
                if (cols > 1) CHECK(y(4, 0) < 1e-30f);
                for (Eigen::Index r = 0; r < 5; ++r) CHECK(y.row(r).cast<double>().sum() == Approx(1.0).epsilon(1e-6));
            }
}
