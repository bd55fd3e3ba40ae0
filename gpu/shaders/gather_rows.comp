#version 430
// gather_rows: y[r] = x[index[r]] for rows of `cols` values — the interventions'
// row moves: permuted patches (patch_embed row n = unpermuted row p[n]) and
// dropped tokens (the kept rows of cls + pos). Indices are stored as floats
// (exact below 2^24). Grid-stride loop over rows × cols.
layout(local_size_x = 256) in;

layout(std430, binding = 0) readonly buffer BufX { float X[]; };
layout(std430, binding = 1) readonly buffer BufIndex { float index_of[]; };
layout(std430, binding = 2) writeonly buffer BufY { float Y[]; };

uniform int rows;
uniform int cols;

void main() {
    const int total = rows * cols;
    const int stride = int(gl_NumWorkGroups.x * gl_WorkGroupSize.x);
    for (int i = int(gl_GlobalInvocationID.x); i < total; i += stride) {
        const int r = i / cols, c = i % cols;
        Y[i] = X[int(index_of[r]) * cols + c];
    }
}
