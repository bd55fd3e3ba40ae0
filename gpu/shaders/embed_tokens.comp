#version 430
// embed_tokens: prepend the CLS token and add the positional embedding.
//   cls[0] = cls_token, cls[t] = patch_embed[t − 1]      (stage `cls`, T×D)
//   tokens = cls + pos, or cls without positions (add_pos 0; stage `tokens`, T×D)
// pos is the model's (1 + g²)×D table, or its bicubic resampling to the input's
// grid (computed on the CPU by the core's resample_pos_embed and uploaded).
layout(local_size_x = 256) in;

layout(std430, binding = 0) readonly buffer BufEmbed { float patch_embed[]; };
layout(std430, binding = 1) readonly buffer BufCls { float cls_token[]; };
layout(std430, binding = 2) readonly buffer BufPos { float pos[]; };
layout(std430, binding = 3) writeonly buffer BufClsOut { float cls_out[]; };
layout(std430, binding = 4) writeonly buffer BufTokens { float tokens[]; };

uniform int T;
uniform int D;
uniform int add_pos;

void main() {
    const int total = T * D;
    const int stride = int(gl_NumWorkGroups.x * gl_WorkGroupSize.x);
    for (int i = int(gl_GlobalInvocationID.x); i < total; i += stride) {
        const int t = i / D, d = i % D;
        const float v = t == 0 ? cls_token[d] : patch_embed[i - D];
        cls_out[i] = v;
        tokens[i] = add_pos != 0 ? v + pos[i] : v;
    }
}
