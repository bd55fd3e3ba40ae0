#version 430
// patch_extract (im2col): patches[p][(c·P + y)·P + x] = input[c][gy·P + y][gx·P + x]
// for patch p = gy·grid_w + gx in raster order — the N×(C·P·P) matrix whose
// product with the Conv2d weight (flattened in (c, y, x) order) is the stride-P
// convolution of timm's PatchEmbed. input: C×height×width. One thread per value.
layout(local_size_x = 256) in;

layout(std430, binding = 0) readonly buffer BufIn { float image[]; };
layout(std430, binding = 1) writeonly buffer BufOut { float patches[]; };

uniform int channels;
uniform int height;
uniform int width;
uniform int patch_size;

void main() {
    const int P = patch_size;
    const int grid_w = width / P;
    const int count = (height / P) * grid_w;
    const int row_len = channels * P * P;
    const int total = count * row_len;
    const int stride = int(gl_NumWorkGroups.x * gl_WorkGroupSize.x);
    for (int i = int(gl_GlobalInvocationID.x); i < total; i += stride) {
        const int p = i / row_len, col = i % row_len;
        const int c = col / (P * P), y = (col / P) % P, x = col % P;
        const int gy = p / grid_w, gx = p % grid_w;
        patches[i] = image[(c * height + gy * P + y) * width + gx * P + x];
    }
}
