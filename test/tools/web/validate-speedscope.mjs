// Validates speedscope JSON files against the file-format schema that the
// speedscope npm package ships (dist/release/file-format-schema.json), with
// ajv. Usage: node validate-speedscope.mjs FILE...  Exit 1 on any error.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
const Ajv = require("ajv");
const schemaPath = join(dirname(require.resolve("speedscope/package.json")), "dist/release/file-format-schema.json");
const schema = JSON.parse(readFileSync(schemaPath, "utf8"));
const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile(schema);

let failed = 0;
for (const file of process.argv.slice(2)) {
  const doc = JSON.parse(readFileSync(file, "utf8"));
  if (!validate(doc)) {
    failed++;
    console.log(`${file}: INVALID`);
    for (const e of validate.errors) console.log(`  ${e.instancePath || "/"} ${e.message}`);
    continue;
  }
  // The schema cannot say that frame indexes are in range and that
  // samples and weights pair up; speedscope's importer relies on both.
  const nFrames = doc.shared.frames.length;
  for (const p of doc.profiles) {
    if (p.type === "sampled") {
      if (p.samples.length !== p.weights.length) { failed++; console.log(`${file}: ${p.name}: ${p.samples.length} samples but ${p.weights.length} weights`); }
      for (const s of p.samples) for (const f of s) if (f < 0 || f >= nFrames) { failed++; console.log(`${file}: ${p.name}: frame ${f} out of range`); }
      const sum = p.weights.reduce((a, b) => a + b, 0);
      if (sum !== p.endValue - p.startValue) { failed++; console.log(`${file}: ${p.name}: weights sum to ${sum}, endValue-startValue is ${p.endValue - p.startValue}`); }
    }
  }
  console.log(`${file}: valid (${doc.profiles.length} profiles, ${nFrames} frames)`);
}
process.exit(failed ? 1 : 0);
