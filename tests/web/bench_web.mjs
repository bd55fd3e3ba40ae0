// The page benchmark (tools/web.sh --bench), in Debian's Chromium, headless:
//  - the full-trace ViT-Ti/16 pass (the core as WebAssembly, tests/web/bench_pass.cpp)
//    beside onnxruntime-web (npm) on the same architecture exported to ONNX by
//    tests/bench/torch_forward.py, one thread each, interleaved in the same page;
//  - the digits model's pass;
//  - the time from opening the app's page to its first picture (a local server);
//  - the site's size.
// Prints a table with each figure's goal.
//   node tests/web/bench_web.mjs [BUILD (default build-web)] [ROUNDS (default 7)]
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launch, serveSite, sleep, waitFor } from './page.mjs';

const build = resolve(process.argv[2] || 'build-web');
const rounds = Number(process.argv[3] || 7);
const source = resolve(new URL('../..', import.meta.url).pathname);
const bench = join(build, 'bench');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function folderBytes(dir) {
  return readdirSync(dir).reduce((sum, f) => {
    const p = join(dir, f);
    return sum + (statSync(p).isDirectory() ? folderBytes(p) : statSync(p).size);
  }, 0);
}

// The benchmark's page: the core's module and onnxruntime-web, nothing else.
function writeBenchPage() {
  const onnx = join(bench, 'vit-tiny.onnx');
  if (!existsSync(onnx))
    execFileSync('/usr/bin/python3', [join(source, 'tests/bench/torch_forward.py'), '--model', 'tiny', '--threads', '1',
                                      '--onnx', onnx], { stdio: 'inherit' });
  writeFileSync(join(bench, 'index.html'), `<!doctype html><meta charset="utf-8"><title>bench</title>
<script src="/npm/node_modules/onnxruntime-web/dist/ort.wasm.min.js"></script>
<script src="bench_pass.js"></script>`);
}

// Per round: the core's ViT-Ti passes, then onnxruntime-web's, each the median of `runs`.
async function passRows(browser, url) {
  const page = await browser.newPage();
  await page.goto(url + 'bench/index.html', { waitUntil: 'load' });
  return page.evaluate(async (rounds) => {
    ort.env.wasm.numThreads = 1;
    ort.env.wasm.wasmPaths = '/npm/node_modules/onnxruntime-web/dist/';
    const core = await VitvizBench();
    const session = await ort.InferenceSession.create('vit-tiny.onnx', { executionProviders: ['wasm'] });
    const pixels = new Float32Array(3 * 224 * 224).map((_, i) => ((i * 7919) % 1000) / 500 - 1);
    const feeds = { [session.inputNames[0]]: new ort.Tensor('float32', pixels, [1, 3, 224, 224]) };
    await session.run(feeds);  // warm-up
    const ortRun = async (runs) => {
      const times = [];
      for (let i = 0; i < runs; ++i) {
        const start = performance.now();
        await session.run(feeds);
        times.push(performance.now() - start);
      }
      return times.sort((a, b) => a - b)[runs >> 1];
    };
    const rows = { core: [], ort: [], digits: [] };
    for (let r = 0; r < rounds; ++r) {
      rows.core.push(core.ccall('bench_forward', 'number', ['string', 'number'], ['tiny', 5]));
      rows.ort.push(await ortRun(5));
      rows.digits.push(core.ccall('bench_forward', 'number', ['string', 'number'], ['digits', 20]));
    }
    return rows;
  }, rounds);
}

// Milliseconds from opening the app's page (no cache) to its first picture, per load.
async function firstPictures(browser, url, loads) {
  const times = [];
  for (let i = 0; i < loads; ++i) {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 1600, height: 1000 });
    await page.goto(url + 'site/index.html', { waitUntil: 'load' });
    await waitFor(page, 'the first picture', (v) => v.ready, 60);
    await sleep(200);
    times.push(await page.evaluate(() => window.vitvizFirstPicture));
    await context.close();
  }
  return times;
}

async function main() {
  writeBenchPage();
  const { server, url } = await serveSite(build);
  const browser = await launch(build);
  const rows = await passRows(browser, url);
  const first = await firstPictures(browser, url, 3);
  await browser.close();
  server.close();
  const core = median(rows.core), ortMs = median(rows.ort), digits = median(rows.digits), firstMs = median(first);
  const siteMB = folderBytes(join(build, 'site')) / 1e6;
  const mark = (ok) => (ok ? '✔' : '✘');
  console.log(`page benchmark, Chromium headless, one thread, ${rounds} interleaved rounds (medians)`);
  console.log('| what | ViT Visualizer | onnxruntime-web | ratio | goal |');
  console.log('|---|---|---|---|---|');
  console.log(`| ViT-Ti/16 pass (core: every stage kept) | ${core.toFixed(1)} ms | ${ortMs.toFixed(1)} ms | ` +
              `${(core / ortMs).toFixed(2)} | ≤ 1.0 ${mark(core <= ortMs)} |`);
  console.log(`| digits pass | ${digits.toFixed(2)} ms | | | < 2 ms ${mark(digits < 2)} |`);
  console.log(`| first picture from opening the page | ${firstMs.toFixed(0)} ms | | | < 3000 ms ${mark(firstMs < 3000)} |`);
  console.log(`| site size | ${siteMB.toFixed(1)} MB | | | < 20 MB ${mark(siteMB < 20)} |`);
  console.log(`rounds: core ${rows.core.map((x) => x.toFixed(1)).join(' ')}; ort ${rows.ort.map((x) => x.toFixed(1)).join(' ')}; ` +
              `first pictures ${first.map((x) => x.toFixed(0)).join(' ')} ms`);
}

main().catch((e) => {
  console.error(`bench_web.mjs: ${e.stack || e.message}`);
  process.exit(1);
});
