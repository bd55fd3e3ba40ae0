#version 430
// residual_add: y = a + b, elementwise over n values — the residual connections
// res1 = x + attn_out and out = res1 + mlp_out. Grid-stride loop, any n.
layout(local_size_x = 256) in;

layout(std430, binding = 0) readonly buffer BufA { float A[]; };
layout(std430, binding = 1) readonly buffer BufB { float B[]; };
layout(std430, binding = 2) writeonly buffer BufY { float Y[]; };

uniform int n;

void main() {
    const int stride = int(gl_NumWorkGroups.x * gl_WorkGroupSize.x);
    for (int i = int(gl_GlobalInvocationID.x); i < n; i += stride) Y[i] = A[i] + B[i];
}
