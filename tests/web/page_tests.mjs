// The page's tests (tools/web.sh --test): the site in build-web/site served from
// localhost and driven in Debian's Chromium, headless, as a student drives it —
// its link opens a stage and a lesson, keys step the stages, a click picks a
// patch or a cell to explain, the mouse draws a digit, R opens the lesson
// editor, a PNG from the computer opens, a download arrives — each checked on
// the app's own account of the screen and on the screen's pixels, with no
// console error anywhere. Screenshots go to build-web/page-shots/ to be looked at.
//   node tests/web/page_tests.mjs [BUILD (default build-web)] [WORDS: only the tests whose name holds them]
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync,
         writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { black, changed, colours, drag, firstRun, kWidth, kHeight, launch, openPage, pixels, press, selection, selectionBox, serveSite, sleep,
         dinoLessonHub, randomVit, standInHub, view, waitFor } from './page.mjs';

const build = resolve(process.argv[2] || 'build-web');
const only = process.argv[3] || '';
const shots = join(build, 'page-shots');
const source = resolve(new URL('../..', import.meta.url).pathname);
mkdirSync(shots, { recursive: true });

const tests = [];
const test = (name, body) => name.includes(only) && tests.push({ name, body });

test('the plain link opens digits on its sample, names the stage in the title and follows the view', async (t) => {
  const page = await t.open('');
  const v = await waitFor(page, 'the first pass', (v) => v.ready);
  assert.equal(v.model, 'digits');
  assert.equal(await page.title(), 'input · digits · ViT Visualizer');
  const screen = await pixels(page, join(shots, 'start.png'));
  assert.ok(colours(screen, 300, 100, 1300, 900) > 20, 'the picture area holds a picture, not a blank');
  await press(page, 'ArrowRight');
  const next = await waitFor(page, 'the next stage', (v) => v.stage === 'patches');
  assert.equal(await page.title(), 'patches · digits · ViT Visualizer');
  assert.match(page.url(), /[?&]stage=patches/);
  assert.equal(next.link, new URL(page.url()).search);
});

test('?model=digits&stage=block0.attn opens that stage', async (t) => {
  const page = await t.open('?model=digits&stage=block0.attn');
  await waitFor(page, 'block0.attn', (v) => v.ready && v.stage === 'block0.attn');
  assert.equal(await page.title(), 'block0.attn · digits · ViT Visualizer');
  await pixels(page, join(shots, 'block0-attn.png'));
});

for (const scale of [1, 2]) {
  test(`clicking a patch selects its token and the attention maps show its row (${scale} device pixels a pixel)`, async (t) => {
    const page = await t.open('?model=digits&screen=attention&layer=3&token=5', { scale });
    await waitFor(page, 'the attention screen', (v) => v.ready && v.token === 5);
    await sleep(500);
    const before = await pixels(page, join(shots, `attention-token5-x${scale}.png`));
    assert.equal(before.width, 1600 * scale, 'the canvas is drawn at the device pixels');
    const box = selectionBox(before);
    assert.ok(box, 'the selected patch is outlined in the selection colour');
    const side = box.x1 - box.x0;  // patch 4 (row 1, column 0) of 4 × 4: click row 2, column 2 = patch 10 = token 11
    await page.mouse.click((box.x0 + 2.5 * side) / scale, (box.y0 + 1.5 * side) / scale);
    const v = await waitFor(page, 'token 11 selected', (v) => v.token === 11, 20);
    assert.match(v.link, /[?&]token=11/);
    await sleep(500);
    const after = await pixels(page, join(shots, `attention-token11-x${scale}.png`));
    const maps = changed(before, after, box.x1 + side, box.y0 - side, 1300 * scale, box.y0 + 8 * side);
    assert.ok(maps > 500 * scale * scale, `the head maps beside it changed (${maps} pixels) to token 11's attention row`);
  });
}

test('?lesson=what-attention-looks-at plays the lesson, and the title and link follow its steps', async (t) => {
  const page = await t.open('?lesson=what-attention-looks-at');
  await waitFor(page, 'the lesson', (v) => v.ready);
  await sleep(1000);
  const title = await page.title();
  const steps = Number((title.match(/step 1\/(\d+)$/) || [])[1]);
  assert.ok(steps > 1, `the title names the step: '${title}'`);
  await pixels(page, join(shots, 'lesson-step1.png'));
  await press(page, 'ArrowRight');  // step 1 asks a question: the first press shows its answer (predict, then see)
  await sleep(500);
  assert.match(await page.title(), new RegExp(`step 1/${steps}$`));
  await pixels(page, join(shots, 'lesson-step1-answer.png'));
  await press(page, 'ArrowRight');
  await sleep(1500);
  assert.match(await page.title(), new RegExp(`step 2/${steps}$`));
  assert.match(page.url(), /lesson=what-attention-looks-at&step=2/);
  await pixels(page, join(shots, 'lesson-step2.png'));
  const reopened = await t.open('?lesson=what-attention-looks-at&step=3');
  await waitFor(reopened, 'step 3', (v) => v.ready);
  await sleep(1500);
  assert.match(await reopened.title(), new RegExp(`step 3/${steps}$`));
});

test("a PNG from the student's computer opens through the browser's file chooser", async (t) => {
  const page = await t.open('');
  await waitFor(page, 'the first pass', (v) => v.ready);
  const [chooser] = await Promise.all([page.waitForFileChooser(), page.evaluate(() => vitvizChoose('image'))]);
  await chooser.accept([join(source, 'tests', 'fixtures', 'digits_sample', 'image.png')]);
  const v = await waitFor(page, 'the chosen picture', (v) => v.image === 'image.png', 30);
  assert.ok(v.top_probability > 0 && v.top_probability <= 1, 'a prediction');
  await pixels(page, join(shots, 'opened-png.png'));
});

test("a model's files chosen together open as a model", async (t) => {
  const page = await t.open('');
  await waitFor(page, 'the first pass', (v) => v.ready);
  const folder = join(source, 'tests', 'fixtures', 'hf_dinov2');
  const [chooser] = await Promise.all([page.waitForFileChooser(), page.evaluate(() => vitvizChoose('model'))]);
  await chooser.accept(['model.safetensors', 'config.json', 'preprocessor_config.json'].map((f) => join(folder, f)));
  const v = await waitFor(page, 'the chosen model', (v) => v.ready && v.model.startsWith('/uploads/'), 60);
  await pixels(page, join(shots, 'opened-model.png'));
});

test('a question in the link (mask two patches) reruns the pass and the banner says so', async (t) => {
  const plain = await waitFor(await t.open('?model=digits'), 'the plain pass', (v) => v.ready);
  const page = await t.open('?model=digits&mask_patches=5,6,9,10&stage=probs');
  const v = await waitFor(page, 'the asked pass', (v) => v.ready && v.modified !== '', 30);
  assert.match(v.modified, /MODIFIED PASS: 4 patches masked/);
  assert.notEqual(v.top_probability, plain.top_probability, 'masking changed the answer');
  await pixels(page, join(shots, 'asked-mask.png'));
});

test('training runs in the page, in slices between frames, and the page stays live', async (t) => {
  const page = await t.open('?lesson=watching-it-learn&step=4');
  await waitFor(page, 'the lesson', (v) => v.ready);
  const frames = await page.evaluate(() => new Promise((done) => {
    let count = 0;
    const tick = () => { ++count; requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
    setTimeout(() => done(count), 3000);
  }));
  assert.ok(frames >= 6, `the page drew ${frames} frames in 3 s while training`);
  const v = await waitFor(page, 'the run to reach its stop', (v) => v.train_step >= 100, 240);
  assert.equal(v.train_step, 100, 'the step stops where it says');
  await pixels(page, join(shots, 'training-step100.png'));
});

test('on a touch screen a tap picks a cell, two fingers spreading enlarge a head, a swipe steps the lesson',
     async (t) => {
  const touch = { width: kWidth, height: kHeight, hasTouch: true };
  const page = await t.open('?model=digits&stage=block0.attn', { size: touch });
  await waitFor(page, 'block0.attn', (v) => v.ready && v.stage === 'block0.attn' && v.cell === null);
  await sleep(500);
  const row = firstRun(await pixels(page), selection, 100);
  assert.ok(row, "the selected row is outlined across the first head's map");
  const side = (row.x1 - row.x0) / 17;
  await page.touchscreen.tap((row.x0 + row.x1) / 2 + 2 * side, row.y + 5.5 * side);  // row 5, key token 10
  assert.deepEqual((await waitFor(page, 'the tapped cell', (v) => v.cell !== null, 10)).cell, [5, 10]);

  const attention = await t.open('?model=digits&screen=attention', { size: touch });
  await waitFor(attention, 'the attention screen', (v) => v.ready);
  await sleep(500);
  const before = await pixels(attention);
  const client = await attention.createCDPSession();  // two fingers: puppeteer's touchscreen has one
  const fingers = (type, gap) => client.send('Input.dispatchTouchEvent', {
    type, touchPoints: type === 'touchEnd' ? [] : [{ x: 700 - gap, y: 400, id: 0 }, { x: 700 + gap, y: 400, id: 1 }] });
  await fingers('touchStart', 20);
  for (const gap of [40, 60, 80]) await fingers('touchMove', gap);
  await fingers('touchEnd', 0);
  await sleep(800);
  const enlarged = await pixels(attention, join(shots, 'touch-pinch.png'));
  assert.ok(changed(before, enlarged, 0, 100, 1600, 950) > 50000, 'the head under the fingers fills the view');
  assert.match((await view(attention)).link, /[?&]head=\d/, 'the link names the enlarged head');

  const lesson = await t.open('?lesson=what-attention-looks-at', { size: touch });
  await waitFor(lesson, 'the lesson', (v) => v.ready);
  await sleep(800);
  for (let i = 0; i < 2; ++i) {  // the first swipe reveals the answer, the second steps
    await lesson.touchscreen.touchStart(900, 500);
    await lesson.touchscreen.touchMove(750, 505);
    await lesson.touchscreen.touchMove(600, 510);
    await lesson.touchscreen.touchEnd();
    await sleep(300);
  }
  await waitFor(lesson, 'step 2', (v) => /[?&]step=2(&|$)/.test(v.link), 10);
});

test('P turns presenter mode on, and the view keeps its stage', async (t) => {
  const page = await t.open('?model=digits&stage=block2.attn');
  await waitFor(page, 'block2.attn', (v) => v.ready && v.stage === 'block2.attn');
  const before = await pixels(page);
  await press(page, 'p');
  await sleep(800);
  const after = await pixels(page, join(shots, 'presenter.png'));
  assert.ok(changed(before, after, 0, 0, 1600, 1000) > 20000, 'the presenter layout replaced the normal one');
  assert.equal((await view(page)).stage, 'block2.attn');
});

test("a WebP dropped on the page is decoded by the browser's own decoders", async (t) => {
  const page = await t.open('');
  await waitFor(page, 'the first pass', (v) => v.ready);
  await page.evaluate(async () => {  // a 28 × 28 white 7 on black, as WebP (a format the app's own decoder lacks)
    const canvas = new OffscreenCanvas(28, 28);
    const c = canvas.getContext('2d');
    c.fillStyle = 'black';
    c.fillRect(0, 0, 28, 28);
    c.strokeStyle = 'white';
    c.lineWidth = 3;
    c.beginPath();
    c.moveTo(6, 6);
    c.lineTo(22, 6);
    c.lineTo(12, 24);
    c.stroke();
    const file = new File([await canvas.convertToBlob({ type: 'image/webp' })], 'seven.webp', { type: 'image/webp' });
    const drop = new DataTransfer();
    drop.items.add(file);
    Module.canvas.dispatchEvent(new DragEvent('drop', { dataTransfer: drop, bubbles: true, cancelable: true }));
  });
  const v = await waitFor(page, 'the dropped WebP', (v) => v.image === 'seven.webp', 30);
  assert.ok(v.top_class >= 0 && v.top_probability > 0, 'the model answers on it');
  await pixels(page, join(shots, 'dropped-webp.png'));
});

test('every screen opens from its link with a picture, and the backward walk shows gradients', async (t) => {
  const page = await t.open('?model=digits');
  await waitFor(page, 'the first pass', (v) => v.ready);
  for (const query of ['screen=why', 'screen=model-view', 'screen=overview', 'screen=attention-distance',
                       'screen=patch-pca', 'screen=token-norms', 'screen=cls-masks', 'stage=block1.attn&gradients=true']) {
    await page.goto(`${page.url().split('?')[0]}?model=digits&${query}`, { waitUntil: 'load' });
    const v = await waitFor(page, query, (v) => v.ready, 60);
    await sleep(1500);
    for (const part of query.split('&')) assert.ok(v.link.includes(part) || (await view(page)).link.includes(part), `the link keeps ${part}`);
    const name = query.replace(/[^a-z0-9.]+/g, '-');
    const screen = await pixels(page, join(shots, `screen-${name}.png`));
    assert.ok(colours(screen, 300, 100, 1300, 900) > 20, `${query}: the picture area holds a picture`);
  }
});

test('Export PNG (Ctrl+S) arrives as a download', async (t) => {
  const page = await t.open('?model=digits&stage=block1.attn');
  await waitFor(page, 'block1.attn', (v) => v.ready && v.stage === 'block1.attn');
  const folder = mkdtempSync(join(tmpdir(), 'vitviz-download-'));
  const cdp = await page.createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: folder });
  await press(page, 's', 'Control');
  let files = [];
  for (let i = 0; i < 100 && !files.some((f) => f.endsWith('.png')); ++i) {
    await sleep(100);
    files = readdirSync(folder);
  }
  const png = files.find((f) => f.endsWith('.png'));
  assert.ok(png, `a PNG was downloaded (found: ${files.join(', ') || 'nothing'})`);
  assert.deepEqual([...readFileSync(join(folder, png)).subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
});

test('a link the app cannot read is one message, and the app opens beside it', async (t) => {
  const page = await t.open('?model=nonsense&token=banana', { expectProblems: true });
  const v = await waitFor(page, 'the default model', (v) => v.ready);
  assert.equal(v.model, 'digits');
  await pixels(page, join(shots, 'bad-link.png'));
});

test('a digit drawn with the mouse on the Draw canvas reruns the pass on the drawing', async (t) => {
  const page = await t.open('');
  const sample = await waitFor(page, 'the first pass', (v) => v.ready);
  await page.mouse.click(405, 47);  // the toolbar's "Draw a digit" checkbox (its second row at 1600 × 1000)
  await waitFor(page, 'the Draw panel', (v) => v.drawing, 10);
  await sleep(500);
  const before = await pixels(page);
  const top = firstRun(before, black, 200, 1100);  // the canvas: the topmost black square in the side column
  assert.ok(top, 'the Draw panel shows its canvas');
  const canvas = { x0: top.x0, y0: top.y, x1: top.x1, y1: top.y + top.x1 - top.x0 };
  const at = (u, v) => [canvas.x0 + u * (canvas.x1 - canvas.x0), canvas.y0 + v * (canvas.y1 - canvas.y0)];
  await drag(page, [at(0.25, 0.2), at(0.5, 0.2), at(0.75, 0.2), at(0.65, 0.45), at(0.55, 0.65), at(0.45, 0.85)]);  // a 7
  const v = await waitFor(page, 'the pass on the drawing', (v) => v.image === 'drawn digit', 30);
  await sleep(500);
  assert.ok(v.drawing, 'the Draw panel stays open');
  assert.notEqual(v.top_class, sample.top_class, "the answer is no longer the sample's");
  assert.equal(v.top_class, 7, 'the model reads the stroke as a 7');
  const after = await pixels(page, join(shots, 'drawn-digit.png'));
  const ink = changed(before, after, canvas.x0, canvas.y0, canvas.x1, canvas.y1);
  assert.ok(ink > 2000, `the stroke is inked on the canvas (${ink} pixels)`);
  const seen = changed(before, after, canvas.x0, canvas.y1, 1600, canvas.y1 + 200);
  assert.ok(seen > 500, `the 28 × 28 image the model sees and its prediction appear under the canvas (${seen} pixels)`);
});

test('R opens the lesson editor in the side column, and R closes it', async (t) => {
  const page = await t.open('?model=digits');
  await waitFor(page, 'the first pass', (v) => v.ready && !v.editor);
  await sleep(500);
  const before = await pixels(page);
  await press(page, 'r');
  await waitFor(page, 'the lesson editor', (v) => v.editor, 10);
  await sleep(500);
  const open = await pixels(page, join(shots, 'lesson-editor.png'));
  const side = changed(before, open, 1250, 60, 1600, 960);
  assert.ok(side > 20000, `the side column shows the editor (${side} pixels changed)`);
  await press(page, 'r');
  await waitFor(page, 'the editor closed', (v) => !v.editor, 10);
  await sleep(500);
  const closed = await pixels(page);
  const left = changed(before, closed, 1250, 60, 1600, 960);
  assert.ok(left < 500, `the side column is back as it was (${left} pixels differ)`);
});

test('a click on a cell of block0.attn shows where its number comes from', async (t) => {
  const page = await t.open('?model=digits&stage=block0.attn');
  await waitFor(page, 'block0.attn', (v) => v.ready && v.stage === 'block0.attn' && v.cell === null);
  await sleep(500);
  const before = await pixels(page);
  // The CLS row outlined across head 0's map of 17 × 17 square cells (digits' tokens).
  const row = firstRun(before, selection, 100);
  assert.ok(row, "the selected row is outlined across the first head's map");
  let bottom = row.y;
  while (selection(before, row.x0, bottom + 1)) ++bottom;
  const side = (row.x1 - row.x0) / 17;
  await page.mouse.click((row.x0 + row.x1) / 2 + 2 * side, (row.y + bottom) / 2 + 5 * side);  // row 5, key token 10
  const v = await waitFor(page, 'the explained cell', (v) => v.cell !== null, 10);
  assert.deepEqual(v.cell, [5, 10]);
  await sleep(500);
  const after = await pixels(page, join(shots, 'cell-provenance.png'));
  const panel = changed(before, after, 1250, 60, 1600, 960);
  assert.ok(panel > 5000, `the side panel shows the cell's inputs and arithmetic (${panel} pixels changed)`);
});

test('?model=hf-hub: downloads from the Hub, and a reload with the Hub stopped opens it from the browser cache',
     async (t) => {
  const hub = await standInHub(source, { 'test/dinov2-reg': join(source, 'tests', 'fixtures', 'hf_dinov2_reg') });
  const query = `?model=hf-hub:test/dinov2-reg&hub=${encodeURIComponent(hub.endpoint)}`;
  let first, link;
  try {
    const page = await t.open(query);
    first = await waitFor(page, 'the downloaded model', (v) => v.ready);
    await pixels(page, join(shots, 'hub-model.png'));
    link = page.url();
  } finally {
    hub.stop();
  }
  assert.equal(first.model, 'hf-hub:test/dinov2-reg');
  assert.match(link, /[?&]hub=/, 'the link the page shows keeps the Hub endpoint');
  // With the Hub gone the fetches fail (the console says so): the page opens what Cache Storage kept.
  const again = await t.open(query, { expectProblems: true });
  const cached = await waitFor(again, 'the model from the browser cache', (v) => v.ready);
  assert.equal(cached.model, 'hf-hub:test/dinov2-reg');
  assert.equal(cached.top_class, first.top_class);
  assert.equal(cached.top_probability, first.top_probability);
});

test("a model chosen from the Open window's Hub gallery opens the page on its link, which downloads it", async (t) => {
  const tiny = 'timm/vit_tiny_patch16_224.augreg_in21k_ft_in1k';  // served with a small checkpoint's files
  const hub = await standInHub(source, { [tiny]: join(source, 'tests', 'fixtures', 'hf_bf16') });
  try {
    const page = await t.open(`?model=digits&hub=${encodeURIComponent(hub.endpoint)}`);
    await waitFor(page, 'digits', (v) => v.ready && v.model === 'digits');
    await page.mouse.click(190, 20);  // the toolbar's "Open model…"
    await sleep(1000);
    await page.mouse.click(450, 630);  // the gallery's first Hub row, ViT-Ti/16 (at 1600 × 1000)
    const v = await waitFor(page, 'the gallery model', (v) => v.ready && v.model === `hf-hub:${tiny}`);
    assert.equal(v.model, `hf-hub:${tiny}`);
    assert.match(page.url(), /[?&]hub=/);
  } finally {
    hub.stop();
  }
});

test('a repository the Hub does not have is one message naming it, and the app opens beside it', async (t) => {
  const hub = await standInHub(source, {});
  try {
    const page = await t.open(`?model=hf-hub:test/missing&hub=${encodeURIComponent(hub.endpoint)}`, { expectProblems: true });
    const v = await waitFor(page, 'the fallback model', (v) => v.ready);
    assert.equal(v.model, 'toy-4x4', 'a failed first model gives way to the one that needs no file');
    const said = await page.evaluate(() => FS.readFile('/hub/test/missing/main.error', { encoding: 'utf8' }));
    assert.equal(said, 'hf-hub:test/missing: config.json: not found (404): no such repository, revision or file on the Hub');
    await pixels(page, join(shots, 'hub-missing.png'));
  } finally {
    hub.stop();
  }
});

test('a lesson on a Hub model fetches it and plays; with the model out of reach its digits lesson plays instead',
     async (t) => {
  const hub = await dinoLessonHub(source), dino = hub.dino;
  try {  // (timm repositories have no preprocessor_config.json: the browser logs its 404)
    const page = await t.open(`?lesson=what-attention-looks-at-dino&hub=${encodeURIComponent(hub.endpoint)}`,
                              { expectProblems: true });
    await waitFor(page, 'the lesson on its Hub model', (v) => v.ready && v.model === `hf-hub:${dino}`, 120);
    await sleep(1000);
    assert.match(await page.title(), /step 1\/6$/);
    assert.match(page.url(), /[?&]lesson=what-attention-looks-at-dino/);
    await pixels(page, join(shots, 'lesson-dino-step1.png'));
    await press(page, 'ArrowRight');
    await press(page, 'ArrowRight');
    await sleep(1500);
    assert.match(await page.title(), /step 2\/6$/);
    await pixels(page, join(shots, 'lesson-dino-step2.png'));
  } finally {
    hub.stop();
  }
  const empty = await standInHub(source, {});
  try {
    const page = await t.open(`?lesson=what-attention-looks-at-dino&hub=${encodeURIComponent(empty.endpoint)}`,
                              { expectProblems: true });
    await waitFor(page, 'the digits lesson instead', (v) => v.ready && v.model === 'digits', 120);
    await sleep(1000);
    assert.match(await page.title(), /step 1\/12$/);
    await pixels(page, join(shots, 'lesson-dino-instead.png'));
  } finally {
    empty.stop();
  }
});

// A Hugging Face cache as huggingface_hub writes it: `files` (name: path) as blobs, linked from
// snapshots/COMMIT/, refs/main naming COMMIT.
function huggingFaceCache(repo, files) {
  const cache = mkdtempSync(join(tmpdir(), 'vitviz-hf-cache-'));
  const folder = join(cache, `models--${repo.replace('/', '--')}`);
  const commit = 'c0ffee'.padEnd(40, '0');
  mkdirSync(join(folder, 'blobs'), { recursive: true });
  mkdirSync(join(folder, 'refs'));
  mkdirSync(join(folder, 'snapshots', commit), { recursive: true });
  writeFileSync(join(folder, 'refs', 'main'), commit);
  for (const [name, path] of Object.entries(files)) {
    copyFileSync(path, join(folder, 'blobs', name + '.blob'));
    symlinkSync(join('..', '..', 'blobs', name + '.blob'), join(folder, 'snapshots', commit, name));
  }
  return cache;
}

test('a DINOv2 ViT-S/14 with registers at 518 px and a ViT-B/16 at 224 px open in the page', async (t) => {
  const models = {  // random weights of their shapes (tests/hub/random_vit.py), timm's layout
    'test/dinov2-s14-reg4-518': { args: ['--dim', '384', '--heads', '6', '--patch', '14', '--size', '518', '--reg', '4'],
                                  tokens: 37 * 37 + 5 },
    'test/vit-b16-224': { args: ['--dim', '768', '--heads', '12'], tokens: 14 * 14 + 1 },
  };
  const repos = {};
  for (const [name, m] of Object.entries(models)) repos[name] = randomVit(source, m.args);
  const hub = await standInHub(source, repos);
  try {  // (timm repositories have no preprocessor_config.json: the browser logs its 404)
    for (const [name, m] of Object.entries(models)) {
      const page = await t.open(`?model=hf-hub:${name}&stage=block0.attn&hub=${encodeURIComponent(hub.endpoint)}`,
                                { expectProblems: true });
      const v = await waitFor(page, name, (v) => v.ready && v.model === `hf-hub:${name}`, 240);
      assert.equal(v.token_count, m.tokens);
      await sleep(1000);
      await pixels(page, join(shots, `large-${name.split('/')[1]}.png`));
    }
  } finally {
    hub.stop();
  }
});

test('a site built with a model from the Hugging Face cache opens it with no Hub (tools/web_bundle.sh)', async (t) => {
  const fixture = join(source, 'tests', 'fixtures', 'hf_dinov2_reg');
  const cache = huggingFaceCache('test/bundled', { 'config.json': join(fixture, 'config.json'),
    'model.safetensors': join(fixture, 'model.safetensors'),
    'preprocessor_config.json': join(fixture, 'preprocessor_config.json') });
  const site = mkdtempSync(join(tmpdir(), 'vitviz-site-'));
  cpSync(join(build, 'site'), site, { recursive: true });
  execFileSync('bash', [join(source, 'tools', 'web_bundle.sh'), site, 'hf-hub:test/bundled'],
               { env: { ...process.env, HF_HUB_CACHE: cache }, stdio: 'inherit' });
  const { server, url } = await serveSite(site);
  try {
    // The Hub named in the link is a port nothing listens on: the model can only come from the site.
    const page = await t.open('?model=hf-hub:test/bundled&hub=http%3A%2F%2F127.0.0.1%3A9', { at: url });
    const v = await waitFor(page, 'the model the site holds', (v) => v.ready);
    assert.equal(v.model, 'hf-hub:test/bundled');
    await pixels(page, join(shots, 'hub-bundled.png'));
  } finally {
    server.close();
  }
});

test('weights too large for a browser tab are refused before they come, in one line naming the size', async (t) => {
  const hub = await standInHub(source, { 'test/huge': join(source, 'tests', 'fixtures', 'timm_f32') }, ['--huge']);
  try {
    const page = await t.open(`?model=hf-hub:test/huge&hub=${encodeURIComponent(hub.endpoint)}`, { expectProblems: true });
    const v = await waitFor(page, 'the fallback model', (v) => v.ready);
    assert.equal(v.model, 'toy-4x4');
    const said = await page.evaluate(() => FS.readFile('/hub/test/huge/main.error', { encoding: 'utf8' }));
    assert.equal(said, 'hf-hub:test/huge: model.safetensors is 1300.0 MB: a browser tab holds at most 4 GB, ' +
                       'about three times 1200.0 MB of weights; open it in the desktop app');
  } finally {
    hub.stop();
  }
});

// Runs every test on its own page; a console error on a page fails its test.
async function main() {
  const { server, url } = await serveSite(join(build, 'site'));
  const browser = await launch(build);
  let failed = 0;
  for (const { name, body } of tests) {
    const problems = [];
    const pages = [];
    const t = {
      open: async (query, options = {}) => {
        const page = await openPage(browser, (options.at || url) + query, options.expectProblems ? [] : problems,
                                    options.scale, options.size);
        pages.push(page);
        return page;
      },
    };
    try {
      await body(t);
      assert.deepEqual(problems, [], 'no console errors');
      console.log(`ok - ${name}`);
    } catch (e) {
      ++failed;
      console.log(`not ok - ${name}\n    ${e.message.split('\n').join('\n    ')}`);
    }
    for (const page of pages) await page.close();
  }
  await browser.close();
  server.close();
  console.log(`page tests: ${tests.length - failed} of ${tests.length} passed; screenshots in ${shots}`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(`page_tests.mjs: ${e.stack || e.message}`);
  process.exit(1);
});
