#version 430
// scale_columns: x[r, c] *= scale[c] in place over rows × cols — silencing
// heads: scale is 0 on an ablated head's Dh columns of `context`, 1 elsewhere.
layout(local_size_x = 256) in;

layout(std430, binding = 0) buffer BufX { float X[]; };
layout(std430, binding = 1) readonly buffer BufScale { float scale[]; };

uniform int rows;
uniform int cols;

void main() {
    const int total = rows * cols;
    const int stride = int(gl_NumWorkGroups.x * gl_WorkGroupSize.x);
    for (int i = int(gl_GlobalInvocationID.x); i < total; i += stride) X[i] *= scale[i % cols];
}
