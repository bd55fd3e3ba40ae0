// ONNX Runtime's side of the forward benchmark: times one 224×224 image through
// an ONNX model (tests/bench/torch_forward.py --onnx) with onnxruntime-node on the
// given number of threads (intraOpNumThreads; one inter-op thread). Prints one
// line: `ort_ms median=… min=… threads=…`, read by tests/bench/torch_timing.h.
//   node tests/bench/ort_forward.js MODULE_DIR MODEL.onnx THREADS RUNS
// MODULE_DIR: the node_modules folder holding onnxruntime-node (tools/install-deps.sh --ort).
const path = require("path");

async function main() {
    const [moduleDir, modelPath, threadsText, runsText] = process.argv.slice(2);
    const ort = require(path.join(path.resolve(moduleDir), "onnxruntime-node"));
    const threads = Number(threadsText), runs = Number(runsText);
    const session = await ort.InferenceSession.create(modelPath, {
        intraOpNumThreads: threads,
        interOpNumThreads: 1,
        executionMode: "sequential",
        graphOptimizationLevel: "all",
    });
    const pixels = new Float32Array(3 * 224 * 224).map((_, i) => ((i * 7919) % 1000) / 500 - 1);
    const feeds = {[session.inputNames[0]]: new ort.Tensor("float32", pixels, [1, 3, 224, 224])};
    await session.run(feeds);  // warm-up
    const times = [];
    for (let i = 0; i < runs; ++i) {
        const start = process.hrtime.bigint();
        await session.run(feeds);
        times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    times.sort((a, b) => a - b);
    const median = times.length % 2 ? times[(times.length - 1) / 2]
                                     : (times[times.length / 2 - 1] + times[times.length / 2]) / 2;
    console.log(`ort_ms median=${median.toFixed(3)} min=${times[0].toFixed(3)} threads=${threads}`);
}

main().catch((e) => {
    console.error(`ort_forward.js: ${e.message}`);
    process.exit(1);
});
