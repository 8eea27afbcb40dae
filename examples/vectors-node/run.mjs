// Run five35's conformance vectors against a 535 engine with Node's built-in test runner
// (node:test, Node 18 or newer; no npm packages).
//
//   535-check vectors --out vectors                      # write the suite (index.json + NNN-*.json)
//   FIVE35_VECTORS=vectors FIVE35_ENGINE="535-check serve" node --test examples/vectors-node/run.mjs
//   FIVE35_VECTORS=vectors FIVE35_ENGINE="node my-engine.js" node --test examples/vectors-node/run.mjs
//
// Each vector is one test: its conversation's requests are sent in order and every answer is
// compared with the expected response by the suite's rules (index.json "compare"): id, type and ok
// equal; for an error only error.code; a legal answer's moves as a set; everything else equal as a
// JSON value, with no other field. A first test checks that the engine's hello declares the rules
// the suite was written for.
//
// The engine here is a separate program spoken to over JSON Lines (stdin/stdout), as 535-check
// does. An engine written in JavaScript can skip the pipe: replace `connect()` by an object whose
// `send(request)` returns (a promise of) the engine's answer, e.g. `{ send: (r) => engine.handle(r) }`.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import path from "node:path";

const DIR = process.env.FIVE35_VECTORS ?? "vectors";
const COMMAND = process.env.FIVE35_ENGINE ?? "535-check serve";
const TIMEOUT_MS = Number(process.env.FIVE35_TIMEOUT_MS ?? 10000);

const index = JSON.parse(readFileSync(path.join(DIR, "index.json"), "utf8"));
if (index.format !== "five35-vectors/1") {
  throw new Error(`${path.join(DIR, "index.json")}: format ${JSON.stringify(index.format)}, expected five35-vectors/1`);
}

// ---- the engine: one long-lived process, one JSON line per request and per answer ------------

function connect(command) {
  const child = spawn(command, { shell: true, stdio: ["pipe", "pipe", "inherit"] });
  const waiting = [];
  let exited = null;
  const lines = createInterface({ input: child.stdout });
  lines.on("line", (line) => {
    const next = waiting.shift();
    if (next) next.resolve(line);
  });
  child.stdin.on("error", () => {}); // a dead engine's pipe: its exit is reported below
  child.on("exit", (code, signal) => {
    exited = `the engine exited (${signal ?? `exit code ${code}`})`;
    for (const next of waiting.splice(0)) next.reject(new Error(exited));
  });
  return {
    send(request) {
      return new Promise((resolve, reject) => {
        if (exited) return reject(new Error(exited));
        const timer = setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
        waiting.push({
          resolve: (line) => {
            clearTimeout(timer);
            try { resolve(JSON.parse(line)); } catch (err) { reject(new Error(`not JSON: ${line.slice(0, 200)}`)); }
          },
          reject: (err) => { clearTimeout(timer); reject(err); },
        });
        child.stdin.write(JSON.stringify(request) + "\n");
      });
    },
    close() {
      if (exited) return;
      child.stdin.end(JSON.stringify({ id: 0, type: "quit" }) + "\n");
      setTimeout(() => child.kill(), 2000).unref();
    },
  };
}

// ---- comparing an answer with the expected response --------------------------------------------

// JSON text with sorted keys: two values are equal as JSON exactly when these strings are.
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

// Why `answer` does not match `expected`, or null.
function mismatch(expected, answer) {
  if (answer === null || typeof answer !== "object" || Array.isArray(answer)) return `expected an object, got ${canonical(answer)}`;
  for (const key of ["id", "type", "ok"]) {
    if (answer[key] !== expected[key]) return `${key}: expected ${canonical(expected[key])}, got ${canonical(answer[key])}`;
  }
  const extra = Object.keys(answer).filter((k) => !(k in expected)).sort();
  if (extra.length) return `unknown field(s) ${extra.join(", ")}`;
  if (expected.ok === false) {
    const error = answer.error;
    if (error === null || typeof error !== "object" || Object.keys(error).some((k) => k !== "code" && k !== "message")) {
      return `error: expected an object of code and message, got ${canonical(error)}`;
    }
    return error.code === expected.error.code ? null : `error.code: expected ${expected.error.code}, got ${canonical(error.code)}`;
  }
  for (const key of Object.keys(expected).sort()) {
    if (!(key in answer)) return `${key}: missing`;
    if (key === "moves" && expected.type === "legal") {
      if (!Array.isArray(answer.moves)) return `moves: expected a list, got ${canonical(answer.moves)}`;
      const theirs = new Set(answer.moves.map(canonical));
      if (theirs.size !== answer.moves.length) return "moves: a move is listed twice";
      const ours = new Set(expected.moves.map(canonical));
      const lacks = [...ours].filter((m) => !theirs.has(m));
      const adds = [...theirs].filter((m) => !ours.has(m));
      if (lacks.length || adds.length) return `moves: the engine lacks [${lacks.join(" ")}], adds [${adds.join(" ")}]`;
      continue;
    }
    if (canonical(answer[key]) !== canonical(expected[key])) {
      return `${key}: expected ${canonical(expected[key])}, got ${canonical(answer[key])}`;
    }
  }
  return null;
}

// ---- the tests ---------------------------------------------------------------------------------

let engine;
before(() => { engine = connect(COMMAND); });
after(() => engine.close());

test("hello declares the rules of the suite", async () => {
  const hello = await engine.send({ id: 1, type: "hello", protocol: index.protocol });
  assert.equal(hello.ok, true, `hello was refused: ${canonical(hello)}`);
  const skip = new Set(index.not_observable);
  for (const [point, reading] of Object.entries(index.rules.readings)) {
    if (!skip.has(point)) assert.equal(hello.readings?.[point], reading, `readings.${point}`);
  }
  for (const [name, value] of Object.entries(index.rules.parameters)) {
    assert.equal(canonical(hello.parameters?.[name]), canonical(value), `parameters.${name}`);
  }
});

for (const entry of index.vectors) {
  test(`${entry.file}: ${entry.title}`, async () => {
    const vector = JSON.parse(readFileSync(path.join(DIR, entry.file), "utf8"));
    for (const { request, response } of vector.conversation) {
      const why = mismatch(response, await engine.send(request));
      assert.equal(why, null, `request ${request.id} (${request.type}): ${why}`);
    }
  });
}
