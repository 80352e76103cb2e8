// Khronos glTF-Validator's validateBytes over many files in one warm Node.js process.
//   node bench/khronos_loop.mjs LIST PASSES
// LIST is a text file of paths, one a line. One untimed pass warms the process up; then each of
// PASSES passes validates every file once, and the seconds of each pass are printed as JSON.
// Relative resources are read beside each file, as in khronos_validate.mjs.
import { createRequire } from "node:module";
import { readFile } from "node:fs/promises";
import path from "node:path";

const require = createRequire(import.meta.url);
const validator = require("gltf-validator");
const files = (await readFile(process.argv[2], "utf8")).split("\n").filter(Boolean);
const passes = Number(process.argv[3] || 3);

async function validate(file) {
  const bytes = new Uint8Array(await readFile(file));
  try {
    return await validator.validateBytes(bytes, {
      uri: path.basename(file),
      maxIssues: 0,
      externalResourceFunction: async (uri) =>
        new Uint8Array(await readFile(path.resolve(path.dirname(file), decodeURIComponent(uri)))),
    });
  } catch (error) {
    return null; // a file the validator cannot take counts its time all the same
  }
}

async function pass() {
  const started = performance.now();
  for (const file of files) await validate(file);
  return (performance.now() - started) / 1000;
}

await pass();
const seconds = [];
for (let i = 0; i < passes; i++) seconds.push(await pass());
console.log(JSON.stringify({ version: validator.version(), seconds }));
