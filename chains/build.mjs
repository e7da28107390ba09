// Compiles the Sandbox's contracts with solc-js (the exact version in package.json) and writes what the Sandbox
// places on its local chains to build/contracts.json: per contract its ABI and its runtime bytecode. The output is
// committed; `node build.mjs --check` compiles again and fails when the committed file differs (run by
// `cargo xtask test`), so the bytecode always comes from these sources.
import { readFileSync, writeFileSync, mkdirSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const solc = require("solc");
const here = dirname(fileURLToPath(import.meta.url));
const sourcesDir = join(here, "contracts");
const outFile = join(here, "compiled", "contracts.json");

const sources = Object.fromEntries(
  readdirSync(sourcesDir)
    .filter((f) => f.endsWith(".sol"))
    .sort()
    .map((f) => [f, { content: readFileSync(join(sourcesDir, f), "utf8") }]),
);
const input = {
  language: "Solidity",
  sources,
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: "cancun",
    metadata: { bytecodeHash: "none", appendCBOR: false },
    outputSelection: { "*": { "*": ["abi", "evm.deployedBytecode.object"] } },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (output.errors ?? []).filter((e) => e.severity === "error");
if (errors.length > 0) {
  for (const e of errors) console.error(e.formattedMessage);
  process.exit(1);
}
const contracts = {};
for (const file of Object.keys(output.contracts).sort()) {
  for (const [name, c] of Object.entries(output.contracts[file])) {
    if (name.startsWith("IERC20") || name === "IHolder" || name === "IThief") continue;
    contracts[name] = { source: `contracts/${file}`, abi: c.abi, runtimeBytecode: `0x${c.evm.deployedBytecode.object}` };
  }
}
const text = `${JSON.stringify({ compiler: `solc-js ${solc.version()}`, settings: input.settings, contracts }, null, 2)}\n`;
if (process.argv.includes("--check")) {
  let committed = "";
  try {
    committed = readFileSync(outFile, "utf8");
  } catch {
    committed = "";
  }
  if (committed !== text) {
    console.error("chains/compiled/contracts.json is not what the sources compile to: run `npm run build` in chains/ and commit it.");
    process.exit(1);
  }
  console.log("chains/compiled/contracts.json matches its sources");
} else {
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, text);
  console.log(`wrote ${outFile}`);
}
