// The page at a student's window sizes (tools/web.sh --test): the first steps of
// every built-in lesson at 1600 × 1000, then at 1366 × 768, 1280 × 800 and
// 1024 × 768 (Chromebooks, tablets) and at 1600 × 1000 with a device-pixel ratio
// of 2, each step read from the app's own account of the screen
// (App::view_summary): a size fails when a step's pictures cover less than 0.75 ×
// their share of the window at 1600 × 1000, or when the app cut any text at the
// edge of a panel that does not scroll. Screenshots go to build-web/page-shots/sizes/.
//   node tests/web/page_sizes.mjs [BUILD (default build-web)] [WORDS: only the lessons whose name holds them]
//                                 [--every-step: all the steps of each lesson, to look at]
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { dinoLessonHub, kHeight, kWidth, launch, openPage, press, serveSite, sleep, view, waitFor }
  from './page.mjs';

const [buildArg, only = ''] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const build = resolve(buildArg || 'build-web');
const everyStep = process.argv.includes('--every-step');
const shots = join(build, 'page-shots', 'sizes');
const source = resolve(new URL('../..', import.meta.url).pathname);
mkdirSync(shots, { recursive: true });

const kFirstSteps = 3;     // the steps of each lesson played, unless --every-step
const kLeastShare = 0.75;  // of the step's picture share at 1600 × 1000
const reference = { name: '1600x1000', width: kWidth, height: kHeight, scale: 1 };
const sizes = [
  { name: '1366x768', width: 1366, height: 768, scale: 1 },
  { name: '1280x800', width: 1280, height: 800, scale: 1 },
  { name: '1024x768', width: 1024, height: 768, scale: 1 },
  { name: '1600x1000-dpr2', width: kWidth, height: kHeight, scale: 2 },
];
const lessons = readdirSync(join(source, 'assets', 'lessons')).filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''));

// How many steps the built-in `lesson` has.
function lessonSteps(lesson) {
  return JSON.parse(readFileSync(join(source, 'assets', 'lessons', `${lesson}.json`), 'utf8')).steps.length;
}

// The steps of `lesson`, each seen at every size of `group` (the page resized in place, so the
// lesson loads once): { [size name]: [{ step, share, clipped }] }, screenshots saved.
async function playLesson(browser, url, hub, lesson, group, problems) {
  const query = `?lesson=${lesson}${hub ? `&hub=${encodeURIComponent(hub)}` : ''}`;
  const page = await openPage(browser, url + query, problems, group[0].scale, group[0]);
  const seen = Object.fromEntries(group.map((size) => [size.name, []]));
  try {
    const steps = everyStep ? lessonSteps(lesson) : kFirstSteps;
    for (let step = 1; step <= steps; ++step) {
      await waitFor(page, `${lesson} step ${step}`,
                    (v) => v.ready && (step === 1 || new RegExp(`[?&]step=${step}(&|$)`).test(v.link)), 120);
      for (const size of group) {
        await page.setViewport({ width: size.width, height: size.height, deviceScaleFactor: size.scale });
        await sleep(800);  // the step's transition, the new layout and its pictures' textures
        const v = await view(page);
        seen[size.name].push({ step, share: v.picture_share, clipped: v.clipped });
        await page.screenshot({ path: join(shots, `${lesson}-step${step}-${size.name}.png`) });
      }
      if (step < steps) {
        await press(page, 'ArrowRight');  // the answer, when the step asks a question
        if (!new RegExp(`[?&]step=${step + 1}(&|$)`).test((await view(page)).link)) await press(page, 'ArrowRight');
      }
    }
    return seen;
  } finally {
    await page.close();
  }
}

// What fails at `size` against the reference's steps: one line each.
function faults(size, lesson, steps, referenceSteps) {
  const lines = [];
  for (const s of steps) {
    const r = referenceSteps.find((x) => x.step === s.step);
    const area = (size.width * size.height) / (kWidth * kHeight);
    if (r && s.share < kLeastShare * r.share)
      lines.push(`${lesson} step ${s.step} at ${size.name}: pictures cover ${(100 * s.share).toFixed(1)}% ` +
                 `of the window, ${(100 * r.share).toFixed(1)}% at 1600x1000 (least ${kLeastShare}×; ` +
                 `window ${(100 * area).toFixed(0)}% as large)`);
    for (const c of s.clipped) lines.push(`${lesson} step ${s.step} at ${size.name}: ${c}`);
  }
  return lines;
}

async function main() {
  const { server, url } = await serveSite(join(build, 'site'));
  const browser = await launch(build);
  const hub = await dinoLessonHub(source);
  const failures = [];
  const table = [];
  try {
    for (const lesson of lessons.filter((l) => !only || l.includes(only))) {
      const problems = [];  // a timm repository has no preprocessor_config.json: the browser logs its 404
      const hubFor = lesson.endsWith('-dino') ? hub.endpoint : '';
      // The sizes at a pixel ratio of 1 share a page; the ratio of 2 loads its own (fonts are sampled at load).
      const seen = { ...await playLesson(browser, url, hubFor, lesson, [reference, ...sizes.filter((s) => s.scale === 1)],
                                         problems),
                     ...await playLesson(browser, url, hubFor, lesson, sizes.filter((s) => s.scale !== 1), problems) };
      const base = seen[reference.name];
      failures.push(...faults(reference, lesson, base, base));
      for (const size of sizes) {
        failures.push(...faults(size, lesson, seen[size.name], base));
        for (const s of seen[size.name]) {
          const r = base.find((x) => x.step === s.step);
          table.push(`| ${lesson} | ${s.step} | ${size.name} | ${(100 * r.share).toFixed(1)}% | ` +
                     `${(100 * s.share).toFixed(1)}% | ${(s.share / r.share).toFixed(2)} | ${s.clipped.length} |`);
        }
      }
      if (!hubFor) failures.push(...problems.map((p) => `${lesson}: ${p}`));
    }
  } finally {
    hub.stop();
    await browser.close();
    server.close();
  }
  console.log('| lesson | step | window | pictures at 1600x1000 | pictures here | ratio | clipped texts |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of table) console.log(row);
  for (const f of failures) console.log(`not ok - ${f}`);
  console.log(`page sizes: ${failures.length ? `${failures.length} faults` : 'every step fits'}; screenshots in ${shots}`);
  process.exit(failures.length ? 1 : 0);
}

main().catch((e) => {
  console.error(`page_sizes.mjs: ${e.stack || e.message}`);
  process.exit(1);
});
