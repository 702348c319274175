// Drives a spinel-prof flamegraph page in headless Chromium (Debian's
// /usr/bin/chromium through playwright-core) and fails on any console error
// or page error.
//
//   node check-flamegraph.mjs app PAGE SCREENSHOT   the interactions, on a page
//                                                   made from test/tools/Inputs/app.sprof
//   node check-flamegraph.mjs load PAGE [SCREENSHOT] load, print title and first paint
//   node check-flamegraph.mjs timeline PAGE [SCREENSHOT] the timeline strip, on a page
//                                                   made from test/tools/Inputs/phases.sprof
//
// SPINELPROF_DEVICE_SCALE (default 1) is the screen's device pixel ratio.
// Prints "ok: ..." lines for FileCheck; exits 1 on the first failed check.
import { chromium } from "playwright-core";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [mode, pagePath, screenshot] = process.argv.slice(2);
if (!mode || !pagePath) {
  console.error("usage: check-flamegraph.mjs app|load|timeline PAGE [SCREENSHOT]");
  process.exit(2);
}

const deviceScale = Number(process.env.SPINELPROF_DEVICE_SCALE || 1);
const userDataDir = mkdtempSync(join(tmpdir(), "spinelprof-chromium-"));
const errors = [];
let context;
function fail(message) {
  throw new Error(message);
}
function expectEqual(what, actual, expected) {
  if (JSON.stringify(actual) !== JSON.stringify(expected))
    fail(`${what}: got ${JSON.stringify(actual)}, want ${JSON.stringify(expected)}`);
  console.log(`ok: ${what}: ${JSON.stringify(actual)}`);
}

try {
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.SPINELPROF_CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run"],
    viewport: { width: 1200, height: 800 },
    deviceScaleFactor: deviceScale,
  });
  const page = context.pages()[0] || (await context.newPage());
  page.on("console", (msg) => { if (msg.type() === "error") errors.push("console: " + msg.text()); });
  page.on("pageerror", (err) => errors.push("page error: " + err.message));
  page.on("request", (req) => { if (!req.url().startsWith("file:") && !req.url().startsWith("data:")) errors.push("network request: " + req.url()); });

  const start = Date.now();
  await page.goto(pathToFileURL(resolve(pagePath)).href);
  await page.waitForSelector("html[data-ready='1']", { timeout: 60000 });
  const firstPaint = await page.evaluate(() => window.spinelprofFirstPaint);
  console.log(`title: ${await page.title()}`);
  const phases = await page.evaluate(() => {
    const m = (n) => { const e = performance.getEntriesByName(n)[0]; return e ? e.startTime.toFixed(0) : "-"; };
    const nav = performance.getEntriesByType("navigation")[0];
    return { html: nav.responseEnd.toFixed(0), script: m("spinelprof-script"), parsed: m("spinelprof-parsed"),
             summary: m("spinelprof-summary"), decoded: m("spinelprof-decoded"), timeline: m("spinelprof-timeline"), self: m("spinelprof-self"),
             built: m("spinelprof-built"), drawn: m("spinelprof-drawn"), nodes: window.spinelprof.tree().n,
             firstPaint: window.spinelprofFirstPaint, ready: window.spinelprofReady };
  });
  console.log(`phases (ms): html loaded ${phases.html}, script starts ${phases.script}, JSON parsed ${phases.parsed}, ` +
              `summary drawn ${phases.summary}, whole tree decoded ${phases.decoded}, timeline decoded ${phases.timeline}, self ${phases.self}, ` +
              `tree built ${phases.built} (${phases.nodes} nodes), drawn ${phases.drawn}`);
  console.log(`first paint: ${phases.firstPaint.toFixed(0)} ms after navigation start; ` +
              `whole tree interactive: ${phases.ready.toFixed(0)} ms (wall ${Date.now() - start} ms)`);
  if (errors.length) fail(errors.join("\n"));

  const status = () => page.textContent("#status");
  console.log(`status: ${await status()}`);
  const strip = await page.evaluate(() => {
    const t = window.spinelprof.timeline();
    return { hidden: document.getElementById("timeline").hidden, rows: t ? t.drawnRows : 0 };
  });
  console.log(strip.hidden ? "timeline: none" : `timeline: ${strip.rows} rows`);
  const clickFrame = async (name) => {
    const box = await page.evaluate((n) => window.spinelprof.boxOf(n), name);
    if (!box) fail(`no box named ${name} is drawn`);
    await page.mouse.click(box.x, box.y);
    return box;
  };

  if (mode === "app") {
    // Tooltip: hover shows name, samples, shares, C name and location.
    let box = await page.evaluate(() => window.spinelprof.boxOf("Geo::Vec#+"));
    await page.mouse.move(box.x, box.y);
    const tip = await page.textContent("#tooltip");
    for (const part of ["Geo::Vec#+", "samples55", "of total55.00%", "of parent63.95%", "C namesp_Geo_Vec__plus", "defined atapp.rb:3", "kinduser"])
      if (!tip.includes(part)) fail(`tooltip ${JSON.stringify(tip)} lacks ${JSON.stringify(part)}`);
    console.log("ok: tooltip: " + tip);

    // Boxes are painted where they are laid out, in device pixels: 1 CSS px
    // inside a box's left edge (left of its label) is not the background.
    const painted = await page.evaluate((names) => {
      const c = document.getElementById("canvas"), r = c.getBoundingClientRect();
      const k = c.width / r.width, g = c.getContext("2d");
      const background = names.filter((n) => {
        const b = window.spinelprof.boxOf(n);
        const p = g.getImageData(Math.floor((b.x - b.w / 2 - r.left + 1) * k), Math.floor((b.y - r.top) * k), 1, 1).data;
        return p[0] === 255 && p[1] === 255 && p[2] === 255;
      });
      return { ratio: Math.round(k * 100) / 100, background };
    }, ["all samples", "Object#run", "Geo::Vec#+", "sp_str_concat"]);
    expectEqual("painted at the device ratio", painted, { ratio: deviceScale, background: [] });

    // Legend: one entry per kind present, and the search colour.
    expectEqual("legend", await page.textContent("#legend"), "Ruby methodblockruntimeGCsyntheticsearch match");

    // Click to zoom: Object#run fills the width; its caller stays drawn.
    await clickFrame("Object#run");
    expectEqual("zoom status", (await status()).split(".")[0], "Zoomed to Object#run (86");
    expectEqual("zoom node", await page.evaluate(() => { const s = window.spinelprof.state; return window.spinelprof.tree().total[s.zoom]; }), 86);
    const wide = await page.evaluate(() => window.spinelprof.boxOf("Geo::Vec#+").w);
    if (!(wide > box.w * 1.1)) fail(`zoom did not widen Geo::Vec#+ (${box.w} -> ${wide})`);
    console.log("ok: zoom widened Geo::Vec#+");
    await page.click("#reset");
    expectEqual("reset", await page.evaluate(() => window.spinelprof.state.zoom), 0);

    // Search: highlight count and share of samples.
    await page.fill("#search", "^sp_");
    await page.press("#search", "Enter");
    expectEqual("search text", await page.textContent("#match"), "2 functions, 2 frames highlighted \u2014 30.00% of samples");
    expectEqual("search count", await page.getAttribute("#match", "data-count"), "2");
    expectEqual("search share", await page.getAttribute("#match", "data-share"), "30.00%");
    await page.fill("#search", "");
    await page.press("#search", "Enter");

    // Callers view of the selected frame.
    await clickFrame("sp_str_concat");
    await page.click("#callers");
    expectEqual("callers status", (await status()).split(" \u2014 ")[0], "Callers of sp_str_concat");
    expectEqual("callers tree", await page.evaluate(() => { const t = window.spinelprof.tree(); return [t.total[0], t.n]; }), [30, 3]);
    expectEqual("caller cost", await page.evaluate(() => window.spinelprof.costs("Object#run")), [{ self: 0, total: 30 }]);
    await page.click("#callers");
    expectEqual("back from callers", await page.evaluate(() => window.spinelprof.state.callersOf), -1);

    // Runtime folding: sp_str_concat's self time moves into Object#run,
    // the GC frame it called becomes [GC], now under Object#run.
    expectEqual("before folding", await page.evaluate(() => window.spinelprof.costs("Object#run")), [{ self: 0, total: 86 }]);
    await page.check("#fold");
    expectEqual("folded runtime frame", await page.evaluate(() => window.spinelprof.costs("sp_str_concat")), []);
    expectEqual("folded into caller", await page.evaluate(() => window.spinelprof.costs("Object#run")), [{ self: 20, total: 86 }]);
    expectEqual("gc as [GC]", await page.evaluate(() => window.spinelprof.costs("[GC]")), [{ self: 10, total: 10 }]);
    expectEqual("gc frame renamed", await page.evaluate(() => window.spinelprof.costs("sp_gc_collect")), []);
    await page.uncheck("#fold");

    // Thread selector.
    await page.selectOption("#thread", { label: "4243 worker" });
    expectEqual("worker thread", await page.evaluate(() => window.spinelprof.tree().total[0]), 5);
    await page.selectOption("#thread", { label: "all threads" });

    // Icicle: the root moves to the top row.
    await page.check("#icicle");
    const rootBox = await page.evaluate(() => window.spinelprof.boxOf("all samples"));
    const canvasTop = await page.evaluate(() => document.getElementById("canvas").getBoundingClientRect().top);
    expectEqual("icicle root row", Math.round(rootBox.y - canvasTop), 9);
    await page.uncheck("#icicle");
  }
  if (mode === "timeline") await checkTimeline(page, status, clickFrame);
  if (screenshot) {
    await page.screenshot({ path: screenshot, fullPage: true });
    console.log("ok: screenshot");
  }
  if (errors.length) fail(errors.join("\n"));
  console.log("ok: no console errors");
} catch (e) {
  console.log("FAIL: " + (e && e.message ? e.message : e));
  process.exitCode = 1;
} finally {
  if (context) await context.close();
  rmSync(userDataDir, { recursive: true, force: true });
}

// The strip on phases.sprof: thread 7001 runs Object#write_log for the first
// second and Object#analyse for the second (8 samples each); 7002 runs
// Reporter#tick at 0.25, 0.75, 1.25 and 1.75 s.
async function checkTimeline(page, status, clickFrame) {
  const sp = (f, arg) => page.evaluate(f, arg);
  const timeline = () => sp(() => window.spinelprof.timeline());
  const total = (name) => sp((n) => window.spinelprof.costs(n).reduce((a, c) => a + c.total, 0), name);
  const t = await timeline();
  expectEqual("strip rows", t.rows, ["7001 main", "7002 reporter"]);
  expectEqual("rows drawn", t.drawnRows, 2);
  if (!(t.height >= 2 * 30)) fail(`strip is ${t.height} px high for two rows`);
  expectEqual("whole profile", [await total("Object#write_log"), await total("Object#analyse")], [8, 8]);

  // Drag across the first half of the run (0.0 s to 0.95 s) on the main row.
  const drag = async (from, to) => {
    const a = await sp(([s, r]) => window.spinelprof.timelinePoint(s, r), [from, 0]);
    const b = await sp(([s, r]) => window.spinelprof.timelinePoint(s, r), [to, 0]);
    await page.mouse.move(a.x, a.y);
    await page.mouse.down();
    await page.mouse.move((a.x + b.x) / 2, a.y, { steps: 3 });
    await page.mouse.move(b.x, b.y, { steps: 3 });
    await page.mouse.up();
  };
  await drag(0.0, 0.95);
  const r = (await timeline()).range;
  if (!r || !(r[0] < 0.01 && Math.abs(r[1] - 0.95) < 0.01)) fail(`selected range ${JSON.stringify(r)}, want about [0, 0.95]`);
  console.log(`ok: range shown: ${await page.getAttribute("#range", "data-range")}`);
  expectEqual("first half write_log", await total("Object#write_log"), 8);
  expectEqual("first half analyse", await total("Object#analyse"), 0);
  expectEqual("first half reporter", await total("Reporter#tick"), 2);
  expectEqual("first half status", (await status()).split(" \u2014 ")[0].replace(/[0-9.]+ s - [0-9.]+ s/, "RANGE"), "10 samples in RANGE");
  expectEqual("clear enabled", await page.isEnabled("#clear-range"), true);

  // Search, zoom and threads work on the range.
  await page.fill("#search", "write_log");
  await page.press("#search", "Enter");
  expectEqual("search in range", await page.textContent("#match"), "1 function, 1 frame highlighted \u2014 80.00% of samples");
  await page.fill("#search", "");
  await page.press("#search", "Enter");
  await clickFrame("Object#write_log");
  expectEqual("zoom in range", (await status()).split(".")[0], "Zoomed to Object#write_log (80");
  await page.click("#reset");
  await page.selectOption("#thread", { label: "7002 reporter" });
  expectEqual("reporter in range", await sp(() => window.spinelprof.tree().total[0]), 2);
  await page.selectOption("#thread", { label: "all threads" });

  // The button clears the range: the whole profile again.
  await page.click("#clear-range");
  expectEqual("cleared range", (await timeline()).range, null);
  expectEqual("cleared", [await total("Object#write_log"), await total("Object#analyse")], [8, 8]);
  expectEqual("clear disabled", await page.isEnabled("#clear-range"), false);

  // The second half, then Escape.
  await drag(1.0, 2.0);
  expectEqual("second half", [await total("Object#write_log"), await total("Object#analyse")], [0, 8]);
  await page.keyboard.press("Escape");
  expectEqual("escape clears", [(await timeline()).range, await total("Object#write_log"), await total("Object#analyse")], [null, 8, 8]);

  // Keyboard: the focused strip's arrows step a tenth of the run (0.2 s).
  await page.focus("#timeline-canvas");
  await page.keyboard.press("ArrowRight");
  expectEqual("key range", (await timeline()).range, [0, 0.2]);
  expectEqual("key range write_log", await total("Object#write_log"), 2);
  await page.keyboard.press("ArrowRight");
  expectEqual("next tenth", (await timeline()).range, [0.2, 0.4]);
  await page.keyboard.press("Escape");
  expectEqual("escape after keys", (await timeline()).range, null);
}
