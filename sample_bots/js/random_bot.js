#!/usr/bin/env node
// A bot that plays a uniformly random legal action, written against the
// referee's gRPC contract (proto/referee/v1/referee.proto) in plain Node.js.
//
// Copy this file to start your own bot: replace chooseAction() with
// something smarter and keep the rest.
//
// The referee launches this process with:
//   REFEREE_ADDRESS   where to connect, e.g. "unix:///tmp/x/referee.sock"
//   REFEREE_SECRET    the secret to put in the Hello
// Optional:
//   REFEREE_BOT_NAME  the name sent in the Hello (default "js-random")
//   REFEREE_PROTO_DIR the root holding referee/v1/*.proto (default ../../proto)
//   BOT_SEED          fixed seed for the random choices (default: the seed the
//                     referee sends with each game start)
//   BOT_VERBOSE       if set, log games and events to stderr
//
// stdout is left alone; all logging goes to stderr.

'use strict';

const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const PROTOCOL_VERSION = 1;

const address = process.env.REFEREE_ADDRESS;
const secret = process.env.REFEREE_SECRET || '';
const botName = process.env.REFEREE_BOT_NAME || 'js-random';
const protoRoot =
  process.env.REFEREE_PROTO_DIR || path.join(__dirname, '../../proto');
const verbose = Boolean(process.env.BOT_VERBOSE);

function log(...args) {
  console.error(`[${botName}]`, ...args);
}

function debug(...args) {
  if (verbose) log(...args);
}

// --- Seeded PRNG --------------------------------------------------------------

// 32-bit FNV-1a hash of a string, to turn any seed text into a number.
function hashString(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

// mulberry32: tiny, fast, good enough for picking moves. Returns a function
// giving floats in [0, 1).
function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeSeed() {
  const s = process.env.BOT_SEED;
  if (s !== undefined && s !== '') {
    return /^\d+$/.test(s) ? Number(BigInt(s) & 0xffffffffn) : hashString(s);
  }
  return secret ? hashString(secret) : Date.now() >>> 0;
}

let random = mulberry32(makeSeed());

// --- The "strategy" -----------------------------------------------------------

// Pick an index into request.legal_actions. This is the only function a
// real bot needs to change; request.observation holds everything the seat
// may know (e.g. request.observation.thief for Thief).
function chooseAction(request) {
  const n = request.legal_actions.length;
  if (n === 0) {
    // Should never happen; answer anyway so the referee is not kept waiting.
    log(`request ${request.request_id} has no legal actions`);
    return 0;
  }
  return Math.floor(random() * n);
}

// --- Protocol -----------------------------------------------------------------

function main() {
  if (!address) {
    log('REFEREE_ADDRESS is not set (the referee sets it when it launches the bot)');
    process.exit(2);
  }

  // Load the contract straight from the .proto files. keepCase keeps the
  // snake_case field names of the .proto; longs: String turns uint64
  // request ids into decimal strings so they round-trip exactly; oneofs
  // adds a `message` field naming which member of the oneof is set.
  let packageDefinition;
  try {
    packageDefinition = protoLoader.loadSync(
      path.join(protoRoot, 'referee/v1/referee.proto'),
      {
        keepCase: true,
        longs: String,
        enums: String,
        defaults: true,
        oneofs: true,
        // Where the imports ("referee/v1/cards.proto", ...) are found.
        includeDirs: [protoRoot],
      },
    );
  } catch (err) {
    log(`cannot load the .proto files under ${protoRoot} ` +
      `(set REFEREE_PROTO_DIR to the repo's proto/ directory): ${err.message}`);
    process.exit(2);
  }
  const refereeV1 = grpc.loadPackageDefinition(packageDefinition).referee.v1;
  const client = new refereeV1.RefereeService(
    address,
    grpc.credentials.createInsecure(),
  );

  const call = client.Play();
  let seat = null;

  call.on('data', (response) => {
    switch (response.message) {
      case 'welcome':
        debug(`welcome: referee ${response.welcome.referee_version}, ` +
          `protocol ${response.welcome.protocol_version}`);
        break;
      case 'game_start': {
        const start = response.game_start;
        seat = start.seat;
        // Reseed per game (unless BOT_SEED overrides), so a replayed game repeats.
        if (!process.env.BOT_SEED) random = mulberry32(hashString(String(start.seed)));
        debug(`game ${start.game_id} (${start.ruleset}): seat ${seat} of ` +
          `${start.seats} [${start.seat_names.join(', ')}]`);
        break;
      }
      case 'decision_request': {
        const request = response.decision_request;
        const actionIndex = chooseAction(request);
        debug(`request ${request.request_id}: ` +
          `${request.legal_actions[actionIndex]?.label ?? '?'} ` +
          `(${actionIndex + 1}/${request.legal_actions.length})`);
        // request_id is a uint64 as a string; send the same string back.
        call.write({
          decision: { request_id: request.request_id, action_index: actionIndex },
        });
        break;
      }
      case 'events':
        // Everything one state change produced that this seat may see, in order.
        for (const event of response.events.events) {
          debug(`event #${event.seq} ${event.kind}: ${event.text}`);
        }
        break;
      case 'game_end': {
        const end = response.game_end;
        const results = end.seats
          .map((r, i) => `${i}:${r.bot_name}=${r.score} (#${r.place})`)
          .join(' ');
        debug(`game ${end.game_id} over: ${results}`);
        break;
      }
      default:
        debug('ignoring unknown message', response);
    }
  });

  // The referee closed its side: close ours too. The final status follows.
  call.on('end', () => call.end());

  // An 'error' is always followed by 'status'; handle it there. (Without a
  // listener, an error event would crash the process.)
  call.on('error', () => {});

  // The call is over: exit 0 if the referee ended the stream normally.
  call.on('status', (status) => {
    if (status.code === grpc.status.OK) {
      debug('stream closed by the referee');
      client.close();
      process.exit(0);
    }
    log(`stream failed: ${grpc.status[status.code]} (${status.code}): ${status.details}`);
    client.close();
    process.exit(1);
  });

  call.write({
    hello: { protocol_version: PROTOCOL_VERSION, bot_name: botName, secret },
  });
}

main();
