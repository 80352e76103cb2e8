// Run the Khronos glTF-Validator on one file and print its verdict and counts as JSON.
// Needs `npm install --prefix bench gltf-validator` (a development reference, never a dependency).
import { createRequire } from "node:module";
import { readFile } from "node:fs/promises";
import path from "node:path";

const require = createRequire(import.meta.url);
const validator = require("gltf-validator");
const file = process.argv[2];
const bytes = new Uint8Array(await readFile(file));
const report = await validator.validateBytes(bytes, {
  uri: path.basename(file),
  maxIssues: 0,
  externalResourceFunction: async (uri) =>
    new Uint8Array(await readFile(path.resolve(path.dirname(file), decodeURIComponent(uri)))),
});
console.log(JSON.stringify({
  errors: report.issues.numErrors,
  codes: [...new Set(report.issues.messages.filter((m) => m.severity === 0).map((m) => m.code))],
  vertexCount: report.info?.totalVertexCount,
  triangleCount: report.info?.totalTriangleCount,
  materialCount: report.info?.materialCount,
  animationCount: report.info?.animationCount,
}));
