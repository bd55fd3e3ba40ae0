// What the page tests and the page benchmark share: Debian's Chromium, headless,
// driven by puppeteer-core (from build-web/npm), on the site served from
// localhost; the app's state read through its vitviz_view export; keys held as
// a person holds them (the app reads its input once a frame); the screen's
// pixels read back from a screenshot.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serve } from './serve.mjs';

export const kWidth = 1600, kHeight = 1000;

// Chromium as the page tests need it: no sandbox (CI runs as root), no network
// beyond localhost, WebGL 2 on SwiftShader (no GPU), a window of kWidth × kHeight.
export async function launch(build) {
  const require = createRequire(join(resolve(build), 'npm', 'node_modules', 'x.js'));
  const puppeteer = require('puppeteer-core');
  return puppeteer.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
           '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
           '--disable-quic', '--disable-dev-shm-usage', `--window-size=${kWidth},${kHeight}`],
  });
}

// The stand-in Hugging Face Hub (tests/hub/stand_in_hub.py) serving `repos` ({"ORG/NAME": folder}) on a
// free port, with its `flags` (['--huge']); resolves to { endpoint, stop }.
export function standInHub(source, repos, flags = []) {
  const args = [...flags, ...Object.entries(repos).map(([repo, folder]) => `${repo}=${folder}`)];
  const hub = spawn('python3', [join(source, 'tests', 'hub', 'stand_in_hub.py'), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((done, fail) => {
    hub.once('error', fail);
    hub.stdout.once('data', (line) => done({ endpoint: String(line).trim(), stop: () => hub.kill() }));
  });
}

// A new folder holding a timm ViT of random weights (tests/hub/random_vit.py with `args`: its shape).
export function randomVit(source, args = []) {
  const folder = mkdtempSync(join(tmpdir(), 'vitviz-random-vit-'));
  execFileSync('python3', [join(source, 'tests', 'hub', 'random_vit.py'), folder, ...args]);
  return folder;
}

// The built-in DINO lesson's model, timm/vit_small_patch16_224.dino, served by the stand-in Hub as
// random weights of its shape; resolves to { dino, endpoint, stop }.
export async function dinoLessonHub(source) {
  const dino = 'timm/vit_small_patch16_224.dino';
  return { dino, ...await standInHub(source, { [dino]: randomVit(source) }) };
}

// Serves `dir` on a free port; resolves to { server, url }.
export async function serveSite(dir) {
  const server = await serve(dir, 0);
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

// A new page that records console errors and uncaught exceptions in `problems`, in a window of
// `size` ({ width, height } in CSS pixels, kWidth × kHeight by default; hasTouch: a touch screen) at a
// device-pixel ratio of `scale`.
export async function openPage(browser, url, problems, scale = 1, size = { width: kWidth, height: kHeight }) {
  const page = await browser.newPage();
  await page.setViewport({ ...size, deviceScaleFactor: scale });
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(url, { waitUntil: 'load' });
  return page;
}

// The app's own account of the screen (App::view_summary); not ready while the page opens itself
// on another link (a Hub model's download).
export async function view(page) {
  try {
    return await page.evaluate(() => (window.Module && Module.calledRun
      ? JSON.parse(Module.ccall('vitviz_view', 'string', [], [])) : { ready: false }));
  } catch (e) {
    if (/context was destroyed|navigat/i.test(e.message)) return { ready: false };
    throw e;
  }
}

// Waits until `test(view)` holds (polled every 100 ms); throws naming `what` after `seconds`.
export async function waitFor(page, what, test, seconds = 60) {
  const end = Date.now() + seconds * 1000;
  let last;
  while (Date.now() < end) {
    last = await view(page);
    if (test(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`waited ${seconds} s for ${what}; the app shows ${JSON.stringify(last)}`);
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A key held ~80 ms, as a finger holds it.
export async function press(page, key, modifier) {
  if (modifier) await page.keyboard.down(modifier);
  await page.keyboard.down(key);
  await sleep(80);
  await page.keyboard.up(key);
  if (modifier) await page.keyboard.up(modifier);
  await sleep(150);
}

// The screen as RGBA pixels at CSS size: { width, height, data } (decoded by the page's own PNG decoder).
export async function pixels(page, path) {
  const png = await page.screenshot(path ? { path } : {});
  return page.evaluate(async (b64) => {
    const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d');
    context.drawImage(bitmap, 0, 0);
    const image = context.getImageData(0, 0, bitmap.width, bitmap.height);
    return { width: image.width, height: image.height, data: Array.from(image.data) };
  }, Buffer.from(png).toString('base64'));
}

// Distinct colours (quantised to 4 bits a channel) inside a rectangle of `image`.
export function colours(image, x0, y0, x1, y1) {
  const seen = new Set();
  for (let y = y0; y < y1; ++y)
    for (let x = x0; x < x1; ++x) {
      const i = 4 * (y * image.width + x);
      seen.add((image.data[i] >> 4) << 8 | (image.data[i + 1] >> 4) << 4 | image.data[i + 2] >> 4);
    }
  return seen.size;
}

// Pixels whose colour differs between two screens inside a rectangle.
export function changed(a, b, x0, y0, x1, y1) {
  let count = 0;
  for (let y = y0; y < y1; ++y)
    for (let x = x0; x < x1; ++x) {
      const i = 4 * (y * a.width + x);
      if (Math.abs(a.data[i] - b.data[i]) + Math.abs(a.data[i + 1] - b.data[i + 1]) + Math.abs(a.data[i + 2] - b.data[i + 2]) > 24) ++count;
    }
  return count;
}

// Whether pixel (x, y) of `image` has the selection's colour (255, 200, 0).
export function selection(image, x, y) {
  const i = 4 * (y * image.width + x);
  return image.data[i] > 230 && Math.abs(image.data[i + 1] - 200) < 25 && image.data[i + 2] < 40;
}

// The leftmost box drawn in the selection's colour: the selected patch's
// outline on the picture one clicks. { x0, y0, x1, y1 } in pixels, or null.
export function selectionBox(image) {
  const yellow = (x, y) => selection(image, x, y);
  let left = null;
  for (let x = 0; x < image.width && !left; ++x)
    for (let y = 0; y < image.height; ++y)
      if (yellow(x, y)) { left = { x, y }; break; }
  if (!left) return null;
  let y1 = left.y;
  while (y1 + 1 < image.height && yellow(left.x, y1 + 1)) ++y1;
  let x1 = left.x;
  while (x1 + 1 < image.width && yellow(x1 + 1, left.y)) ++x1;
  return { x0: left.x, y0: left.y, x1, y1 };
}

// The topmost run of at least `length` pixels along a row, from column `from` on, where
// `matches(image, x, y)` holds: { x0, x1, y } in pixels, or null.
export function firstRun(image, matches, length, from = 0) {
  for (let y = 0; y < image.height; ++y)
    for (let x = from, run = 0; x < image.width; ++x) {
      run = matches(image, x, y) ? run + 1 : 0;
      if (run >= length && (x + 1 === image.width || !matches(image, x + 1, y))) return { x0: x - run + 1, x1: x, y };
    }
  return null;
}

// Pure black, as the Draw panel's canvas is before any ink.
export function black(image, x, y) {
  const i = 4 * (y * image.width + x);
  return image.data[i] + image.data[i + 1] + image.data[i + 2] < 6;
}

// A stroke of the mouse through `points` ([x, y] in CSS pixels), the button held, a few
// frames at each point (the app reads the mouse once a frame).
export async function drag(page, points) {
  await page.mouse.move(...points[0]);
  await page.mouse.down();
  await sleep(200);
  for (const point of points.slice(1)) {
    await page.mouse.move(...point, { steps: 4 });
    await sleep(120);
  }
  await page.mouse.up();
  await sleep(150);
}
